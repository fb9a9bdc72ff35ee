import { bucketByDay, type DayTotal, StatsDaysQuery, statsWindow } from '@qm/contracts/rest';
import { type Caller, feedSince, forbidden, hasRole, invalid } from '@qm/platform';
import type { OrderRecord } from '../domain/order';
import { ALL_ORDERS, type OrderStore } from '../store/orders';

/**
 * The admin dashboard's order figures: completed purchases per day (by the day placed) and every
 * order by status. The days come from the administrators' feed of every order, read back only as far
 * as the window (FerretDB v1 pushes down no date range: docs/adr/004) and summed here; the statuses
 * are the indexed counts the order management page uses.
 */
export function createOrderStats(d: { orders: OrderStore }) {
  return {
    /** `days` 0 means the default (30). */
    async get(
      caller: Caller | undefined,
      days: number,
      now = new Date(),
    ): Promise<{ days: DayTotal[]; byStatus: Record<OrderRecord['status'], number> }> {
      if (!caller || !hasRole(caller, 'Admin'))
        throw forbidden('Only administrators can read order statistics');
      const parsed = StatsDaysQuery.safeParse({ days: days || undefined });
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid days');
      const window = statsWindow(now, parsed.data.days);
      const [recent, pending, completed, cancelled] = await Promise.all([
        feedSince(
          async (page, pageSize) => {
            const { orders, total } = await d.orders.page('all', ALL_ORDERS, page, pageSize);
            return { items: orders, total };
          },
          (o: OrderRecord) => o.createdAt,
          window.since,
        ),
        d.orders.countByStatus('pending'),
        d.orders.countByStatus('completed'),
        d.orders.countByStatus('cancelled'),
      ]);
      const purchases = recent.filter((o) => o.status === 'completed');
      return {
        days: bucketByDay(
          window,
          purchases,
          (o) => o.createdAt,
          (o) => o.totalPaise,
        ),
        byStatus: { pending, completed, cancelled },
      };
    },
  };
}

export type OrderStats = ReturnType<typeof createOrderStats>;
