import { randomUUID } from 'node:crypto';
import { events } from '../events/events';
import type { SignOutJob } from '../store/sign-outs';
import type { StoredUser } from '../store/users';
import type { Deps } from './deps';

/** Waits between attempts: 5 s, 10 s, 20 s … at most 10 minutes (the sweeper's interval is the floor). */
export function retryDelayMs(attempts: number): number {
  return Math.min(10 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

/** How long an attempt may take before the job is due again (its attempter died). */
const ATTEMPT_LEASE_MS = 30_000;

export interface SignOuts {
  /** Sets the password in Keycloak and ends the user's sessions (now, or by the sweeper later). */
  changePassword(user: StoredUser, password: string): Promise<void>;
  /** The sweeper's part: every job whose wait is over gets another attempt. */
  retryDue(): Promise<void>;
}

/**
 * A new password ends every session begun with the old one (docs/adr/003 addendum). The password
 * change and the sign-out job are written together, with the identity.user.sessions_revoked event
 * in the same outbox batch: if the process dies after Keycloak took the password, the job is in the
 * database for the sweeper and the event in the outbox for the relay. Keycloak is asked at once and
 * then, until it confirms, by the sweeper with growing waits. The gateway drops its copies of the
 * sessions on the event.
 */
export function createSignOuts(d: Deps): SignOuts {
  /** Ends the user's Keycloak sessions; on failure the job waits for its next attempt. Never throws. */
  async function attempt(job: SignOutJob): Promise<boolean> {
    try {
      await d.kc.logoutUser(job.kcId);
    } catch (err) {
      const attempts = job.attempts + 1;
      const delay = retryDelayMs(attempts);
      d.log.warn({ err, userId: job.userId, attempts, retryInMs: delay }, 'sign-out in Keycloak failed');
      await d.signOuts
        .retryAt(job._id, attempts, new Date(d.clock().getTime() + delay))
        .catch((e: unknown) =>
          d.log.warn({ err: e }, 'could not reschedule a sign-out; the sweeper will retry'),
        );
      return false;
    }
    await d.signOuts.done(job._id);
    if (job.attempts)
      d.log.info({ userId: job.userId, attempts: job.attempts + 1 }, 'signed out after retries');
    return true;
  }

  return {
    async changePassword(user: StoredUser, password: string): Promise<void> {
      const notBefore = d.clock();
      const id = randomUUID();
      const job: SignOutJob = {
        _id: id,
        userId: user.id,
        kcId: user.kcId!,
        notBefore,
        attempts: 0,
        // The sweeper leaves it to the attempt below unless that never reports back (process died).
        nextAttemptAt: new Date(notBefore.getTime() + ATTEMPT_LEASE_MS),
      };
      await d.outbox.run([events.sessionsRevoked(user, notBefore, id)], async () => {
        await d.signOuts.record(job);
        try {
          await d.kc.resetPassword(user.kcId!, password);
        } catch (err) {
          // The password did not change, so nothing is to end (the outbox drops the event).
          await d.signOuts.done(id).catch(() => undefined);
          throw err;
        }
      });
      await attempt(job);
    },

    async retryDue(): Promise<void> {
      const now = d.clock();
      // Every replica's sweeper reads the same due jobs (docs/adr/025): only the one that claims a
      // job tries it, so a late second logout never ends a session begun with the new password.
      for (const job of await d.signOuts.due(now))
        if (await d.signOuts.claim(job, new Date(now.getTime() + ATTEMPT_LEASE_MS))) await attempt(job);
    },
  };
}
