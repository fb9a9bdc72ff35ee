import {
  ACTIVITY_SUBJECT,
  activityEvent,
  IDENTITY_SUBJECTS as SUBJECTS,
  type UserApprovedData,
  type UserDeletedData,
  type UserRegisteredData,
  type UserRejectedData,
  type UserSessionsRevokedData,
  type UserUpdatedData,
} from '@qm/contracts/events';
import { type EventEnvelope, makeEvent, type OutgoingEvent, outgoingEvent as ev } from '@qm/platform';
import type { UserRecord } from '../domain/users';
import type { UserStore } from '../store/users';

export const events = {
  registered: (u: UserRecord) =>
    ev<UserRegisteredData>(SUBJECTS.registered, {
      userId: u.id,
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
      status: 'pending',
    }),
  approved: (u: UserRecord) =>
    ev<UserApprovedData>(SUBJECTS.approved, {
      userId: u.id,
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      role: u.role,
    }),
  rejected: (u: UserRecord, reason: string) =>
    ev<UserRejectedData>(SUBJECTS.rejected, { userId: u.id, username: u.username, reason }),
  deleted: (u: UserRecord) =>
    ev<UserDeletedData>(SUBJECTS.deleted, { userId: u.id, username: u.username, role: u.role }),
  updated: (u: UserRecord) =>
    ev<UserUpdatedData>(SUBJECTS.updated, {
      userId: u.id,
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      phoneNumber: u.phoneNumber,
      role: u.role,
    }),
  /**
   * Every session the user began before `notBefore` ends: the gateway drops them from each
   * replica's cache and from its store (docs/adr/003 addendum). `id` lets the event share the id
   * of the sign-out job it goes with.
   */
  sessionsRevoked: (u: { id: number; username: string }, notBefore: Date, id?: string): OutgoingEvent => {
    const event = makeEvent<UserSessionsRevokedData>(SUBJECTS.sessionsRevoked, {
      userId: u.id,
      username: u.username,
      notBefore: notBefore.toISOString(),
    });
    return { subject: SUBJECTS.sessionsRevoked, event: id ? { ...event, id } : event };
  },
  activity: (user: { id: number; username: string }, action: string, details: string) =>
    activityEvent({ userId: user.id, username: user.username }, action, details),
};

/**
 * For an outbox entry left 'pending' by a process that died: did the change it announces happen?
 * Answered from the user's current state.
 */
export function confirmFor(users: UserStore) {
  return async (event: EventEnvelope, subject: string): Promise<boolean> => {
    const data = event.data as { userId?: number };
    // Ending sessions is safe even if the password did not change after all.
    if (subject === ACTIVITY_SUBJECT || subject === SUBJECTS.sessionsRevoked) return true;
    const user = typeof data.userId === 'number' ? await users.byId(data.userId) : null;
    switch (subject) {
      case SUBJECTS.registered:
        return !!user?.kcId;
      case SUBJECTS.approved:
        return user?.status === 'approved';
      case SUBJECTS.rejected:
        return user?.status === 'rejected';
      case SUBJECTS.deleted:
        return !user;
      case SUBJECTS.updated:
        return !!user;
      default:
        return true;
    }
  };
}
