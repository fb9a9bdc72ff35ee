import { activityEvent } from '@qm/contracts/events';
import { formatMoney } from '@qm/contracts/rest';
import type { Logger } from '@qm/platform';
import { userAccount } from '../domain/ledger';
import type { Account, AccountStore, HeldProceeds } from '../store/accounts';
import type { Transfer } from '../store/transfers';
import type { Directory } from './identity';
import type { Ledger } from './ledger';

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
   * release repeated by another replica or after a crash moves the money once.
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
}): Escrows {
  const { accounts, ledger, log } = d;

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
      let released = 0;
      for (const escrow of await accounts.dueEscrows(now, batch)) {
        try {
          const t = await release(escrow);
          if (t.state === 'posted') released++;
          else log.warn({ escrow: escrow._id, state: t.state }, 'an escrow release did not post');
        } catch (err) {
          log.error({ err, escrow: escrow._id }, 'could not release an escrow');
        }
      }
      return released;
    },
  };
}
