import { roles } from '@qm/contracts/grpc';
import {
  MoneyStatsSchema,
  OrderStatsSchema,
  STATS_TIME_ZONE,
  StatsDaysQuery,
  UserStatsSchema,
  USER_ROLES,
} from '@qm/contracts/rest';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';

const TAG = 'Dashboard statistics';
const DAYS = 'per India Standard Time day over the last `days` days (1–90, default 30), oldest first';

/**
 * The admin dashboard's aggregates (docs/product.md §2 /admin/dashboard): each owning service sums its own
 * data and answers a few numbers per day or per status; the browser never receives the rows.
 */
export function registerStatsRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'get',
    path: '/api/admin/stats/money',
    tag: TAG,
    summary: `Money in: completed card top-ups (count and paise) ${DAYS} (administrators).`,
    access: 'admin',
    query: StatsDaysQuery,
    response: MoneyStatsSchema,
    async handler({ query }) {
      const out = await clients.wallet.getMoneyStats({ days: query.days });
      return { timeZone: STATS_TIME_ZONE, days: out.days };
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/stats/orders',
    tag: TAG,
    summary:
      `Completed purchases (count and paise, by the day placed) ${DAYS}, every order by status, and ` +
      "the refunded orders' totals in paise (administrators).",
    access: 'admin',
    query: StatsDaysQuery,
    response: OrderStatsSchema,
    async handler({ query }) {
      const out = await clients.orders.getOrderStats({ days: query.days });
      return {
        timeZone: STATS_TIME_ZONE,
        days: out.days,
        byStatus: {
          pending: out.pendingCount,
          completed: out.completedCount,
          cancelled: out.cancelledCount,
          refunded: out.refundedCount,
        },
        refundedPaise: out.refundedPaise,
      };
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/stats/users',
    tag: TAG,
    summary: 'Every user, administrators included, counted by status and by role (administrators).',
    access: 'admin',
    response: UserStatsSchema,
    async handler() {
      const out = await clients.identity.getUserStats({});
      const byRole = Object.fromEntries(USER_ROLES.map((role) => [role, 0])) as Record<
        (typeof USER_ROLES)[number],
        number
      >;
      for (const { role, count } of out.roles) {
        const name = roles.fromProto(role);
        if (name) byRole[name] = count;
      }
      const byStatus = {
        pending: out.pendingCount,
        approved: out.approvedCount,
        rejected: out.rejectedCount,
      };
      return { total: byStatus.pending + byStatus.approved + byStatus.rejected, byStatus, byRole };
    },
  });
}
