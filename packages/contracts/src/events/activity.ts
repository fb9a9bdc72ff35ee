import { type OutgoingEvent, outgoingEvent } from '@qm/platform';

/** Activity of a signed-in user, consumed by the activity service (docs/product.md §7 action names). */
export interface ActivityData {
  userId: number;
  username: string;
  action: string;
  details: string;
}

export const ACTIVITY_SUBJECT = 'activity.recorded';

/** The activity record of `who` doing `action` (one of docs/product.md §7's names). */
export function activityOf(
  who: { userId: number; username: string },
  action: string,
  details: string,
): ActivityData {
  return { userId: who.userId, username: who.username, action, details };
}

/**
 * `who` doing `action` as an event for the outbox, on ACTIVITY_SUBJECT: how every service records a
 * user's activity (the activity service stores it).
 */
export function activityEvent(
  who: { userId: number; username: string },
  action: string,
  details: string,
): OutgoingEvent {
  return outgoingEvent<ActivityData>(ACTIVITY_SUBJECT, activityOf(who, action, details));
}
