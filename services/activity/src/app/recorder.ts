import type { Delivery, EventEnvelope, Logger } from '@qm/platform';
import { type ActivityRecord, ActivityEventData, toRecord } from '../domain/activity';
import type { ActivityStore } from '../store/activities';
import type { UserDirectory } from './users';

/**
 * Stores activity.recorded events as records, each once however often it is delivered. Events come
 * in batches (the consumer's group commit): the batch costs one insert and one counter step per feed
 * and owner, instead of all of them per event.
 *
 * Only an event that may have been handled before (the bus's `mayRepeat`) is looked up first. A copy
 * stored again would be refused by its unique `_id`, but only after taking a number in each of its
 * feeds: a gap in a page, and one more in its total. A first delivery of a recent event needs no
 * lookup: JetStream drops a second publication of its id within the duplicate window.
 */
export function createRecorder(d: { store: ActivityStore; users: UserDirectory; log: Logger }) {
  return async (events: ({ event: EventEnvelope } & Delivery)[]): Promise<void> => {
    const valid = new Map<
      string,
      { event: EventEnvelope; data: ReturnType<typeof ActivityEventData.parse>; mayRepeat: boolean }
    >();
    for (const { event, mayRepeat } of events) {
      const parsed = ActivityEventData.safeParse(event.data);
      // Retrying cannot make it valid: record and move on.
      if (!parsed.success)
        d.log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed activity.recorded ignored',
        );
      else if (!valid.has(event.id)) valid.set(event.id, { event, data: parsed.data, mayRepeat });
      // Two copies in one batch: looked up if either may repeat an earlier one.
      else if (mayRepeat) valid.get(event.id)!.mayRepeat = true;
    }
    if (!valid.size) return;
    const toCheck = [...valid.values()].filter((v) => v.mayRepeat).map(({ event }) => event.id);
    const missing = toCheck.length ? await d.store.missing(toCheck) : new Set<string>();
    const fresh = [...valid.values()].filter(({ event, mayRepeat }) => !mayRepeat || missing.has(event.id));
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
