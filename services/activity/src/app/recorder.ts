import type { EventEnvelope, Logger } from '@qm/platform';
import { type ActivityRecord, ActivityEventData, toRecord } from '../domain/activity';
import type { ActivityStore } from '../store/activities';
import type { UserDirectory } from './users';

/**
 * Stores activity.recorded events as records, each once however often it is delivered. Events come
 * in batches (the consumer's group commit): the batch costs one read for redeliveries, one insert and
 * one counter step per feed and owner, instead of all of them per event.
 */
export function createRecorder(d: { store: ActivityStore; users: UserDirectory; log: Logger }) {
  return async (events: EventEnvelope[]): Promise<void> => {
    const valid = new Map<
      string,
      { event: EventEnvelope; data: ReturnType<typeof ActivityEventData.parse> }
    >();
    for (const event of events) {
      const parsed = ActivityEventData.safeParse(event.data);
      // Retrying cannot make it valid: record and move on.
      if (!parsed.success)
        d.log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed activity.recorded ignored',
        );
      else if (!valid.has(event.id)) valid.set(event.id, { event, data: parsed.data });
    }
    if (!valid.size) return;
    const missing = await d.store.missing([...valid.keys()]);
    const fresh = [...valid.values()].filter(({ event }) => missing.has(event.id));
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
