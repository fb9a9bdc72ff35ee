import { activityCategories, type activityV1 } from '@qm/contracts/grpc';
import {
  ACTIVITY_MESSAGES as MSG,
  type ActivityCategoryName,
  type ActivityView,
  AdminActivitiesPageSchema,
  AdminActivitiesQuery,
  MyActivitiesPageSchema,
  MyActivitiesQuery,
  RecordActivityBody,
} from '@qm/contracts/rest';
import { z } from 'zod';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { limit } from '../http/rate-limit';

export function activityToRest(a: activityV1.Activity): ActivityView {
  return {
    id: a.id,
    userId: a.userId,
    username: a.username,
    email: a.email,
    action: a.action,
    category: (a.category || null) as ActivityCategoryName | null,
    details: a.details,
    created_at: a.createdAt,
  };
}

/**
 * The activity log of docs/product.md §7: what the browser reports (stamped with the session's user by
 * identity, which publishes it), the caller's own log and the administrators' filtered log (the
 * activity service holds the rules of docs/product.md §5).
 */
export function registerActivityRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'post',
    path: '/api/user/activity',
    tag: 'Activity',
    summary:
      'Records an activity only the browser knows of (profile_view) for the signed-in user, stamped now. ' +
      'Every other action is recorded by the service that performed it.',
    access: 'user',
    before: [
      limit({
        windowMs: 60_000,
        limit: 60,
        key: 'user',
        message: 'Too many activity reports. Please wait a minute and try again.',
      }),
    ],
    body: RecordActivityBody,
    response: z.object({ recorded: z.boolean() }),
    async handler({ body }) {
      return clients.identity.recordActivity({ action: body.action, details: body.details ?? '' });
    },
  });

  api.route({
    method: 'get',
    path: '/api/user/activity',
    tag: 'Activity',
    summary: "The caller's activity, newest first, paged.",
    access: 'user',
    query: MyActivitiesQuery,
    response: MyActivitiesPageSchema,
    async handler({ query }) {
      const out = await clients.activity.listMyActivities({ page: query.page, pageSize: query.pageSize });
      return { activities: out.activities.map(activityToRest), total: out.total, ...query };
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/user-activities',
    tag: 'Activity',
    summary:
      "Every user's activity (administrators), newest first, paged, narrowed by any of userId, category " +
      '(the tabs: login, profile, wallet, orders, password), action, and search (case-insensitive, over ' +
      'username, email, action and details). total is null with a search.',
    access: 'admin',
    query: AdminActivitiesQuery,
    response: AdminActivitiesPageSchema,
    errors: { 403: `"${MSG.adminOnly}"` },
    async handler({ query }) {
      const out = await clients.activity.listActivities({
        page: query.page,
        pageSize: query.pageSize,
        userId: query.userId ?? 0,
        category: query.category ? activityCategories.toProto(query.category) : 0,
        action: query.action ?? '',
        search: query.search ?? '',
      });
      return {
        activities: out.activities.map(activityToRest),
        total: out.total ?? null,
        hasMore: out.hasMore,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  });
}
