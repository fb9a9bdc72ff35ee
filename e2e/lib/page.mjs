// What the journeys ask of a page, shared: a toast shown, and how far the page is wider than the screen.
/* global document, window */

/** Waits for the toast titled `title` (and carrying `message`, when given). */
export async function toast(page, title, message) {
  const alert = page.locator('.mantine-Notification-root').filter({ hasText: title });
  await alert.first().waitFor({ state: 'visible' });
  if (message) await alert.filter({ hasText: message }).first().waitFor({ state: 'visible' });
}

/** How many pixels the page is wider than its viewport (0 or less: it fits). */
export const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
