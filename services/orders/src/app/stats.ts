import {
  type DayTotal,
  STATS_LIMITS,
  StatsDaysQuery,
  statsDay,
  statsWindow,
  windowTotals,
} from '@qm/contracts/rest';
import { type Caller, feedTally, forbidden, hasRole, invalid } from '@qm/platform';
import type { Connection } from 'mongoose';
import type { OrderRecord } from '../domain/order';
import { ALL_ORDERS, type OrderFeed, type OrderStore, REFUNDED_FEED } from '../store/orders';

/** An order still pending this long is not waited for: it is not a purchase (ADR 010's sweeper ends it). */
const PENDING_WAIT_MS = 60 * 60_000;

const settled = (o: OrderRecord, now: Date) =>
  o.status !== 'pending' || now.getTime() - o.createdAt.getTime() > PENDING_WAIT_MS;

/** The one key of an all-time tally (feedTally keeps its totals by key; this one has a single key). */
const EVER = 'ever';

/**
 * The value in paise of every completed order in one feed, ever (the order management page's Army
 * Purchases and Manufacturer Sales cards): a running tally like the dashboard's days (@qm/platform
 * feedTally), so a page reads only the orders placed since the last one, never every order.
 */
export function completedValue(d: {
  conn: Connection;
  orders: OrderStore;
  feed: OrderFeed;
  owner: string;
}): () => Promise<number> {
  const tally = feedTally<OrderRecord>({
    conn: d.conn,
    model: d.orders.model as never,
    feed: d.feed,
    owner: d.owner,
    id: `orders:completed-value:${d.feed}:${d.owner}`,
    dateOf: (o) => o.createdAt,
    dayOf: (o) => (o.status === 'completed' ? EVER : null),
    paiseOf: (o) => o.totalPaise,
    settled,
    horizon: () => ({ since: new Date(0), oldestDay: EVER }),
  });
  return async () => (await tally.days())[EVER]?.amountPaise ?? 0;
}

/**
 * The value in paise of every refunded order, ever (the money paid back to buyers): a running tally
 * of the refunded feed, where an order is filed by the update that refunds it (store/orders.ts), so
 * a read takes in only the refunds approved since the last one. A refunded order never changes again.
 */
function refundedValue(d: { conn: Connection; orders: OrderStore }): (now: Date) => Promise<number> {
  const tally = feedTally<OrderRecord>({
    conn: d.conn,
    model: d.orders.model as never,
    feed: REFUNDED_FEED,
    owner: ALL_ORDERS,
    id: 'orders:refunded-value',
    dateOf: (o) => o.refund?.decidedAt ?? o.updatedAt,
    dayOf: () => EVER,
    paiseOf: (o) => o.totalPaise,
    settled: () => true,
    horizon: () => ({ since: new Date(0), oldestDay: EVER }),
  });
  return async (now) => (await tally.days(now))[EVER]?.amountPaise ?? 0;
}

/** What the dashboard's order figures are. */
export interface OrderFigures {
  days: DayTotal[];
  byStatus: Record<OrderRecord['status'], number>;
  /** The totals of the refunded orders (byStatus.refunded of them), paid back to their buyers. */
  refundedPaise: number;
}

/**
 * The admin dashboard's order figures: completed purchases per IST day (the day placed), every
 * order by status and the money refunded. The days are a running tally of the administrators' feed
 * of every order (@qm/platform feedTally): a request reads only the orders placed since the last one,
 * never the window's rows again; the statuses are the indexed counts of the order management page.
 */
export interface OrderStats {
  /** Administrators only. `days` 0 means the default (30). */
  get(caller: Caller | undefined, days: number, now?: Date): Promise<OrderFigures>;
}

export function createOrderStats(d: { conn: Connection; orders: OrderStore }): OrderStats {
  const purchases = feedTally<OrderRecord>({
    conn: d.conn,
    model: d.orders.model as never,
    feed: 'all',
    owner: ALL_ORDERS,
    id: 'orders:completed-per-day',
    dateOf: (o) => o.createdAt,
    dayOf: (o) => (o.status === 'completed' ? statsDay(o.createdAt) : null),
    paiseOf: (o) => o.totalPaise,
    settled,
    horizon: (now) => {
      const longest = statsWindow(now, STATS_LIMITS.daysMax);
      return { since: longest.since, oldestDay: longest.days[0]! };
    },
  });
  const refunded = refundedValue(d);

  return {
    async get(caller: Caller | undefined, days: number, now = new Date()): Promise<OrderFigures> {
      if (!caller || !hasRole(caller, 'Admin'))
        throw forbidden('Only administrators can read order statistics');
      const parsed = StatsDaysQuery.safeParse({ days: days || undefined });
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid days');
      const [tally, pending, completed, cancelled, refundedCount, refundedPaise] = await Promise.all([
        purchases.days(now),
        d.orders.countByStatus('pending'),
        d.orders.countByStatus('completed'),
        d.orders.countByStatus('cancelled'),
        d.orders.countByStatus('refunded'),
        refunded(now),
      ]);
      return {
        days: windowTotals(statsWindow(now, parsed.data.days), tally),
        byStatus: { pending, completed, cancelled, refunded: refundedCount },
        refundedPaise,
      };
    },
  };
}
