import { z } from 'zod';
import type { OrderStatusName } from './orders';
import type { UserRole, UserStatusName } from './identity';

/**
 * The admin dashboard's aggregates (docs/product.md §2 /admin/dashboard, docs/API.md): money in and purchases
 * per day, orders by status, registrations by status and role. Each is computed by the service that
 * owns the data; the browser gets one small answer per chart, never the rows.
 *
 * Days are calendar days in India Standard Time: the users pay in rupees and read "today" as India's
 * today. IST is UTC+05:30 all year (no daylight saving since 1945), so a fixed offset is exact.
 */
export const STATS_TIME_ZONE = 'Asia/Kolkata';
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export const STATS_LIMITS = { daysDefault: 30, daysMax: 90 } as const;

/** The IST calendar day of an instant, as YYYY-MM-DD. */
export function statsDay(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant an IST day (YYYY-MM-DD) starts. */
export function statsDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS);
}

/**
 * The last `days` IST days up to and including today's, oldest first, and the instant the oldest
 * starts (what the services read back to).
 */
export function statsWindow(now: Date, days: number): { days: string[]; since: Date } {
  const today = statsDayStart(statsDay(now)).getTime();
  const list = Array.from({ length: days }, (_, i) => statsDay(new Date(today - (days - 1 - i) * DAY_MS)));
  return { days: list, since: statsDayStart(list[0]!) };
}

/** One day's count and amount (integer paise). */
export interface DayTotal {
  day: string;
  count: number;
  amountPaise: number;
}

/**
 * One DayTotal per day of the window, oldest first, from totals kept per day key (days without any
 * are zeros; days outside the window are left out).
 */
export function windowTotals(
  window: { days: string[] },
  perDay: Record<string, { count: number; amountPaise: number } | undefined>,
): DayTotal[] {
  return window.days.map((day) => ({
    day,
    count: perDay[day]?.count ?? 0,
    amountPaise: perDay[day]?.amountPaise ?? 0,
  }));
}

// ---- REST ---------------------------------------------------------------------------------------

export const StatsDaysQuery = z.object({
  days: z.coerce
    .number({ error: 'Days must be a whole number' })
    .int('Days must be a whole number')
    .min(1, 'Days must be at least 1')
    .max(STATS_LIMITS.daysMax, `Days must be at most ${STATS_LIMITS.daysMax}`)
    .default(STATS_LIMITS.daysDefault),
});
export type StatsDaysQuery = z.infer<typeof StatsDaysQuery>;

const DayTotalSchema = z.object({
  day: z.string().describe('IST calendar day, YYYY-MM-DD'),
  count: z.number().int(),
  amountPaise: z.number().int().describe('Integer paise (₹1 = 100)'),
});

/** GET /api/admin/stats/money: completed card top-ups per IST day. */
export const MoneyStatsSchema = z.object({
  timeZone: z.literal(STATS_TIME_ZONE),
  days: z.array(DayTotalSchema).describe('Oldest first, one per day of the window, zeros included'),
});
export type MoneyStats = z.infer<typeof MoneyStatsSchema>;

/**
 * GET /api/admin/stats/orders: completed purchases per IST day, every order by status, and the money
 * refunded.
 */
export const OrderStatsSchema = z.object({
  timeZone: z.literal(STATS_TIME_ZONE),
  days: z.array(DayTotalSchema).describe('Completed orders by the day they were placed, oldest first'),
  byStatus: z.object({
    pending: z.number().int(),
    completed: z.number().int(),
    cancelled: z.number().int(),
    refunded: z.number().int(),
  } satisfies Record<OrderStatusName, z.ZodType>),
  refundedPaise: z
    .number()
    .int()
    .describe("The refunded orders' totals, paid back to their buyers, ever (integer paise)"),
});
export type OrderStats = z.infer<typeof OrderStatsSchema>;

/** GET /api/admin/stats/users: every user (administrators included) by status and by role. */
export const UserStatsSchema = z.object({
  total: z.number().int(),
  byStatus: z.object({
    pending: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
  } satisfies Record<UserStatusName, z.ZodType>),
  byRole: z.object({
    Army: z.number().int(),
    Navy: z.number().int(),
    Airforce: z.number().int(),
    Manufacturer: z.number().int(),
    Admin: z.number().int(),
  } satisfies Record<UserRole, z.ZodType>),
});
export type UserStats = z.infer<typeof UserStatsSchema>;
