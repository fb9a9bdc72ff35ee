import { queryStatuses, supportV1 } from '@qm/contracts/grpc';
import {
  AdminQueriesQuery,
  ContactBody,
  QUERY_STATUSES,
  QueryIdParams,
  type QueryView,
  SUPPORT_MESSAGES as MSG,
  UpdateQueryStatusBody,
} from '@qm/contracts/rest';
import { z } from 'zod';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { limit } from '../http/rate-limit';

/** Per client address (shared by every gateway replica), scaled by AUTH_RATE_LIMIT_SCALE (load tests). */
export const CONTACT_RATE_LIMIT = {
  windowMs: 15 * 60_000,
  limit: 10,
  message: MSG.tooManySubmissions,
} as const;

const QueryViewSchema = z.object({
  id: z.number().int(),
  fullName: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.enum(QUERY_STATUSES),
  response: z.string().nullable().describe('The latest reply; null before the first'),
  replies: z
    .array(z.object({ response: z.string(), status: z.enum(QUERY_STATUSES), at: z.string() }))
    .describe('Every reply sent, oldest first (the thread)'),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<QueryView>;

export function queryToRest(q: supportV1.Query): QueryView {
  return {
    id: q.id,
    fullName: q.fullName,
    email: q.email,
    subject: q.subject,
    message: q.message,
    status: queryStatuses.fromProto(q.status) ?? 'pending',
    response: q.response || null,
    replies: q.replies.map((r) => ({
      response: r.response,
      status: queryStatuses.fromProto(r.status) ?? 'in-progress',
      at: r.at,
    })),
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

/**
 * The support calls of docs/product.md §7. Thin: each route validates with the contract's schema and calls the
 * support service, which holds the status rules (docs/product.md §4) and emails the replies.
 */
export function registerSupportRoutes(api: Api, { clients, config }: GatewayDeps): void {
  api.route({
    method: 'post',
    path: '/api/contact',
    tag: 'Support',
    summary: 'The contact form (anyone): stores the query with status pending for the administrators.',
    access: 'public',
    before: [
      limit({ ...CONTACT_RATE_LIMIT, limit: CONTACT_RATE_LIMIT.limit * config.AUTH_RATE_LIMIT_SCALE }),
    ],
    body: ContactBody,
    response: z.object({ message: z.string(), id: z.number().int(), status: z.enum(QUERY_STATUSES) }),
    status: 201,
    errors: { 400: `Invalid input, e.g. "${MSG.fullNameRequired}" or "${MSG.emailInvalid}"` },
    async handler({ body }) {
      const { query } = await clients.support.submitQuery(body);
      return { message: MSG.submitSuccess, id: query!.id, status: 'pending' as const };
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/queries',
    tag: 'Support',
    summary:
      'The queries (administrators), newest first, paged, optionally of one status, with the counts of ' +
      'the four cards over every query (so the page never downloads every row).',
    access: 'admin',
    query: AdminQueriesQuery,
    response: z.object({
      queries: z.array(QueryViewSchema),
      total: z.number().int().describe('Queries of the requested status'),
      page: z.number().int(),
      pageSize: z.number().int(),
      allCount: z.number().int(),
      pendingCount: z.number().int(),
      inProgressCount: z.number().int(),
      resolvedCount: z.number().int(),
    }),
    async handler({ query }) {
      const out = await clients.support.listQueries({
        page: query.page,
        pageSize: query.pageSize,
        status:
          query.status === 'all'
            ? supportV1.QueryStatus.QUERY_STATUS_UNSPECIFIED
            : queryStatuses.toProto(query.status),
      });
      return {
        queries: out.queries.map(queryToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
        allCount: out.allCount,
        pendingCount: out.pendingCount,
        inProgressCount: out.inProgressCount,
        resolvedCount: out.resolvedCount,
      };
    },
  });

  api.route({
    method: 'patch',
    path: '/api/admin/queries/:queryId/status',
    tag: 'Support',
    summary:
      'Replies to a query and moves it (administrators): pending → in-progress, pending or in-progress → ' +
      'resolved. The response is emailed to the query’s address.',
    access: 'admin',
    params: QueryIdParams,
    body: UpdateQueryStatusBody,
    response: z.object({ message: z.string(), query: QueryViewSchema }),
    errors: {
      400: `"${MSG.responseRequired}" or "${MSG.statusInvalid}"`,
      404: `"${MSG.queryNotFound}"`,
      409: `"${MSG.alreadyResolved}", "${MSG.notPending}" or "${MSG.changedMeanwhile}"`,
    },
    async handler({ params, body }) {
      const { query } = await clients.support.updateQueryStatus({
        queryId: params.queryId,
        status: queryStatuses.toProto(body.status),
        response: body.response,
      });
      return { message: MSG.updateSuccess, query: queryToRest(query!) };
    },
  });
}
