const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Formats an amount in rupees, e.g. "1250.00" → "₹1,250.00", 100000 → "₹1,00,000.00".
 * The REST API carries money as decimal strings; strings are formatted exactly (no float conversion).
 * Empty values show as ₹0.00; anything that is not a number shows as "—".
 */
export function formatINR(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined) return inr.format(0);
  if (typeof amount === 'number') return Number.isFinite(amount) ? inr.format(amount) : '—';
  const trimmed = amount.trim();
  if (trimmed === '') return inr.format(0);
  if (!DECIMAL.test(trimmed)) return '—';
  return inr.format(trimmed as `${number}`);
}
