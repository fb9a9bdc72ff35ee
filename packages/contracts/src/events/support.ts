/** What the support service publishes (stream QM_SUPPORT). */
export const SUPPORT_SUBJECTS = {
  /** A visitor submitted the contact form. */
  submitted: 'support.query.submitted',
  /**
   * An administrator replied and moved the query on. The event's id is the reply's id on the
   * query; the support service's own consumer emails that reply to the query's address.
   */
  replied: 'support.query.replied',
} as const;

export interface QuerySubmittedData {
  id: number;
  createdAt: string;
}

export interface QueryRepliedData {
  queryId: number;
  /** in-progress or resolved. */
  status: string;
  /** The administrator who replied. */
  byUserId: number;
  at: string;
  /** The query's subject, and who sent it when they were signed in (the gateway tells them live). */
  subject: string;
  userId?: number;
}
