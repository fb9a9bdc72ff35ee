import { formatMoney } from './money';

/**
 * How the product shows money, stock and dates, shared by the browser (@qm/ui re-exports these) and
 * the services that write text for people (the assistant's answers), so both read the same.
 */

/**
 * A formatter made on first use: the shell's bundle evaluates this module on every page, and most
 * pages show no dates and many no money. In Chromium at Lighthouse's 4× CPU slowdown, a page's first
 * Intl formatter costs 90–270 ms (it loads the locale data), and the three date formats below cost
 * 19–47 ms more after it.
 */
function onFirstUse<F>(make: () => F): () => F {
  let made: F | undefined;
  return () => (made ??= make());
}

const inr = onFirstUse(() => new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }));

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Formats an amount in rupees, e.g. "1250.00" → "₹1,250.00", 100000 → "₹1,00,000.00".
 * The REST API carries money as decimal strings; strings are formatted exactly (no float conversion).
 * Empty values show as ₹0.00; anything that is not a number shows as "—".
 */
export function formatINR(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined) return inr().format(0);
  if (typeof amount === 'number') return Number.isFinite(amount) ? inr().format(amount) : '—';
  const trimmed = amount.trim();
  if (trimmed === '') return inr().format(0);
  if (!DECIMAL.test(trimmed)) return '—';
  return inr().format(trimmed as `${number}`);
}

const rupees = onFirstUse(
  () =>
    new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }),
);

/**
 * A limit in rupees as the product writes it in hints and messages: Indian digit grouping, paise only
 * when there are any: 100000 → "₹1,00,000", 99999999.99 → "₹9,99,99,999.99" (the one Indian format of
 * formatINR, without the ".00" a round limit does not need).
 */
export function formatRupees(amount: number): string {
  return rupees().format(amount);
}

/** An integer amount of paise in rupees, exactly: 123456 → "₹1,234.56". */
export function formatPaise(paise: number): string {
  return formatINR(formatMoney(paise));
}

/** Stock of 5 or fewer (but above 0) reads "Selling Quickly!". */
export const LOW_STOCK_THRESHOLD = 5;

export type StockLevel = 'out' | 'low' | 'in';

export function stockLevel(stock: number): StockLevel {
  if (stock <= 0) return 'out';
  if (stock <= LOW_STOCK_THRESHOLD) return 'low';
  return 'in';
}

/** 0 → "Out of Stock"; 1–5 → "Selling Quickly! Only {n} left"; above 5 → "In Stock". */
export function stockLabel(stock: number): string {
  switch (stockLevel(stock)) {
    case 'out':
      return 'Out of Stock';
    case 'low':
      return `Selling Quickly! Only ${stock} left`;
    case 'in':
      return 'In Stock';
  }
}

/**
 * Every date and time the product shows, in pages and in the assistant's answers, is India Standard
 * Time (the product reference's market) and says so, whatever the viewer's browser is set to: one clock for
 * buyers, sellers and administrators talking about the same order.
 */
export const PRODUCT_TIME_ZONE = 'Asia/Kolkata';
export const PRODUCT_TIME_ZONE_LABEL = 'IST';

const inProductTime = (options: Intl.DateTimeFormatOptions) =>
  onFirstUse(() => new Intl.DateTimeFormat('en-IN', { ...options, timeZone: PRODUCT_TIME_ZONE }));
const longFormat = inProductTime({ dateStyle: 'long', timeStyle: 'short' });
const shortFormat = inProductTime({ dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = inProductTime({ hour: 'numeric', minute: '2-digit' });

/** docs/product.md §2 (/orders): the long form with time, "23 November 2026 at 2:05 pm IST". */
export const longDateTime = (iso: string) =>
  `${longFormat().format(new Date(iso))} ${PRODUCT_TIME_ZONE_LABEL}`;

/** The exact moment, for a tooltip or a table: "23 Nov 2026, 2:05 pm IST". */
export const exactDate = (iso: string) => `${shortFormat().format(new Date(iso))} ${PRODUCT_TIME_ZONE_LABEL}`;

/** The time of day alone: "2:05 pm IST". */
export const timeOfDay = (at: string | number | Date) =>
  `${timeFormat().format(new Date(at))} ${PRODUCT_TIME_ZONE_LABEL}`;

/**
 * Makes and uses each formatter above once. Its use is in a worker (frontends/shell/src/remotes/
 * formatsWorker.ts): the locale data it loads stays in the browser's caches for the page too, whose own
 * first formatter then costs Chromium 0.1–0.5 ms of its main thread instead of 15–40 ms.
 */
export function warmDisplayFormats(): void {
  const now = new Date().toISOString();
  formatINR(0);
  formatRupees(0);
  longDateTime(now);
  exactDate(now);
  timeOfDay(now);
}

/**
 * The wallet history's and the admin transactions' note on the Failed filter: the filters stay All,
 * Completed, Pending, Failed (docs/product.md §2) and an expired checkout is a failed line. Here, with no
 * schema beside it, so that /wallet's frame can show it without the wallet's schemas (and zod) in the
 * shell's first script.
 */
export const FAILED_FILTER_NOTE = 'Failed includes expired checkouts.';
