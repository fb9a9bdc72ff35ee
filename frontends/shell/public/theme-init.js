/* global window, document */
// Applies the saved theme before the app loads (no flash of the light theme); same rule as the app:
// saved light/dark, otherwise the system preference. Mantine's colour-scheme manager reads the same
// localStorage key. A file rather than an inline script: the gateway's CSP allows scripts from 'self'
// only. index.html loads it without defer, so it runs before the first paint.
(() => {
  let scheme = 'light';
  try {
    const saved = window.localStorage.getItem('theme');
    if (saved === 'light' || saved === 'dark') scheme = saved;
    else if (window.matchMedia('(prefers-color-scheme: dark)').matches) scheme = 'dark';
  } catch {
    // localStorage or matchMedia unavailable: light
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
