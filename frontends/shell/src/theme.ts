import { createTheme, localStorageColorSchemeManager, type MantineColorsTuple } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'army',
  colors: { army },
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
});

/** Spec: the theme is kept in localStorage under "theme" as "light" or "dark". */
export const THEME_STORAGE_KEY = 'theme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_STORAGE_KEY });
