import type { EventEnvelope, Logger } from '@qm/platform';
import { type ActivityRecord, ActivityEventData, toRecord } from '../domain/activity';
import type { ActivityStore } from '../store/activities';
import type { UserDirectory } from './users';

/** An event as the consumer hands it over: `redelivered` when it may have been stored before. */
export interface Delivery {
  event: EventEnvelope;
  redelivered: boolean;
}

/**
 * Stores activity.recorded events as records, each once however often it is delivered. Events come
 * in batches (the consumer's group commit): the batch costs one insert and one counter step per feed
 * and owner, instead of all of them per event, and a point read per redelivered event only.
 *
 * An event delivered the first time is not looked up: the stream drops a second publish of an event
 * id within its duplicate window, so a stored copy can only come from a publish repeated later (a
 * sweeper finishing a transfer after a crash). Its unique `_id` stops that copy, and its feed numbers
 * become a gap of one in a page, never a duplicate: one read per event saved on the path every
 * action takes, for a short page after a crash.
 */
export function createRecorder(d: { store: ActivityStore; users: UserDirectory; log: Logger }) {
  return async (deliveries: Delivery[]): Promise<void> => {
    const valid = new Map<
      string,
      { event: EventEnvelope; data: ReturnType<typeof ActivityEventData.parse>; redelivered: boolean }
    >();
    for (const { event, redelivered } of deliveries) {
      const parsed = ActivityEventData.safeParse(event.data);
      // Retrying cannot make it valid: record and move on.
      if (!parsed.success)
        d.log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed activity.recorded ignored',
        );
      else if (!valid.has(event.id)) valid.set(event.id, { event, data: parsed.data, redelivered });
    }
    if (!valid.size) return;
    const missing = await d.store.missing(
      [...valid.values()].filter((v) => v.redelivered).map((v) => v.event.id),
    );
    const fresh = [...valid.values()].filter((v) => !v.redelivered || missing.has(v.event.id));
    const emails = new Map<number, string>();
    await Promise.all(
      [...new Set(fresh.map(({ data }) => data.userId))].map(async (userId) =>
        emails.set(userId, await d.users.emailOf(userId)),
      ),
    );
    const records: ActivityRecord[] = fresh.map(({ event, data }) =>
      toRecord(event, data, emails.get(data.userId) ?? ''),
    );
    await d.store.addMany(records);
  };
}
