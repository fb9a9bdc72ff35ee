import { renderToString } from 'react-dom/server';
import { AppProviders } from '../src/App';
import { queryClient } from '../src/queryClient';
import { separateThemeVariables, themeVariablesBeside } from '../src/themeVariables';

/**
 * A signed-in page's frame brings the theme's CSS variables beside #root, and the provider then leaves
 * them out of its first render instead of working them out again (docs/adr/039).
 */
describe("the theme's CSS variables of a prerendered frame", () => {
  afterAll(() => queryClient.clear());
  const VARIABLES = 'data-mantine-styles="true"';

  it('are taken out of the markup whole, the readable colours with them', () => {
    const rendered = renderToString(
      <AppProviders>
        <p>Wallet</p>
      </AppProviders>,
    );
    const { markup, variables } = separateThemeVariables(rendered);
    expect(markup).toContain('<p>Wallet</p>');
    expect(markup).not.toContain(VARIABLES);
    expect(variables).toMatch(/^<style data-mantine-styles="true"[^>]*>[^<]*<\/style>$/);
    // theme.ts's contrast-checked colours, for both schemes.
    expect(variables).toContain('--mantine-color-dimmed');
    expect(variables).toContain('[data-mantine-color-scheme="dark"]');
    expect(markup.length + variables.length).toBe(rendered.length);
  });

  it('are left out by the provider of a page that already has them', () => {
    const rendered = renderToString(
      <AppProviders themeVariablesInPage>
        <p>Wallet</p>
      </AppProviders>,
    );
    expect(rendered).toContain('<p>Wallet</p>');
    expect(rendered).not.toContain(VARIABLES);
    expect(() => separateThemeVariables(rendered)).toThrow(/no <style>/);
  });

  it('are found only where the prerender puts them: right after #root', () => {
    const root = (next: { matches: (selector: string) => boolean } | null) =>
      ({ nextElementSibling: next }) as unknown as Element;
    const style = { matches: (selector: string) => selector === `style[${VARIABLES}]` };
    expect(themeVariablesBeside(root(style))).toBe(true);
    expect(themeVariablesBeside(root({ matches: () => false }))).toBe(false);
    expect(themeVariablesBeside(root(null))).toBe(false);
  });
});
