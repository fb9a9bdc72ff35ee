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

/**
 * Subjects under this prefix are notices (docs/adr/050): heard only by processes listening as they
 * pass (a browser's live feed, a replica's cache), read by no durable consumer, so they are sent on
 * core NATS and kept by no stream.
 */
export const NOTICE_PREFIX = 'notice.';

/** Whether an event on `subject` is a notice (sent on core NATS) rather than a stream's event. */
export const isNotice = (subject: string): boolean => subject.startsWith(NOTICE_PREFIX);

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
