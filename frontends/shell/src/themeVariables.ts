/** Mantine's CSS variables of the theme (theme.ts's readable colours included), as its provider writes them. */
const THEME_VARIABLES = /<style data-mantine-styles="true"[^>]*>[\s\S]*?<\/style>/;

/**
 * The prerender's step for a signed-in page's frame (ADR 018): the theme's CSS variables that the
 * provider wrote into the markup, taken out of it so that they stand beside #root. There the first
 * render leaves them, and the provider need not work them out again on a page that is already drawn:
 * the contrast search of about a hundred colours, Mantine's own resolver, and a 13 KiB style that
 * made the browser restyle the page (docs/adr/039).
 */
export function separateThemeVariables(markup: string): { markup: string; variables: string } {
  const variables = markup.match(THEME_VARIABLES)?.[0];
  if (!variables) throw new Error("the markup has no <style> of the theme's CSS variables");
  return { markup: markup.replace(variables, ''), variables };
}

/** Whether the page came with the theme's CSS variables beside #root (separateThemeVariables). */
export const themeVariablesBeside = (container: Element): boolean =>
  container.nextElementSibling?.matches('style[data-mantine-styles="true"]') ?? false;
