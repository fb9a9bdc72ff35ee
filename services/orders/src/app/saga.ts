import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { GrpcStatus, isServiceError, type Logger, type Outbox } from '@qm/platform';
import { type OrderRecord, pastDeadline, type SagaStep, undoFor } from '../domain/order';
import { orderEnded } from '../events/orders-events';
import type { OrderStore } from '../store/orders';
import type { CompletedOrders } from './completed-orders';
import type { Partners, Sale } from './partners';

/**
 * The purchase saga, orchestrated from the order document (docs/adr/010-purchase-saga.md, 043):
 *
 *   reserve (catalog ReserveStock) → hold (wallet PaySale, into the sale's escrow)
 *   → commit (CommitStock) → done: completed, paid
 *   any refusal before the payment is made → compensate (CancelSalePayment, ReleaseStock) → done: cancelled
 *
 * (`pay`, PostPendingTransfer, posts the hold an earlier build placed at `hold`.)
 *
 * Each call is keyed by the order's reference, so repeating a step after a crash or a lost reply has
 * no further effect. A refusal (not found, insufficient, expired) decides the order; a failure a
 * retry may cure (unavailable, deadline) leaves it where it is for the sweeper.
 */
export interface SagaDeps {
  orders: OrderStore;
  partners: Partners;
  outbox: Outbox;
  log: Logger;
  holdTimeoutSeconds: number;
  /** Test-only pause between the reservation and the payment (ORDERS_PAUSE_BEFORE_PAYMENT_MS). */
  pauseBeforePaymentMs?: number;
  /** Where an order this process completes is kept for its mails (before its event is published). */
  completed?: CompletedOrders;
}

/** Answers the service gives when it has decided; anything else may go otherwise on a retry. */
const DECIDED = new Set([
  GrpcStatus.NOT_FOUND,
  GrpcStatus.FAILED_PRECONDITION,
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.PERMISSION_DENIED,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.OUT_OF_RANGE,
]);
const decided = (err: unknown) => isServiceError(err) && DECIDED.has(err.code);
const is = (err: unknown, code: GrpcStatus, text?: RegExp) =>
  isServiceError(err) && err.code === code && (!text || text.test(err.details));

/** Thrown inside the outbox run when another driver ended the order first: nothing to publish. */
class AlreadyMoved {
  constructor(readonly order: OrderRecord) {}
}

