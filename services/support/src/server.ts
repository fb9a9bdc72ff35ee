import {
  ContactBody,
  REPLY_STATUSES,
  type ReplyStatusName,
  SUPPORT_MESSAGES as MSG,
} from '@qm/contracts/rest';
import { queryStatuses, supportV1 } from '@qm/contracts/grpc';
import { type GrpcServer, invalid, type UnaryImpl } from '@qm/platform';
import type { Queries, Submission } from './app/queries';
import type { QueryRecord } from './domain/query';

export const SUPPORT_SERVICE = 'qm.support.v1.SupportService';

// ---- proto ⇄ domain --------------------------------------------------------------------------------

export function queryToProto(q: QueryRecord): supportV1.Query {
  return {
    id: q.id,
    fullName: q.fullName,
    email: q.email,
    subject: q.subject,
    message: q.message,
    status: queryStatuses.toProto(q.status),
    response: q.response,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
    replies: (q.replies ?? []).map((r) => ({
      response: r.response,
      status: queryStatuses.toProto(r.status),
      at: new Date(r.at).toISOString(),
    })),
  };
}

/** The contact form's rules (the contract's ContactBody) hold here too, whoever calls. */
export function submissionFromProto(req: supportV1.SubmitQueryRequest): Submission {
  const parsed = ContactBody.safeParse(req);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid query');
  return parsed.data;
}

function replyStatusFromProto(value: supportV1.QueryStatus): ReplyStatusName {
  const name = queryStatuses.fromProto(value);
  if (!name || !(REPLY_STATUSES as readonly string[]).includes(name)) throw invalid(MSG.statusInvalid);
  return name as ReplyStatusName;
}

/**
 * gRPC handlers: the request arrives decoded and the caller comes from the metadata (the gateway's
 * session); the use cases authorise and apply the rules, and AppErrors become gRPC statuses in
 * @qm/platform's server.
 */
export function supportHandlers(d: { queries: Queries }): UnaryImpl<typeof supportV1.SupportServiceService> {
  return {
    submitQuery: async (req, ctx) => ({
      query: queryToProto(await d.queries.submit(ctx.caller, submissionFromProto(req))),
    }),
    listQueries: async (req, ctx) => {
      const { queries, total, counts } = await d.queries.list(ctx.caller, {
        page: req.page,
        pageSize: req.pageSize,
        status: queryStatuses.fromProto(req.status),
      });
      return {
        queries: queries.map(queryToProto),
        total,
        allCount: counts.all,
        pendingCount: counts.pending,
        inProgressCount: counts.inProgress,
        resolvedCount: counts.resolved,
      };
    },
    updateQueryStatus: async (req, ctx) => ({
      query: queryToProto(
        await d.queries.reply(ctx.caller, {
          queryId: req.queryId,
          status: replyStatusFromProto(req.status),
          response: req.response,
        }),
      ),
    }),
  };
}

export function addSupportService(grpc: GrpcServer, d: Parameters<typeof supportHandlers>[0]): void {
  grpc.add(SUPPORT_SERVICE, supportV1.SupportServiceService, supportHandlers(d));
}
