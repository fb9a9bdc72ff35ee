import { type Logger, newRequestId, runWithContext } from '@qm/platform';
import { abandoned } from '../domain/order';
import type { OrderStore } from '../store/orders';
import type { Saga } from './saga';

/**
 * Resumes orders left mid-saga (a crash, a partner down): each pending order untouched for
 * `graceMs` is driven on from its step; one past its deadline and not yet paid is cancelled. So no
 * order stays pending much longer than its deadline (the hold timeout) plus a sweep.
 */
export function createSweeper(d: { orders: OrderStore; saga: Saga; log: Logger; graceMs: number }) {
  /**
   * No user calls here: the saga's calls carry only the orders service's proof (catalog lets it
   * read a product without a caller). Claiming the buyer would need an assertion only the gateway
   * can sign (docs/adr/021).
   */
  const asService = <T>(fn: () => Promise<T>) => runWithContext({ requestId: newRequestId() }, fn);

  return {
    async sweep(): Promise<number> {
      const now = new Date();
      // By status only (an equality every store engine serves from an index, ADR 004); the age is checked here.
      const due = (await d.orders.pending()).filter((o) => abandoned(o, now, d.graceMs));
      let ended = 0;
      for (const o of due) {
        const after = await asService(() => d.saga.drive(o, { deadline: true }));
        if (after.status !== 'pending') ended++;
      }
      if (due.length) d.log.info({ resumed: due.length, ended }, 'orders sweep');
      return ended;
    },
  };
}
