import { randomUUID } from 'node:crypto';
import { currentContext } from '../context';

/** Every event on the bus has this shape; `id` is what consumers deduplicate on. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  requestId?: string;
  data: T;
}

/** An event and the subject it goes out on, as the outbox stores and publishes it. */
export interface OutgoingEvent {
  subject: string;
  event: EventEnvelope;
}

export function makeEvent<T>(type: string, data: T): EventEnvelope<T> {
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    requestId: currentContext()?.requestId,
    data,
  };
}

/** `data` as a new event of type `subject`, ready for the outbox. */
export function outgoingEvent<T>(subject: string, data: T): OutgoingEvent {
  return { subject, event: makeEvent<T>(subject, data) };
}
