import { type Logger, windowedSweep } from '@qm/platform';
import type { AccountId } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import type { MarkerWindows } from '../store/marker-windows';
import { SETTLED_WINDOW_MS, settledWindowOf, type Transfer, type TransferStore } from '../store/transfers';
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
  /** The record of the settling windows cleared, shared by the replicas (store/marker-windows.ts). */
  windows: MarkerWindows;
  ledger: Ledger;
  /** Without it, no proceeds are released (tests of the transfers alone). */
  escrows?: Escrows;
  log: Logger;
  graceMs: number;
  /** How long a settled transfer keeps its markers on the accounts (default 15 s: MARKER_RETENTION_MS). */
  markerRetentionMs?: number;
  /** How often a process looks for windows no process finished clearing (default 1 hour). */
  markerCatchUpEveryMs?: number;
  batch?: number;
}) {
  const { accounts, transfers, windows, ledger, log } = opts;
  const batch = opts.batch ?? 200;
  const retentionMs = opts.markerRetentionMs ?? 15_000;
  /**
   * Drops the markers of transfers settled before its `due` (their drivers are long gone), a settling
   * window at a time, each asked once after it came due (store/transfers.ts) and recorded as cleared,
   * not its transfers (docs/adr/006, amendment of 2026-12-07). When a process starts, and then every
   * hour, it catches up: the transfers marked one by one before that, and any window after the last
   * catch-up that no process finished.
   */
  const clearSettledMarkers = windowedSweep({
    windowMs: SETTLED_WINDOW_MS,
    catchUpEveryMs: opts.markerCatchUpEveryMs ?? 60 * 60_000,
    async catchUp(due, now) {
      const marked = await transfers.settledWithMarkers(due, batch);
      const handled = await clearMarkersOf(marked);
      await transfers.markMarkersCleared(marked.map((t) => t._id));
      if (marked.length >= batch) return { handled, complete: false };
      return { handled: handled + (await windowsLeft(settledWindowOf(due) - 1, now)), complete: true };
    },
    window: async (window, now) => (await clearWindow(window, now)).handled,
  });

  /** When no catch-up ever finished (a new database, or the first start of this build): the last hour. */
  const LOOK_BACK_WINDOWS = (60 * 60_000) / SETTLED_WINDOW_MS;

  /**
   * Clears `window` unless another process is at it or did it: nothing to record when it had no
   * transfers. `finished` when nobody needs to come back to it.
   */
  async function clearWindow(window: number, now: Date): Promise<{ handled: number; finished: boolean }> {
    const due = await transfers.settledInWindow(window);
    if (due.length === 0) return { handled: 0, finished: true };
    const claim = await windows.claim(window, now);
    if (claim !== 'mine') return { handled: 0, finished: claim === 'done' };
    const handled = await clearMarkersOf(due);
    await windows.finish(window, now);
    return { handled, finished: true };
  }

  /**
   * The catch-up's windows: each one after `through` up to `last` that is not recorded (a process that
   * died before claiming it, or one that asked before its transfers landed) or was claimed by a
   * process that died, cleared now; then `through` moves over those finished in a row.
   */
  async function windowsLeft(last: number, now: Date): Promise<number> {
    const through = (await windows.through()) ?? last - LOOK_BACK_WINDOWS;
    const recorded = await windows.recorded(now);
    let handled = 0;
    let finishedThrough = through;
    for (let window = through + 1; window <= last; window++) {
      const state = recorded.get(window);
      let finished = state === 'done';
      if (state === undefined || state === 'stale') {
        const cleared = await clearWindow(window, now);
        handled += cleared.handled;
        finished = cleared.finished;
      }
      if (finished && finishedThrough === window - 1) finishedThrough = window;
    }
    if (finishedThrough > through) await windows.advance(finishedThrough);
    return handled;
  }

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
