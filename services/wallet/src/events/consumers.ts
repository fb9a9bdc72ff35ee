import { IDENTITY_SUBJECTS, streamOf, WALLET_SUBJECTS } from '@qm/contracts/events';
import {
  type BackgroundWork,
  type ConsumerSpec,
  idempotent,
  type Logger,
  type PeriodicJob,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import type { Receipts } from '../app/receipts';
import { userAccount } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';

export const DEFAULT_USER_APPROVED_DURABLE = 'wallet-user-approved';
export const DEFAULT_USER_CLOSED_DURABLE = 'wallet-user-closed';
export const DEFAULT_TOPUP_RECEIPT_DURABLE = 'wallet-topup-receipt';

const UserApproved = z.object({
  userId: z.number().int().positive(),
  username: z.string().min(1),
  role: z.string(),
});

/** A wallet for every approved user, once per event however often it is delivered. */
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
    handle: idempotent(conn, durable, log, async (event) => {
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

const UserGone = z.object({
  userId: z.number().int().positive(),
  username: z.string().optional(),
  role: z.string().optional(),
});

/**
 * A user identity deleted (or rejected) can move no more money, even from a session that
 * is still alive or a purchase already under way: the wallet is closed, and debits and holds
 * require an open one (store/accounts.ts), with no call to identity per transfer. A deleted user's
 * wallet is opened closed if it did not exist, so such a session cannot open a fresh one; its
 * balance stays on it. A rejected user never had a wallet (only approval opens one): an existing one
 * is closed, none is opened.
 */
export function userClosedConsumer(opts: {
  conn: Connection;
  log: Logger;
  durable: string;
  accounts: AccountStore;
}): ConsumerSpec {
  const { conn, log, durable, accounts } = opts;
  return {
    stream: streamOf('identity').name,
    durable,
    filterSubjects: [IDENTITY_SUBJECTS.deleted, IDENTITY_SUBJECTS.rejected],
    handle: idempotent(conn, durable, log, async (event, subject) => {
      const parsed = UserGone.safeParse(event.data);
      if (!parsed.success) {
        log.error({ eventId: event.id, issues: parsed.error.issues }, `malformed ${subject} ignored`);
        return;
      }
      const { userId, username, role } = parsed.data;
      if (role === 'Admin') return;
      const id = userAccount(userId);
      if (subject === IDENTITY_SUBJECTS.deleted) await accounts.ensure(id, userId, username);
      const closed = await accounts.close(id, new Date());
      log.info({ eventId: event.id, userId, closed }, 'wallet closed: its user is gone');
    }),
  };
}

/**
 * Mails a top-up's receipt once its credit's event is on the stream (docs/adr/012): the ledger
 * announces it through the outbox as it posts the credit, JetStream redelivers it until a send
 * succeeds, and the claim per event id keeps a redelivery, or a second replica, from mailing twice.
 */
export function topUpReceiptConsumer(opts: {
  conn: Connection;
  log: Logger;
  durable: string;
  receipts: Receipts;
}): ConsumerSpec {
  return {
    stream: streamOf('wallet').name,
    durable: opts.durable,
    filterSubjects: [WALLET_SUBJECTS.topUpCredited],
    handle: idempotent(opts.conn, opts.durable, opts.log, (event) => opts.receipts.topUpCredited(event)),
  };
}

/** Everything the wallet hears and repeats, for @qm/platform to register. */
export function walletBackground(opts: {
  conn: Connection;
  log: Logger;
  accounts: AccountStore;
  userApprovedDurable: string;
  userClosedDurable: string;
  receipts: Receipts;
  topUpReceiptDurable: string;
  jobs: PeriodicJob[];
}): BackgroundWork {
  return {
    consumers: [
      userApprovedConsumer({ ...opts, durable: opts.userApprovedDurable }),
      userClosedConsumer({ ...opts, durable: opts.userClosedDurable }),
      topUpReceiptConsumer({ ...opts, durable: opts.topUpReceiptDurable }),
    ],
    jobs: opts.jobs,
  };
}
