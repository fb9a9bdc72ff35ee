/**
 * The headings of the remote pages the shell shows before the page itself has loaded: prerendered into
 * the HTML the gateway sends for the path (frontends/shell/prerender) and kept while the session is
 * checked and the remote loads, so the page's title is the first thing painted and it does not move
 * when the page arrives. The pages render their headers from here, so the two cannot drift apart.
 */
export type PageHeading = { title: string; subtitle?: string };

export const PAGE_HEADINGS = {
  '/market': {
    title: 'Military Market',
    subtitle: 'Browse and acquire military-grade equipment and supplies',
  },
  '/orders': { title: 'Orders', subtitle: 'Track your purchases and sales.' },
  '/wallet': { title: 'Wallet' },
} as const satisfies Record<string, PageHeading>;

/** The prerendered heading of a path, if it has one. */
export function pageHeadingOf(pathname: string): PageHeading | undefined {
  return Object.hasOwn(PAGE_HEADINGS, pathname)
    ? PAGE_HEADINGS[pathname as keyof typeof PAGE_HEADINGS]
    : undefined;
}
