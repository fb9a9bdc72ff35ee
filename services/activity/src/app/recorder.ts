import type { EventEnvelope, Logger } from '@qm/platform';
import { ActivityEventData, toRecord } from '../domain/activity';
import type { ActivityStore } from '../store/activities';
import type { UserDirectory } from './users';

/** Stores one activity.recorded event as a record, once however often it is delivered. */
export function createRecorder(d: { store: ActivityStore; users: UserDirectory; log: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    const parsed = ActivityEventData.safeParse(event.data);
    if (!parsed.success) {
      // Retrying cannot make it valid: record and move on.
      d.log.error({ eventId: event.id, issues: parsed.error.issues }, 'malformed activity.recorded ignored');
      return;
    }
    // A redelivery costs one point read, not a lookup.
    if (await d.store.model.exists({ _id: event.id })) return;
    const email = await d.users.emailOf(parsed.data.userId);
    await d.store.add(toRecord(event, parsed.data, email));
  };
}
