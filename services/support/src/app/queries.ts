import {
  type QueryStatusName,
  type ReplyStatusName,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES as MSG,
} from '@qm/contracts/rest';
import {
  adminCaller,
  type Caller,
  conflict,
  invalid,
  notFound,
  type Outbox,
  validPaging,
} from '@qm/platform';
import { type QueryRecord, refusedMove } from '../domain/query';
import { queryReplied, querySubmitted } from '../events/support-events';
import type { QueryStore } from '../store/queries';

/** A submission, already checked against the contract's ContactBody at the edge. */
export interface Submission {
  fullName: string;
  email: string;
  subject: string;
  message: string;
}

export interface QueryCounts {
  all: number;
  pending: number;
  inProgress: number;
  resolved: number;
}

const admin = (caller: Caller | undefined): Caller =>
  adminCaller(caller, 'Only administrators can manage user queries');

const paging = (page: number, pageSize: number) =>
  validPaging({ page, pageSize }, SUPPORT_LIMITS.pageSizeMax);

/** The contact form's queries and the administrators' replies (docs/product.md §4 query status). */
export interface Queries {
  /** Anyone may submit; the query starts pending. A signed-in sender is remembered. */
  submit(caller: Caller | undefined, input: Submission): Promise<QueryRecord>;
  /** Administrators only: a page, of one status or all, with every status's count for the cards. */
  list(
    caller: Caller | undefined,
    req: { page: number; pageSize: number; status?: QueryStatusName },
  ): Promise<{ queries: QueryRecord[]; total: number; counts: QueryCounts }>;
  /**
   * Replies and moves the query on. The reply, its status and its mail's event are written
   * together through the outbox; the mail itself goes out from the event (events/consumers.ts),
   * so a crash at any point delays the mail but neither loses it nor applies the move twice.
   */
  reply(
    caller: Caller | undefined,
    req: { queryId: number; status: ReplyStatusName; response: string },
  ): Promise<QueryRecord>;
}

export function createQueries(d: { queries: QueryStore; outbox: Outbox }): Queries {
  return {
    async submit(caller: Caller | undefined, input: Submission): Promise<QueryRecord> {
      const now = new Date();
      const q: QueryRecord = {
        id: await d.queries.nextId(),
        ...input,
        status: 'pending',
        response: '',
        replies: [],
        createdAt: now,
        updatedAt: now,
        ...(caller ? { userId: caller.userId } : {}),
      };
      return d.outbox.run([querySubmitted(q)], () => d.queries.insert(q));
    },

    async list(
      caller: Caller | undefined,
      req: { page: number; pageSize: number; status?: QueryStatusName },
    ): Promise<{ queries: QueryRecord[]; total: number; counts: QueryCounts }> {
      admin(caller);
      const { page, pageSize } = paging(req.page, req.pageSize);
      const [pageOut, all, pending, inProgress, resolved] = await Promise.all([
        req.status ? d.queries.pageByStatus(req.status, page, pageSize) : d.queries.pageAll(page, pageSize),
        d.queries.size(),
        d.queries.countByStatus('pending'),
        d.queries.countByStatus('in-progress'),
        d.queries.countByStatus('resolved'),
      ]);
      return { ...pageOut, counts: { all, pending, inProgress, resolved } };
    },

    async reply(
      caller: Caller | undefined,
      req: { queryId: number; status: ReplyStatusName; response: string },
    ): Promise<QueryRecord> {
      const who = admin(caller);
      const response = req.response.trim();
      if (!response) throw invalid(MSG.responseRequired);
      if (response.length > SUPPORT_LIMITS.responseMax) throw invalid(MSG.responseTooLong);
      const current = await d.queries.get(req.queryId);
      if (!current) throw notFound(MSG.queryNotFound);
      const refused = refusedMove(current.status, req.status);
      if (refused) throw conflict(refused);

      const at = new Date();
      const replied = queryReplied({
        queryId: current.id,
        status: req.status,
        byUserId: who.userId,
        at: at.toISOString(),
        subject: current.subject,
        ...(current.userId ? { userId: current.userId } : {}),
      });
      const reply = { id: replied.event.id, status: req.status, response, byUserId: who.userId, at };
      return d.outbox.run([replied], async () => {
        const after = await d.queries.reply(current.id, current.status, reply);
        if (after) return after;
        // Another reply moved it between our read and this write: the outbox drops our event.
        const now = await d.queries.get(current.id);
        throw conflict((now && refusedMove(now.status, req.status)) || MSG.changedMeanwhile);
      });
    },
  };
}
