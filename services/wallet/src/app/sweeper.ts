import { type Logger, windowedSweep } from '@qm/platform';
import type { AccountId } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import { SETTLED_WINDOW_MS, type Transfer, type TransferStore } from '../store/transfers';
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
  /** How long a settled transfer keeps its markers on the accounts (default 15 s: MARKER_RETENTION_MS). */
  markerRetentionMs?: number;
  /** How often a process reads every marked transfer again, for any its windows missed (default 1 hour). */
  markerCatchUpEveryMs?: number;
  batch?: number;
}) {
  const { accounts, transfers, ledger, log } = opts;
  const batch = opts.batch ?? 200;
  const retentionMs = opts.markerRetentionMs ?? 15_000;
  /**
   * Drops the markers of transfers settled before its `due` (their drivers are long gone). A process
   * first catches up with everything due, reading every transfer still marked, a batch per sweep;
   * then it asks only for the settling windows that came due since (store/transfers.ts).
   */
  const clearSettledMarkers = windowedSweep({
    windowMs: SETTLED_WINDOW_MS,
    catchUpEveryMs: opts.markerCatchUpEveryMs ?? 60 * 60_000,
    async catchUp(due) {
      const done = await transfers.settledWithMarkers(due, batch);
      return { handled: await clearMarkersOf(done), complete: done.length < batch };
    },
    window: async (window) => clearMarkersOf(await transfers.settledInWindow(window)),
  });

  /**
   * Drops the markers of `done`: one update per account however many of its transfers settled, which
   * also raises the account's fence past the latest of them.
   */
  async function clearMarkersOf(done: Transfer[]): Promise<number> {
    if (done.length === 0) return 0;
    const byAccount = new Map<AccountId, { ids: string[]; settledBefore: number }>();
    for (const t of done) {
      // Settled without a time (none is now): the fence then stands at the clearing itself.
      const after = (t.settledAt ? new Date(t.settledAt).getTime() : Date.now()) + 1;
      for (const account of [t.debitAccount, t.creditAccount]) {
        const cleared = byAccount.get(account) ?? { ids: [], settledBefore: 0 };
        cleared.ids.push(t._id);
        cleared.settledBefore = Math.max(cleared.settledBefore, after);
        byAccount.set(account, cleared);
      }
    }
    for (const [account, { ids, settledBefore }] of byAccount)
      await accounts.clearMarkers(account, ids, settledBefore);
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
      const cleared = await clearSettledMarkers(new Date(now.getTime() - retentionMs), now);
      return { resumed, expired, released, cleared };
    },
  };
}
