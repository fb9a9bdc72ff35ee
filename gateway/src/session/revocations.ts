import { IDENTITY_SUBJECTS, type UserSessionsRevokedData } from '@qm/contracts/events';
import type { EventBus, Logger } from '@qm/platform';
import { streamOf } from '@qm/roster';
import type { CachedSessionStore } from './cache';
import type { SessionStore } from './store';

/** Published by identity when a password changed, or a user was deleted or rejected. */
const SESSIONS_REVOKED = IDENTITY_SUBJECTS.sessionsRevoked;
export const SESSIONS_REVOKED_DURABLE = 'gateway-sessions-revoked';
const IDENTITY_STREAM = streamOf('identity');

function parse(data: unknown): { userId: number; before: Date } | undefined {
  const d = data as Partial<UserSessionsRevokedData> | undefined;
  const before = new Date(String(d?.notBefore));
  if (typeof d?.userId !== 'number' || Number.isNaN(before.getTime())) return undefined;
  return { userId: d.userId, before };
}

/**
 * Sessions begun before a password change, a deletion or a rejection end with it (docs/adr/003
 * addendum). Two paths, because replicas share the store but each has its own cache:
 * - every replica listens and drops the user's older sessions from its memory at once, refusing
 *   them even while the database still has them;
 * - one durable consumer, shared by the replicas, deletes them from the store. It survives restarts
 *   and outages (JetStream redelivers), so no old session is left once the event is published.
 */
export async function followSessionRevocations(opts: {
  bus: EventBus;
  store: SessionStore | CachedSessionStore;
  log: Logger;
  durable?: string;
}): Promise<void> {
  const { bus, store, log } = opts;
  // The gateway may start before identity ever did (e.g. pods in any order): the stream must exist.
  await bus.ensureStreams([IDENTITY_STREAM]);
  if ('forgetUser' in store)
    bus.listen(SESSIONS_REVOKED, (event) => {
      const r = parse(event.data);
      if (r) store.forgetUser(r.userId, r.before);
    });
  await bus.consume({
    stream: IDENTITY_STREAM.name,
    durable: opts.durable ?? SESSIONS_REVOKED_DURABLE,
    filterSubjects: [SESSIONS_REVOKED],
    async handle(event) {
      const r = parse(event.data);
      if (!r) {
        log.warn({ eventId: event.id }, 'malformed sessions_revoked event ignored');
        return;
      }
      const removed = await store.removeUser(r.userId, r.before);
      log.info({ userId: r.userId, removed }, 'ended sessions begun before a revocation');
    },
  });
}
