import { activityCategories, activityV1 } from '@qm/contracts/grpc';
import type { GrpcServer, UnaryImpl } from '@qm/platform';
import type { ActivityLists } from './app/lists';
import type { ActivityRecord } from './domain/activity';

export const ACTIVITY_SERVICE = 'qm.activity.v1.ActivityService';

export function activityToProto(r: ActivityRecord): activityV1.Activity {
  return {
    id: r.id,
    userId: r.userId,
    username: r.username,
    email: r.email,
    action: r.action,
    details: r.details,
    category: r.category ?? '',
    createdAt: r.createdAt.toISOString(),
  };
}

/** gRPC handlers: the caller comes from the metadata; the lists authorise and apply the rules. */
export function activityHandlers(d: {
  lists: ActivityLists;
}): UnaryImpl<typeof activityV1.ActivityServiceService> {
  return {
    listMyActivities: async (req, ctx) => {
      const { items, total } = await d.lists.mine(ctx.caller, req);
      return { activities: items.map(activityToProto), total };
    },
    listActivities: async (req, ctx) => {
      const { items, total, hasMore } = await d.lists.all(ctx.caller, {
        page: req.page,
        pageSize: req.pageSize,
        userId: req.userId || undefined,
        category: activityCategories.fromProto(req.category),
        action: req.action || undefined,
        search: req.search || undefined,
      });
      return { activities: items.map(activityToProto), total, hasMore };
    },
  };
}

export function addActivityService(grpc: GrpcServer, d: Parameters<typeof activityHandlers>[0]): void {
  grpc.add(ACTIVITY_SERVICE, activityV1.ActivityServiceService, activityHandlers(d));
}
