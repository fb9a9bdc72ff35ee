import { IDENTITY_SUBJECTS, streamOf } from '@qm/contracts/events';
import {
  type BackgroundWork,
  type ConsumerSpec,
  idempotent,
  type Logger,
  type PeriodicJob,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import { userAccount } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';

export const DEFAULT_USER_APPROVED_DURABLE = 'wallet-user-approved';

const UserApproved = z.object({
  userId: z.number().int().positive(),
  username: z.string().min(1),
  role: z.string(),
});

/** A wallet for every approved user, once per event however often it is delivered (issue 8 §1). */
export function userApprovedConsumer(opts: {
  conn: Connection;
  log: Logger;
  durable: string;
  accounts: AccountStore;
}): ConsumerSpec {
  const { conn, log, durable, accounts } = opts;
  return {
    stream: streamOf('identity').name,
    durable,
    filterSubjects: [IDENTITY_SUBJECTS.approved],
    handle: idempotent(conn, durable, async (event) => {
      const parsed = UserApproved.safeParse(event.data);
      if (!parsed.success) {
        log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed identity.user.approved ignored',
        );
        return;
      }
      const { userId, username, role } = parsed.data;
      if (role === 'Admin') return;
      const wallet = await accounts.ensure(userAccount(userId), userId, username);
      log.info({ userId, walletId: wallet.walletId }, 'wallet ready for an approved user');
    }),
  };
}

/** Everything the wallet hears and repeats, for @qm/platform to register. */
export function walletBackground(opts: {
  conn: Connection;
  log: Logger;
  accounts: AccountStore;
  userApprovedDurable: string;
  jobs: PeriodicJob[];
}): BackgroundWork {
  return {
    consumers: [userApprovedConsumer({ ...opts, durable: opts.userApprovedDurable })],
    jobs: opts.jobs,
  };
}
