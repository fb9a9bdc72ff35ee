import { z } from 'zod';
import { idParam, pagingQuery } from './numbers';

/**
 * REST shapes of docs/product.md §7 for support (the contact form and the administrators' query inbox), shared
 * by the gateway (validation, OpenAPI), the support service (the same rules and messages), the
 * shell's /contact page and the admin remote's /admin/queries page.
 */
export const QUERY_STATUSES = ['pending', 'in-progress', 'resolved'] as const;
export type QueryStatusName = (typeof QUERY_STATUSES)[number];

/**
 * docs/product.md §4: the moves an administrator's reply may make, from each status. A pending query may be
 * replied to and marked in progress, or resolved; an in-progress one only resolved; a resolved one
 * accepts no further response. The one place this rule lives: the service enforces it and the
 * /admin/queries dialog shows its buttons from it.
 */
export const QUERY_MOVES: Readonly<Record<QueryStatusName, readonly QueryStatusName[]>> = {
  pending: ['in-progress', 'resolved'],
  'in-progress': ['resolved'],
  resolved: [],
};

/** Whether a reply may move a query from `from` to `to`. */
export const queryMoveAllowed = (from: QueryStatusName, to: QueryStatusName): boolean =>
  QUERY_MOVES[from].includes(to);

export const SUPPORT_LIMITS = {
  fullNameMax: 100,
  subjectMax: 200,
  messageMax: 5000,
  responseMax: 5000,
  /** Queries are read in pages of at most one feed bucket. */
  pageSizeMax: 32,
} as const;

/** The user-facing texts of docs/product.md §2 and §8 for support; the service answers with the same. */
export const SUPPORT_MESSAGES = {
  fullNameRequired: 'Full name is required',
  fullNameTooLong: `Full name must be at most ${SUPPORT_LIMITS.fullNameMax} characters`,
  emailInvalid: 'Invalid email address',
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${SUPPORT_LIMITS.subjectMax} characters`,
  messageRequired: 'Message is required',
  messageTooLong: `Message must be at most ${SUPPORT_LIMITS.messageMax.toLocaleString('en-US')} characters`,
  responseRequired: 'Response is required',
  responseTooLong: `Response must be at most ${SUPPORT_LIMITS.responseMax.toLocaleString('en-US')} characters`,
  statusInvalid: 'Status must be in-progress or resolved',
  queryNotFound: 'Query not found',
  /** 409: docs/product.md §4 "Resolved queries accept no further response". */
  alreadyResolved: 'This query is already resolved and accepts no further response',
  /** 409: only a pending query may be marked in progress. */
  notPending: 'Only a pending query can be marked in progress',
  /** 409: another administrator changed the query between our read and our write. */
  changedMeanwhile: 'This query was updated by someone else. Please reload it and try again.',
  tooManySubmissions: 'Too many queries submitted. Please try again later.',
  submitFailed: 'Failed to submit query',
  /** The contact form's failure text when the server's own words are not meant for visitors. */
  submitUnavailable:
    'Your message could not be sent right now. Please try again in a few minutes, or email support@quartermaster.example.',
  submitSuccessTitle: 'Query Submitted Successfully',
  submitSuccess: 'Thank you for contacting us. Our team will review your query and get back to you shortly.',
  updateSuccessTitle: 'Success',
  updateSuccess: 'Query status has been updated',
  updateFailedTitle: 'Error',
  updateFailed: 'Failed to update query status',
} as const;

/** A required text field, trimmed, with its own messages. */
const requiredText = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** POST /api/contact (public) and the /contact form. */
export const ContactBody = z.object({
  fullName: requiredText(
    SUPPORT_MESSAGES.fullNameRequired,
    SUPPORT_LIMITS.fullNameMax,
    SUPPORT_MESSAGES.fullNameTooLong,
  ),
  // Exactly as the document states it (pattern and length, no trimming): an address with spaces
  // around it is refused like any other the pattern refuses (an email input strips them already).
  email: z
    .string({ error: SUPPORT_MESSAGES.emailInvalid })
    .max(254, SUPPORT_MESSAGES.emailInvalid)
    .regex(z.regexes.email, SUPPORT_MESSAGES.emailInvalid),
  subject: requiredText(
    SUPPORT_MESSAGES.subjectRequired,
    SUPPORT_LIMITS.subjectMax,
    SUPPORT_MESSAGES.subjectTooLong,
  ),
  message: requiredText(
    SUPPORT_MESSAGES.messageRequired,
    SUPPORT_LIMITS.messageMax,
    SUPPORT_MESSAGES.messageTooLong,
  ),
});
export type ContactBody = z.infer<typeof ContactBody>;
export type ContactInput = z.input<typeof ContactBody>;

/** The statuses a reply moves a query to. */
export const REPLY_STATUSES = ['in-progress', 'resolved'] as const;
export type ReplyStatusName = (typeof REPLY_STATUSES)[number];

/** PATCH /api/admin/queries/{queryId}/status. */
export const UpdateQueryStatusBody = z.object({
  status: z.enum(REPLY_STATUSES, { error: SUPPORT_MESSAGES.statusInvalid }),
  response: requiredText(
    SUPPORT_MESSAGES.responseRequired,
    SUPPORT_LIMITS.responseMax,
    SUPPORT_MESSAGES.responseTooLong,
  ),
});
export type UpdateQueryStatusBody = z.infer<typeof UpdateQueryStatusBody>;

export const QueryIdParams = z.object({ queryId: idParam('Query id') });

/** GET /api/admin/queries. */
export const AdminQueriesQuery = z.object({
  ...pagingQuery(SUPPORT_LIMITS.pageSizeMax),
  status: z
    .enum(['all', ...QUERY_STATUSES], {
      error: `Status must be one of all, ${QUERY_STATUSES.join(', ')}`,
    })
    .default('all'),
});
export type AdminQueriesQuery = z.infer<typeof AdminQueriesQuery>;
export type QueryFilterName = AdminQueriesQuery['status'];

// ---- responses -------------------------------------------------------------------------------------

/** A query as the administrators see it (docs/product.md §3 user_queries). */
export interface QueryView {
  id: number;
  fullName: string;
  email: string;
  subject: string;
  message: string;
  status: QueryStatusName;
  /** The latest reply; null before the first. */
  response: string | null;
  /** Every reply sent, oldest first (the thread). */
  replies: QueryReplyView[];
  createdAt: string;
  updatedAt: string;
}

export interface QueryReplyView {
  response: string;
  /** The status the reply moved the query to. */
  status: QueryStatusName;
  at: string;
}

/** GET /api/admin/queries: the page of the filter and the four cards' counts over every query. */
export interface AdminQueriesPage {
  queries: QueryView[];
  total: number;
  page: number;
  pageSize: number;
  allCount: number;
  pendingCount: number;
  inProgressCount: number;
  resolvedCount: number;
}
