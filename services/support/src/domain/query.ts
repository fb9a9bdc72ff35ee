import {
  queryMoveAllowed,
  type QueryStatusName,
  type ReplyStatusName,
  SUPPORT_MESSAGES as MSG,
} from '@qm/contracts/rest';

/** A reply an administrator gave, kept on its query; `id` is also its support.query.replied event's id. */
export interface QueryReply {
  id: string;
  status: ReplyStatusName;
  response: string;
  byUserId: number;
  at: Date;
}

/** docs/product.md §3 user_queries, with the replies that moved it. */
export interface QueryRecord {
  id: number;
  fullName: string;
  email: string;
  subject: string;
  message: string;
  status: QueryStatusName;
  /** The latest reply's text; '' before the first. */
  response: string;
  replies: QueryReply[];
  createdAt: Date;
  updatedAt: Date;
  /** The sender, when they were signed in: told live of the replies (docs/API.md "Live updates"). */
  userId?: number;
}

/**
 * Why a reply may not move a query from `from` to `to` (docs/product.md §4), or undefined when it may. The
 * move itself is in @qm/contracts (QUERY_MOVES) so the admin page's buttons follow the same rule.
 */
export function refusedMove(from: QueryStatusName, to: ReplyStatusName): string | undefined {
  if (queryMoveAllowed(from, to)) return undefined;
  if (from === 'resolved') return MSG.alreadyResolved;
  return MSG.notPending;
}

/** The reply with this id, if the query holds it (a status change that did land). */
export const replyOf = (q: QueryRecord, replyId: string): QueryReply | undefined =>
  q.replies.find((r) => r.id === replyId);