/** A step that recorded the order before a failure a retry may cure: the order as it now stands. */
class PausedAfterRecording {
  constructor(
    readonly order: OrderRecord,
    readonly cause: unknown,
  ) {}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one drive of an order has learnt on its way, for the steps after. */
interface Drive {
  /** Catalog answered for the product a moment ago, in this drive (its reservation). */
  productSeenNow: boolean;
}

/** Why catalog's refusal of a reservation cancels the order. */
const reserveRefused = (err: unknown) =>
  is(err, GrpcStatus.NOT_FOUND)
    ? MSG.productNotFound
    : is(err, GrpcStatus.FAILED_PRECONDITION, /insufficient stock/i)
      ? MSG.insufficientStock
      : MSG.createFailed;

/** The sale's payment as the wallet keys it, by the order's reference. */
const saleOf = (o: OrderRecord): Sale => ({
  reference: o.reference,
  buyerId: o.buyerId,
  sellerId: o.sellerId,
  amountPaise: o.totalPaise,
  description: `Order #${o.id}: ${o.quantity} × ${o.product.name}`,
  releaseAt: o.refundableUntil,
});

/** Why the wallet's refusal of the payment cancels the order. */
const paymentRefused = (err: unknown) =>
  is(err, GrpcStatus.FAILED_PRECONDITION, /insufficient wallet balance/i)
    ? MSG.insufficientBalance
    : MSG.createFailed;

/** Puts a reservation's stock back; none made, or already released, is fine. */
async function releaseStock({ partners, log, holdTimeoutSeconds }: SagaDeps, o: OrderRecord): Promise<void> {
  try {
    await partners.release(o.reference);
  } catch (err) {
    if (is(err, GrpcStatus.NOT_FOUND)) return;
    if (is(err, GrpcStatus.FAILED_PRECONDITION, /holds no stock/)) {
      // Left half-made by a crash in catalog: finishing the reservation lets it be released.
      await partners.reserve(o.reference, o.productId, o.quantity, holdTimeoutSeconds).catch((e: unknown) => {
        if (!decided(e)) throw e;
      });
      await partners.release(o.reference).catch((e: unknown) => {
        if (!is(e, GrpcStatus.NOT_FOUND) && !is(e, GrpcStatus.FAILED_PRECONDITION, /holds no stock/)) throw e;
      });
      return;
    }
    if (!decided(err)) throw err;
    log.error({ err, order: o.id }, 'stock release refused');
  }
}

/** Has the product been deleted since this drive last heard of it? Asked only when it may have been. */
async function productGone(partners: Partners, o: OrderRecord, drive: Drive): Promise<boolean> {
  return !drive.productSeenNow && !(await partners.product(o.productId));
}

export interface Saga {
  /**
   * Drives the order as far as it goes now. A failure a retry may cure stops it where it is (the
   * sweeper resumes it); the order is answered as it stands. `deadline`: cancel it first if it is
   * past its deadline (the sweeper's pass).
   */
  drive(order: OrderRecord, opts?: { deadline?: boolean }): Promise<OrderRecord>;
}

export function createSaga(d: SagaDeps): Saga {
  const { orders, partners, log } = d;

  const move = async (o: OrderRecord, set: Parameters<OrderStore['advance']>[2]) =>
    (await orders.advance(o.id, o.step, set)).order;
  /** Turns to compensation; `refused`: the current step's partner refused it (undoFor says what that spares). */
  const cancel = (o: OrderRecord, reason: string, refused = false) =>
    move(o, { step: 'compensate', cancelReason: reason, undo: undoFor(o, refused) });

  /** Runs a forward step: on success on to `then`, on a refusal to compensation with its reason. */
  async function forward(
    o: OrderRecord,
    call: () => Promise<unknown>,
    reasonFor: (err: unknown) => string,
    then: (o: OrderRecord) => Promise<OrderRecord>,
  ): Promise<OrderRecord> {
    try {
      await call();
    } catch (err) {
      if (!decided(err)) throw err;
      const reason = reasonFor(err);
      if (reason === MSG.createFailed) log.error({ err, order: o.id, step: o.step }, 'purchase step refused');
      return cancel(o, reason, true);
    }
    return then(o);
  }

  /** The order's last change, with its event (and the buyer's activity) through the outbox. */
  async function end(o: OrderRecord, status: 'completed' | 'cancelled'): Promise<OrderRecord> {
    const now = new Date();
    const events = orderEnded(o, status, now);
    try {
      return await d.outbox.run(events, async () => {
        const r = await orders.advance(o.id, o.step, {
          step: 'done',
          status,
          paymentStatus: status === 'completed' ? 'paid' : 'failed',
          // A driver that loses this race and dies before dropping its own end event leaves it
          // pending in the outbox: the relay publishes only the event named here (confirmer).
          endEvent: events[0]!.event.id,
        });
        if (!r.moved) throw new AlreadyMoved(r.order);
        d.completed?.remember(r.order);
        return r.order;
      });
    } catch (err) {
      if (err instanceof AlreadyMoved) return err.order;
      throw err;
    }
  }

  /** Commits the stock, completes the order; a commit left to a retry records the order paid first. */
  async function completeSale(o: OrderRecord): Promise<OrderRecord> {
    try {
      await partners.commit(o.reference);
    } catch (err) {
      if (!decided(err)) {
        if (o.step !== 'commit')
          throw new PausedAfterRecording(await move(o, { step: 'commit', paymentStatus: 'paid' }), err);
        throw err;
      }
      // Paid already, so the order completes; the reservation's state is for catalog to explain.
      log.error({ err, order: o.id }, 'stock commit refused after payment');
    }
    return end(o, 'completed');
  }

  const steps: Record<Exclude<SagaStep, 'done'>, (o: OrderRecord, drive: Drive) => Promise<OrderRecord>> = {
    reserve: (o, drive) =>
      forward(
        o,
        () => partners.reserve(o.reference, o.productId, o.quantity, d.holdTimeoutSeconds),
        reserveRefused,
        (o) => {
          // Catalog reserves only a product that is there: the payment that follows at once needs
          // no second question (docs/adr/046). A pause in between (tests) makes it ask again.
          drive.productSeenNow = !d.pauseBeforePaymentMs;
          return move(o, { step: 'hold' });
        },
      ),

    // The stock is reserved, so the money moves at once, in one transfer into the sale's escrow
    // (docs/adr/043); the order's next change is its end.
    async hold(o, drive) {
      if (d.pauseBeforePaymentMs) await sleep(d.pauseBeforePaymentMs);
      // The product may have been deleted while the saga waited (the sweeper resumes it here, or a
      // retry does): then nothing is sold.
      if (await productGone(partners, o, drive)) return cancel(o, MSG.productNotFound);
      // A free product moves no money.
      if (o.totalPaise === 0) return completeSale(o);
      return forward(o, () => partners.pay(saleOf(o)), paymentRefused, completeSale);
    },

    // An order an earlier build left here has a hold to post (docs/adr/043).
    async pay(o, drive) {
      // The product may have been deleted while the saga ran: then nothing is sold.
      if (await productGone(partners, o, drive)) return cancel(o, MSG.productNotFound);
      try {
        if (o.totalPaise > 0) await partners.post(o.reference);
      } catch (err) {
        if (!decided(err)) throw err;
        // The hold expired (or was voided) before it could be posted.
        return cancel(o, MSG.timedOut, true);
      }
      // Paid: the order goes from here to done in one change. A driver that resumes it at `pay`
      // posts again (the same transfer answers) or, past its deadline, finds the hold posted when it
      // voids and completes it, so the payment needs no change of its own.
      return completeSale(o);
    },

    commit: completeSale,

    async compensate(o) {
      // Without a record of it, undo everything: each undo is harmless where nothing took effect.
      const undo = o.undo ?? { hold: o.totalPaise > 0, stock: true };
      if (undo.hold) {
        try {
          await partners.cancelPayment(saleOf(o));
        } catch (err) {
          // A payment posted meanwhile (a concurrent driver) wins: the order completes instead.
          if (is(err, GrpcStatus.FAILED_PRECONDITION, /already post/))
            return move(o, { step: 'commit', paymentStatus: 'paid', cancelReason: '' });
          // Otherwise nothing was taken (a payment failed or never made, a hold voided or expired).
          if (!decided(err)) throw err;
        }
      }
      if (undo.stock) await releaseStock(d, o);
      return end(o, 'cancelled');
    },
  };

  return {
    async drive(order: OrderRecord, opts: { deadline?: boolean } = {}): Promise<OrderRecord> {
      let o = order;
      try {
        if (opts.deadline && pastDeadline(o, new Date())) o = await cancel(o, MSG.timedOut);
        const drive: Drive = { productSeenNow: false };
        while (o.step !== 'done') o = await steps[o.step](o, drive);
      } catch (thrown) {
        let err = thrown;
        if (err instanceof PausedAfterRecording) ({ order: o, cause: err } = err);
        log.warn({ err, order: o.id, step: o.step }, 'purchase paused; the sweeper resumes it');
      }
      return o;
    },
  };
}
