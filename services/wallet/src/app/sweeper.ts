import type { Logger } from '@qm/platform';
import type { AccountId } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import { type Transfer, type TransferStore, windowOf } from '../store/transfers';
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
  /** How often a process reads every marked transfer again, for any its windows missed (default 1 hour). */
  markerCatchUpEveryMs?: number;
  batch?: number;
}) {
  const { accounts, transfers, ledger, log } = opts;
  const batch = opts.batch ?? 200;
  const retentionMs = opts.markerRetentionMs ?? 120_000;
  const catchUpEveryMs = opts.markerCatchUpEveryMs ?? 60 * 60_000;
  /**
   * The last settling window (store/transfers.ts) whose markers this process cleared; undefined
   * while it catches up with every transfer due, as it does when it starts and then every
   * `catchUpEveryMs` (for a transfer whose settling was written after its window was cleared, by a
   * process that stalled or whose clock was behind).
   */
  let clearedThrough: number | undefined;
  let caughtUpAt = 0;

  /** Drops the markers of `done`: one update per account however many of its transfers settled. */
  async function clearMarkersOf(done: Transfer[], window?: number): Promise<number> {
    if (done.length === 0) return 0;
    const byAccount = new Map<AccountId, string[]>();
    for (const t of done)
      for (const account of [t.debitAccount, t.creditAccount])
        byAccount.set(account, [...(byAccount.get(account) ?? []), t._id]);
    for (const [account, ids] of byAccount) await accounts.clearMarkers(account, ids);
    await transfers.markMarkersCleared(
      done.map((t) => t._id),
      window,
    );
    return done.length;
  }

  /**
   * Drops the markers of transfers settled before `before` (their drivers are long gone). A process
   * first catches up with everything due, reading every transfer still marked, a batch per sweep;
   * then it asks only for the windows that came due since, so a sweep reads what it clears and
   * not every transfer of the last minutes.
   */
  async function clearSettledMarkers(now: Date): Promise<number> {
    const before = new Date(now.getTime() - retentionMs);
    // The last window that ended before `before`.
    const due = windowOf(before) - 1;
    if (now.getTime() - caughtUpAt >= catchUpEveryMs) clearedThrough = undefined;
    if (clearedThrough === undefined) {
      const done = await transfers.settledWithMarkers(before, batch);
      if (done.length < batch) {
        clearedThrough = due;
        caughtUpAt = now.getTime();
      }
      return clearMarkersOf(done);
    }
    let cleared = 0;
    for (let window = clearedThrough + 1; window <= due; window++) {
      cleared += await clearMarkersOf(await transfers.settledInWindow(window), window);
      clearedThrough = window;
    }
    return cleared;
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
      const cleared = await clearSettledMarkers(now);
      return { resumed, expired, released, cleared };
    },
  };
}
