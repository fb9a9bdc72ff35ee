import { activityEvent } from '@qm/contracts/events';
import { formatMoney } from '@qm/contracts/rest';
import { type Logger, windowedSweep } from '@qm/platform';
import { userAccount } from '../domain/ledger';
import {
  type Account,
  type AccountStore,
  type HeldProceeds,
  RELEASE_WINDOW_MS,
  releaseWindowOf,
} from '../store/accounts';
import type { Transfer } from '../store/transfers';
import type { Directory } from './identity';
import type { Ledger } from './ledger';

/** Escrows a sweep releases side by side. */
export const RELEASES_AT_ONCE = 16;

/** The most held sales a wallet view lists (the sum covers them all). */
export const HELD_PROCEEDS_LISTED = 20;

/**
 * Sales' proceeds kept in escrow for the refund window (docs/adr/028): what a seller has waiting,
 * and their release once the window closes.
 */
export interface Escrows {
  /** A seller's proceeds in escrow: their sum, and the soonest released first. */
  heldFor(sellerId: number): Promise<{ totalPaise: number; items: HeldProceeds[] }>;
  /**
   * Releases each escrow due by `now` to its seller: a keyed transfer of its whole balance, so a
   * release repeated by another replica or after a crash moves the money once. A process first
   * catches up with every escrow holding proceeds, then asks only for the release windows that
   * ended since (docs/adr/042).
   */
  releaseDue(now?: Date, batch?: number): Promise<number>;
}

/**
 * The key of an escrow's release: one per sale and freeze, whoever runs it. A release refused while
 * a refund request froze the escrow used its key up; after a rejection the next one runs.
 */
export const releaseKey = (escrow: Pick<Account, 'reference' | 'freezes'>) =>
  `release:${escrow.reference}:${escrow.freezes ?? 0}`;

export function createEscrows(d: {
  accounts: AccountStore;
  ledger: Ledger;
  directory: Pick<Directory, 'byId'>;
  log: Logger;
  /** How often a process reads every escrow holding proceeds again (default 1 hour). */
  catchUpEveryMs?: number;
}): Escrows {
  const { accounts, ledger, log } = d;
  /** The run in progress: its time and its batch. */
  let run = { now: new Date(), batch: 200 };
  /** Escrows written before their flag and window existed are marked once per process. */
  let marking: Promise<number> | undefined;

  async function release(escrow: Account): Promise<Transfer> {
    const reference = escrow.reference!;
    // The seller's proceeds_released names them; identity not answering leaves the escrow for the
    // next pass (a seller deleted since has no activity to record).
    const seller = await d.directory.byId(escrow.sellerId!);
    const released = `₹${formatMoney(escrow.available)} from ${reference} released to the wallet balance`;
    return ledger.transfer({
      key: releaseKey(escrow),
      kind: 'release',
      debit: escrow._id,
      credit: userAccount(escrow.sellerId!),
      amount: escrow.available,
      description: `Proceeds of ${reference} released`,
      // The seller's line was written with the sale; the release only makes the money spendable.
      history: [],
      announce: seller
        ? [activityEvent({ userId: seller.id, username: seller.username }, 'proceeds_released', released)]
        : [],
    });
  }

  /** Releases one escrow; one that failed is asked for again in the window that holds `run.now`. */
  async function releaseOne(escrow: Account): Promise<boolean> {
    try {
      const t = await release(escrow);
      if (t.state === 'posted') return true;
      // Refused: frozen or emptied since it was read; a rejected request's unfreeze files it again.
      log.warn({ escrow: escrow._id, state: t.state }, 'an escrow release did not post');
    } catch (err) {
      log.error({ err, escrow: escrow._id }, 'could not release an escrow');
      await accounts
        .refileEscrow(escrow._id, releaseWindowOf(run.now))
        .catch((e: unknown) => log.error({ err: e, escrow: escrow._id }, 'could not file an escrow again'));
    }
    return false;
  }

  /**
   * Releases each of `due`, RELEASES_AT_ONCE at a time: a seller's sales come due together, and their
   * credits to the seller's wallet, in flight together, go in one update (the ledger's group commit),
   * as do their entries' numbers.
   */
  async function releaseAll(due: Account[]): Promise<number> {
    let released = 0;
    for (let at = 0; at < due.length; at += RELEASES_AT_ONCE) {
      const posted = await Promise.all(due.slice(at, at + RELEASES_AT_ONCE).map(releaseOne));
      released += posted.filter(Boolean).length;
    }
    return released;
  }

  const releaseInWindows = windowedSweep({
    windowMs: RELEASE_WINDOW_MS,
    catchUpEveryMs: d.catchUpEveryMs ?? 60 * 60_000,
    async catchUp(due) {
      const found = await accounts.dueEscrows(due, run.batch);
      return { handled: await releaseAll(found), complete: found.length < run.batch };
    },
    window: async (window) => releaseAll(await accounts.escrowsDueIn(window)),
  });

  return {
    async heldFor(sellerId) {
      // Every held sale for the sum: a seller's sales within one refund window.
      const all = await accounts.heldProceeds(sellerId);
      return {
        totalPaise: all.reduce((sum, p) => sum + p.available, 0),
        items: all.slice(0, HELD_PROCEEDS_LISTED),
      };
    },

    async releaseDue(now = new Date(), batch = 200) {
      try {
        await (marking ??= accounts.markHeldProceeds());
      } catch (err) {
        marking = undefined;
        throw err;
      }
      run = { now, batch };
      return releaseInWindows(now, now);
    },
  };
}
