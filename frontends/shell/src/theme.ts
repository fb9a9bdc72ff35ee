import {
  createTheme,
  getFontSize,
  getPrimaryShade,
  localStorageColorSchemeManager,
  type ComboboxFactory,
  type ConvertCSSVariablesInput,
  type CSSVariablesResolver,
  type DrawerFactory,
  type ExtendComponent,
  type FactoryPayload,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeComponent,
  type ModalFactory,
  type NotificationFactory,
  type PaginationFactory,
  type PasswordInputFactory,
} from '@mantine/core';
import { over, readableOn } from './contrast';

/**
 * What `Component.extend` does (it returns its argument), typed the same, without importing the
 * component: the theme is on every page, and Pagination, PasswordInput, Modal... would come with it.
 */
const extend = <Payload extends FactoryPayload>(input: ExtendComponent<Payload>) =>
  input as MantineThemeComponent;

/** Olive drab, the brand colour. */
const army: MantineColorsTuple = [
  '#f3f7ee',
  '#e5ecdb',
  '#c9d8b3',
  '#abc287',
  '#92b062',
  '#82a44b',
  '#799e3e',
  '#668a31',
  '#5a7b29',
  '#4b6a1e',
];

const PAGINATION_CONTROLS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/**
 * Inter, self-hosted (fonts.css: its Latin subset, variable weight, bundled and served by the gateway);
 * the system stack while it loads (font-display: swap) and for characters outside the subset (₹).
 */
const FONT_FAMILY =
  '"Inter Variable", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

export const theme = createTheme({
  primaryColor: 'army',
  colors: { army },
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  fontFamily: FONT_FAMILY,
  headings: { fontFamily: FONT_FAMILY, fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    // Mantine leaves --input-fz unset on the password field, whose text and placeholder then fall back
    // to 16 px beside the 14 px of every other field.
    PasswordInput: extend<PasswordInputFactory>({
      styles: (_theme, props) => ({ root: { '--input-fz': getFontSize(props.size ?? 'sm') } }),
    }),
    // A select's list is built when it opens, not hidden in every page that has one: kept mounted (Mantine's
    // default), each page load built and positioned the closed list of options (floating-ui in the commit).
    Combobox: extend<ComboboxFactory>({ defaultProps: { keepMounted: false } }),
    // Dialogs' and drawers' close buttons have a name (axe "button-name") unless a page gives one.
    Modal: extend<ModalFactory>({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: extend<DrawerFactory>({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // The toasts' close button has a name (axe "button-name"); under a title their text is the
    // (readable) dimmed colour, where Mantine hard-codes grey 6 (3.3:1 on white).
    Notification: extend<NotificationFactory>({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: (_theme, props) =>
        props.title ? { description: { color: 'var(--mantine-color-dimmed)' } } : {},
    }),
    // Every pager's arrows have a name (axe "button-name"); pages name their numbers ("Page 2").
    Pagination: extend<PaginationFactory>({
      defaultProps: {
        getControlProps: (control) => ({ 'aria-label': PAGINATION_CONTROLS[control] }),
        getItemProps: (page) => ({ 'aria-label': `Page ${page}` }),
      },
    }),
  },
});

/**
 * WCAG AA (4.5:1) for every text colour the theme hands out, in one place. Mantine's
 * defaults fall short: dimmed text (#868e96 on white: 3.3:1), light badges and buttons (shade 8 on its
 * own 10 % tint, e.g. green 3.1:1), white text on filled green, orange or olive in dark mode, and a
 * disabled button drawn in the card's own colour in dark mode. Each colour keeps its hue and is only
 * darkened (light surfaces) or lightened (dark surfaces) as far as it needs.
 */
function readableVariables(t: MantineTheme): ConvertCSSVariablesInput {
  const gray = t.colors.gray;
  const dark = t.colors.dark;
  // Pages, cards, striped and hovered rows, the footer, disabled buttons.
  const lightSurfaces = [t.white, gray[0], gray[1], gray[2]];
  const darkSurfaces = [dark[8], dark[7], dark[6], dark[5]];
  const shadeLight = getPrimaryShade(t, 'light');
  const shadeDark = getPrimaryShade(t, 'dark');
  const dimmedLight = readableOn(gray[6], lightSurfaces);
  const dimmedDark = readableOn(dark[2], darkSurfaces, { towards: 'white' });
  const light: Record<string, string> = {
    '--mantine-color-dimmed': dimmedLight,
    '--mantine-color-disabled-color': dimmedLight,
  };
  const darkVars: Record<string, string> = {
    '--mantine-color-dimmed': dimmedDark,
    '--mantine-color-disabled': dark[5],
    '--mantine-color-disabled-color': dimmedDark,
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === 'dark') continue;
    // Light scheme: text, outline, the light variant (on a 10-12 % tint of the shade), white on filled.
    const tints = lightSurfaces.map((surface) => over(shades[shadeLight], 0.12, surface));
    const text = readableOn(shades[shadeLight], lightSurfaces);
    const filledLight = readableOn(shades[shadeLight], [t.white]);
    Object.assign(light, {
      [`--mantine-color-${name}-text`]: text,
      [`--mantine-color-${name}-outline`]: text,
      [`--mantine-color-${name}-light-color`]: readableOn(shades[shadeLight], tints),
      [`--mantine-color-${name}-filled`]: filledLight,
      [`--mantine-color-${name}-filled-hover`]: over('#000000', 0.12, filledLight),
    });
    // Dark scheme: text and outline (shade 4) lightened on dark surfaces; white on filled.
    const filledDark = readableOn(shades[shadeDark], [t.white]);
    Object.assign(darkVars, {
      [`--mantine-color-${name}-text`]: readableOn(shades[4], darkSurfaces, { towards: 'white' }),
      [`--mantine-color-${name}-outline`]: readableOn(shades[4], darkSurfaces, { towards: 'white' }),
      [`--mantine-color-${name}-filled`]: filledDark,
      [`--mantine-color-${name}-filled-hover`]: over('#000000', 0.12, filledDark),
    });
  }
  // A field's error message and its invalid text: Mantine draws them red 6 in light mode (3.3:1 on white)
  // and red 8 in dark mode (3.4:1 on the body), so the readable red of each scheme instead.
  light['--mantine-color-error'] = light['--mantine-color-red-text']!;
  darkVars['--mantine-color-error'] = darkVars['--mantine-color-red-text']!;
  return { variables: {}, light, dark: darkVars };
}

const resolved = new WeakMap<MantineTheme, ConvertCSSVariablesInput>();

/** readableVariables, worked out once per theme: Mantine asks again on each render of its provider. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  let variables = resolved.get(t);
  if (!variables) resolved.set(t, (variables = readableVariables(t)));
  return variables;
};

/** docs/product.md §3: the theme is kept in localStorage under "theme" as "light" or "dark". */
export const THEME_STORAGE_KEY = 'theme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });
