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

export function makeEvent<T>(type: string, data: T): EventEnvelope<T> {
  return {
    id: randomUUID(),
    type,
    occurredAt: new Date().toISOString(),
    requestId: currentContext()?.requestId,
    data,
  };
}
