import type { Logger } from '@qm/platform';
import type { TransferStore } from '../store/transfers';
import type { Ledger } from './ledger';

/**
 * Finishes what a crash left half-done (docs/adr/006): every transfer not settled and untouched for
 * the grace period is resumed from its recorded state, and every hold past its timeout expires.
 * Safe to run in every replica at once: each step it takes is idempotent.
 */
export function createSweeper(opts: {
  transfers: TransferStore;
  ledger: Ledger;
  log: Logger;
  graceMs: number;
  batch?: number;
}) {
  const { transfers, ledger, log } = opts;
  const batch = opts.batch ?? 200;
  return {
    async sweep(now = new Date()): Promise<{ resumed: number; expired: number }> {
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
      return { resumed, expired };
    },
  };
}
