import type { DayTotal, MoneyStats, OrderStats, Product, UserStats } from '@qm/contracts/rest';
import { apiFetch, apiFetchPage } from '@qm/ui';
import { queryOptions } from '@tanstack/react-query';

/** The window of the dashboard's per-day charts (the API's default). */
export const DASHBOARD_DAYS = 30;

/** A minute: the dashboard's figures may lag that much, and revisiting it costs nothing meanwhile. */
const STALE_MS = 60_000;

const stats = <T>(path: string) =>
  queryOptions({
    queryKey: [path] as const,
    queryFn: ({ signal }) => apiFetch<T>(path, { signal }),
    staleTime: STALE_MS,
  });

export const moneyStatsQuery = () => stats<MoneyStats>(`/api/admin/stats/money?days=${DASHBOARD_DAYS}`);
export const orderStatsQuery = () => stats<OrderStats>(`/api/admin/stats/orders?days=${DASHBOARD_DAYS}`);
export const userStatsQuery = () => stats<UserStats>('/api/admin/stats/users');

/** The products list's total (docs/product.md §2: the dashboard's totals come from the lists); one row fetched. */
export const productsTotalQuery = () =>
  queryOptions({
    queryKey: ['/api/products', { page: 1, pageSize: 1, view: 'total' }] as const,
    queryFn: async ({ signal }) =>
      (await apiFetchPage<Product>('/api/products?page=1&pageSize=1', { signal })).total,
    staleTime: STALE_MS,
  });

// ---- chart data -----------------------------------------------------------------------------------

/** The API's days are India Standard Time calendar days (YYYY-MM-DD); shown as "23 Nov". */
const dayFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** Rupees from paise, for a chart's scale (the figures themselves are formatted with formatINR). */
export const rupees = (paise: number) => paise / 100;

const compactInr = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
/** An axis tick in rupees: "₹1.5K", "₹2.5L", "₹1.2Cr" (Indian compact notation). */
export const compactINR = (amount: number) => compactInr.format(amount);

export interface DayPoint {
  day: string;
  label: string;
  count: number;
  rupees: number;
}

/** One point per day for a chart, oldest first, with its axis label. */
export const dayPoints = (days: DayTotal[]): DayPoint[] =>
  days.map((d) => ({ day: d.day, label: dayLabel(d.day), count: d.count, rupees: rupees(d.amountPaise) }));

/** The window's totals (the figure above a chart). */
export function windowTotal(days: DayTotal[]): { count: number; amountPaise: number } {
  return days.reduce((t, d) => ({ count: t.count + d.count, amountPaise: t.amountPaise + d.amountPaise }), {
    count: 0,
    amountPaise: 0,
  });
}

export interface Slice {
  name: string;
  value: number;
  color: string;
}

/** A donut's slices in a fixed order and colour; empty when every count is zero (the empty state). */
export function slices<K extends string>(
  counts: Record<K, number>,
  legend: readonly { key: K; name: string; color: string }[],
): Slice[] {
  const out = legend.map(({ key, name, color }) => ({ name, value: counts[key], color }));
  return out.some((s) => s.value > 0) ? out : [];
}

/** The colours of the order and user status badges elsewhere in the admin pages. */
export const ORDER_STATUS_LEGEND = [
  { key: 'completed', name: 'Completed', color: 'green.6' },
  { key: 'pending', name: 'Pending', color: 'yellow.6' },
  { key: 'cancelled', name: 'Cancelled', color: 'red.6' },
  { key: 'refunded', name: 'Refunded', color: 'grape.6' },
] as const;

export const USER_STATUS_LEGEND = [
  { key: 'approved', name: 'Approved', color: 'green.6' },
  { key: 'pending', name: 'Pending', color: 'yellow.6' },
  { key: 'rejected', name: 'Rejected', color: 'red.6' },
] as const;
