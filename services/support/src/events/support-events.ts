import { type QueryRepliedData, type QuerySubmittedData, SUPPORT_SUBJECTS } from '@qm/contracts/events';
import { type EventEnvelope, type OutgoingEvent, outgoingEvent } from '@qm/platform';
import { replyOf, type QueryRecord } from '../domain/query';
import type { QueryStore } from '../store/queries';

/** What the support service publishes (docs/product.md §3 lists no activity action for queries: none is recorded). */

export function querySubmitted(q: Pick<QueryRecord, 'id' | 'createdAt'>): OutgoingEvent {
  return outgoingEvent<QuerySubmittedData>(SUPPORT_SUBJECTS.submitted, {
    id: q.id,
    createdAt: q.createdAt.toISOString(),
  });
}

/** support.query.replied; its id becomes the reply's id on the query (see replyOf). */
export function queryReplied(data: QueryRepliedData): OutgoingEvent {
  return outgoingEvent<QueryRepliedData>(SUPPORT_SUBJECTS.replied, data);
}

/**
 * The outbox's question for an event whose process died before publishing it: did its change land?
 * A submission: the query exists. A reply: the query holds the reply of that id (else the
 * conditional update lost, and neither the event nor its mail may go out).
 */
export function confirmer(queries: QueryStore) {
  return async (event: EventEnvelope, subject: string): Promise<boolean> => {
    if (subject === SUPPORT_SUBJECTS.submitted) {
      const id = (event.data as Partial<QuerySubmittedData>).id;
      return typeof id === 'number' && !!(await queries.get(id));
    }
    if (subject === SUPPORT_SUBJECTS.replied) {
      const id = (event.data as Partial<QueryRepliedData>).queryId;
      const q = typeof id === 'number' ? await queries.get(id) : null;
      return !!q && !!replyOf(q, event.id);
    }
    return false;
  };
}
