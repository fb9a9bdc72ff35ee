// Prerenders, after the production build (npm run build), what a first paint should not wait for the
// JavaScript to show (ADR 018):
// - the landing page into dist/landing.html: the gateway answers a visitor's GET / with it and the bundle
//   hydrates that markup (src/bootstrap.tsx). Rendered as the first client render is: a visitor (the
//   gateway sends it only to a request without a session), the light theme (theme-init.js sets the saved
//   one before the page paints; Mantine's own toggle follows after hydration);
// - the frame of each remote page with a heading (@qm/ui PAGE_HEADINGS) into dist/frames/<page>.html:
//   the layout and the page's heading over "Checking your session...", as the guard shows it while the
//   session is checked. The gateway sends it for that path to a request with a session; the bundle
//   renders over it (the same frame, then the page), without hydrating: the header's signed-in links
//   and the theme toggle's icon are not known when it is built;
// - /wallet's frame once more with a balance into dist/frames/with-data/wallet.html: a sentinel balance
//   the gateway replaces with the caller's when it sends the page with its data (docs/adr/031); and again
//   with an empty history's card under it into dist/frames/with-data/no-history/wallet.html, which the
//   gateway sends when the history it read is empty.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  FRAME_SENTINEL_BALANCE,
  formatINR,
  type OwnWalletView,
  type TransactionsPage,
  WALLET_LIMITS,
} from '@qm/contracts/rest';
import { CURRENT_USER_QUERY_KEY, historyPageKey, PAGE_HEADINGS, WALLET_VIEW_KEY } from '@qm/ui';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from '../src/App';
import { queryClient, startAsVisitor } from '../src/queryClient';
import { routes } from '../src/router';
import { separateThemeVariables } from '../src/themeVariables';

const DIST = path.join(__dirname, '..', 'dist');
const ROOT = '<div id="root"></div>';
const NO_TRANSACTIONS = 'No transactions found';

/** The markup of the app at `pathname`, as its first render in the browser makes it. */
async function render(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response)
    throw new Error(`prerender of ${pathname}: the router answered ${context.status}`);
  return renderToString(
    <AppProviders>
      {/* hydrate={false}: no inline script with router state (the CSP forbids it; there is none to pass). */}
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />
    </AppProviders>,
  );
}

async function main(): Promise<void> {
  // What the browser bundle has from the build (rspack.shared.mjs, DefinePlugin).
  Object.assign(globalThis, { __QM_BUILD_YEAR__: new Date().getFullYear() });
  const template = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT}`);
  const page = (kind: 'visitor' | 'frame', markup: string) => {
    // The landing page is hydrated: its markup stays as rendered. A frame is replaced by the first
    // render, all but its theme's variables, which stand beside it (themeVariables.ts).
    if (kind === 'visitor')
      return template.replace(ROOT, `<div id="root" data-prerendered="visitor">${markup}</div>`);
    const frame = separateThemeVariables(markup);
    return template.replace(
      ROOT,
      `<div id="root" data-prerendered="frame">${frame.markup}</div>${frame.variables}`,
    );
  };

  startAsVisitor();
  const landing = await render('/');
  writeFileSync(path.join(DIST, 'landing.html'), page('visitor', landing));
  console.log(`prerendered / into dist/landing.html (${(landing.length / 1024).toFixed(1)} KiB of markup)`);

  // Whoever it is has not been asked yet: the guard shows the frame.
  queryClient.removeQueries({ queryKey: CURRENT_USER_QUERY_KEY });
  mkdirSync(path.join(DIST, 'frames'), { recursive: true });
  for (const pathname of Object.keys(PAGE_HEADINGS)) {
    const markup = await render(pathname);
    const { title } = PAGE_HEADINGS[pathname as keyof typeof PAGE_HEADINGS];
    if (!markup.includes(title)) throw new Error(`the frame of ${pathname} has no heading "${title}"`);
    const file = path.join('frames', `${pathname.slice(1)}.html`);
    writeFileSync(path.join(DIST, file), page('frame', markup));
    console.log(`prerendered the frame of ${pathname} into dist/${file}`);
  }
  // The wallet as the gateway sends it with /wallet, with a balance it can find and replace.
  const sentinel: OwnWalletView = {
    balance: FRAME_SENTINEL_BALANCE,
    heldBalance: '0.00',
    availableBalance: FRAME_SENTINEL_BALANCE,
    currency: 'INR',
    isActive: true,
    isPinSetup: true,
    proceedsOnHold: '0.00',
    heldProceeds: [],
  };
  queryClient.setQueryData(WALLET_VIEW_KEY, sentinel);
  // The gateway replaces the sentinel's first occurrence: there must be exactly one.
  const withSentinelOnce = (markup: string, which: string) => {
    const found = markup.split(formatINR(FRAME_SENTINEL_BALANCE)).length - 1;
    if (found !== 1) throw new Error(`${which} shows its sentinel balance ${found} times, not once`);
    return markup;
  };
  const withBalance = withSentinelOnce(await render('/wallet'), 'the frame of /wallet');
  mkdirSync(path.join(DIST, 'frames', 'with-data'), { recursive: true });
  writeFileSync(path.join(DIST, 'frames', 'with-data', 'wallet.html'), page('frame', withBalance));
  console.log('prerendered the frame of /wallet with a balance into dist/frames/with-data/wallet.html');
  // And with an empty history under it: a new wallet's page has nothing else to wait for.
  const emptyHistory: TransactionsPage = {
    transactions: [],
    total: 0,
    page: 1,
    pageSize: WALLET_LIMITS.historyPageSize,
  };
  queryClient.setQueryData(historyPageKey(1), emptyHistory);
  const withNoHistory = withSentinelOnce(await render('/wallet'), 'the frame of /wallet with no history');
  if (!withNoHistory.includes(NO_TRANSACTIONS))
    throw new Error(`the frame of /wallet with no history lacks "${NO_TRANSACTIONS}"`);
  mkdirSync(path.join(DIST, 'frames', 'with-data', 'no-history'), { recursive: true });
  writeFileSync(
    path.join(DIST, 'frames', 'with-data', 'no-history', 'wallet.html'),
    page('frame', withNoHistory),
  );
  console.log('prerendered it with an empty history into dist/frames/with-data/no-history/wallet.html');
  // Each cached query holds a garbage-collection timer (gcTime, 5 minutes) that kept this script, and so
  // every build, running for 6 minutes after its work was done.
  queryClient.clear();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
