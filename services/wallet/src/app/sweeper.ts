import type { Logger } from '@qm/platform';
import type { AccountId } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import type { TransferStore } from '../store/transfers';
import type { Escrows } from './escrows';
import type { Ledger } from './ledger';

/**
 * Finishes what a crash left half-done (docs/adr/006): every transfer not settled and untouched for
 * the grace period is resumed from its recorded state, and every hold past its timeout expires.
 * Releases the sales' proceeds whose refund window closed (docs/adr/028).
 * Settled transfers' markers are cleared once they are old enough that no driver can still act.
 * Safe to run in every replica at once: each step it takes is idempotent.
 */
export function createSweeper(opts: {
  accounts: AccountStore;
  transfers: TransferStore;
  ledger: Ledger;
  /** Without it, no proceeds are released (tests of the transfers alone). */
  escrows?: Escrows;
  log: Logger;
  graceMs: number;
  /** How long a settled transfer keeps its markers on the accounts (default 2 minutes). */
  markerRetentionMs?: number;
  batch?: number;
}) {
  const { accounts, transfers, ledger, log } = opts;
  const batch = opts.batch ?? 200;

  /**
   * Drops the markers of transfers settled before `before` (their drivers are long gone): one
   * update per account however many of its transfers settled, so the sweep stays cheap.
   */
  async function clearSettledMarkers(before: Date): Promise<number> {
    const done = await transfers.settledWithMarkers(before, batch);
    if (done.length === 0) return 0;
    const byAccount = new Map<AccountId, string[]>();
    for (const t of done)
      for (const account of [t.debitAccount, t.creditAccount])
        byAccount.set(account, [...(byAccount.get(account) ?? []), t._id]);
    for (const [account, ids] of byAccount) await accounts.clearMarkers(account, ids);
    await transfers.markMarkersCleared(done.map((t) => t._id));
    return done.length;
  }

  return {
    async sweep(
      now = new Date(),
    ): Promise<{ resumed: number; expired: number; released: number; cleared: number }> {
      let expired = 0;
      for (const t of await transfers.expiredHolds(now, batch)) {
        const after = await ledger.expire(t);
        if (after.state === 'expired') expired++;
      }
      let resumed = 0;
      for (const t of await transfers.stale(new Date(now.getTime() - opts.graceMs), batch)) {
        try {
          const after = await ledger.resume(t);
          resumed++;
          log.warn(
            { transfer: t._id, key: t.key, from: t.state, to: after.state },
            'sweeper resumed an unsettled transfer',
          );
        } catch (err) {
          log.error({ err, transfer: t._id }, 'sweeper could not resume a transfer');
        }
      }
      const released = (await opts.escrows?.releaseDue(now, batch)) ?? 0;
      const cleared = await clearSettledMarkers(
        new Date(now.getTime() - (opts.markerRetentionMs ?? 120_000)),
      );
      return { resumed, expired, released, cleared };
    },
  };
}
