import { ORDER_MESSAGES as MSG, type RefundStatusName } from '@qm/contracts/rest';
import {
  type Caller,
  conflict,
  forbidden,
  GrpcStatus,
  hasRole,
  isServiceError,
  type Logger,
  notFound,
  unauthenticated,
} from '@qm/platform';
import type { ServiceError } from '@grpc/grpc-js';
import {
  assertRefundable,
  type OrderRecord,
  type RefundRecord,
  type RefundState,
  validRefundReason,
} from '../domain/order';
import type { OrderStore } from '../store/orders';
import type { Partners } from './partners';

/**
 * Refund requests and their decisions (docs/adr/028). The order carries its request; each step is a
 * conditional update from the state it starts in, and every call to the wallet and catalog is keyed,
 * so a decision repeated, raced by another administrator or resumed by the sweeper after a crash
 * takes effect once.
 */
export interface Refunds {
  request(caller: Caller | undefined, orderId: number, reason: string): Promise<OrderRecord>;
  decide(
    caller: Caller | undefined,
    orderId: number,
    decision: { approve: boolean; reason: string },
  ): Promise<OrderRecord>;
  list(
    caller: Caller | undefined,
    q: { page: number; pageSize: number; status?: RefundStatusName; search?: string },
  ): Promise<{ orders: OrderRecord[]; total: number }>;
  /** Finishes what a crash left: a request not yet held, a decision not yet carried out. */
  sweep(now?: Date): Promise<number>;
}

/** How the API names a refund's state: an approval under way is still a request. */
export const refundStatusOf = (state: RefundState): RefundStatusName =>
  state === 'approving' ? 'requested' : state;

const STATES_OF: Record<RefundStatusName, RefundState[]> = {
  requested: ['requested', 'approving'],
  approved: ['approved'],
  rejected: ['rejected'],
};

const isRefusal = (err: unknown): err is ServiceError =>
  isServiceError(err) && err.code === GrpcStatus.FAILED_PRECONDITION;

export function createRefunds(d: {
  orders: OrderStore;
  partners: Pick<Partners, 'holdProceeds' | 'unholdProceeds' | 'refundSale' | 'returnStock'>;
  log: Logger;
  windowHours: number;
  /** A refund step untouched this long is taken over by the sweeper. */
  graceMs: number;
}): Refunds {
  const { orders, partners, log } = d;

  const assertAdmin = (caller: Caller | undefined) => {
    if (!caller) throw unauthenticated();
    if (!hasRole(caller, 'Admin')) throw forbidden('Administrators only');
  };

  /** Asks the wallet to keep the proceeds while the request is open, once. */
  async function hold(o: OrderRecord): Promise<OrderRecord> {
    if (o.refund?.held !== null) return o;
    const held = await partners.holdProceeds(o.reference);
    return (await orders.moveRefund(o.id, o.refund.status, { held })).order;
  }

  /** Pays the buyer back, returns the units, marks the order refunded: each step once. */
  async function carryOutApproval(o: OrderRecord): Promise<OrderRecord> {
    const refund = o.refund!;
    let source: 'escrow' | 'seller';
    try {
      source = await partners.refundSale(o.reference, refund.attempt);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      // The proceeds were released and the seller's balance is short: nothing moved; the request
      // stays open, and a later approval makes a new attempt.
      await orders.moveRefund(o.id, 'approving', { status: 'requested' });
      throw conflict(err.details);
    }
    await partners.returnStock(o.reference);
    const done = await orders.moveRefund(
      o.id,
      'approving',
      { status: 'approved', source, decidedAt: new Date(), settled: true },
      { status: 'refunded', paymentStatus: 'refunded' },
    );
    return done.order;
  }

  async function carryOutRejection(o: OrderRecord): Promise<OrderRecord> {
    if (o.refund?.held) await partners.unholdProceeds(o.reference);
    return (await orders.moveRefund(o.id, 'rejected', { settled: true })).order;
  }

  return {
    async request(caller, orderId, reason) {
      if (!caller) throw unauthenticated();
      const text = validRefundReason(reason, MSG.refundReasonRequired);
      const now = new Date();
      assertRefundable(await orders.get(orderId), caller.userId, now, d.windowHours);
      const refund: RefundRecord = {
        status: 'requested',
        reason: text,
        requestedAt: now,
        held: null,
        attempt: 0,
        settled: false,
      };
      const started = await orders.startRefund(orderId, caller.userId, refund);
      // Another request (a double click) got there first.
      if (!started.moved) throw conflict(MSG.refundAlreadyRequested);
      try {
        return await hold(started.order);
      } catch (err) {
        // The request stands; the sweeper asks the wallet again (and so does a decision).
        log.warn({ err, order: orderId }, 'refund requested; its proceeds are not held yet');
        return started.order;
      }
    },

    async decide(caller, orderId, { approve, reason }) {
      assertAdmin(caller);
      const text = approve ? '' : validRefundReason(reason, MSG.refundRejectReasonRequired);
      const found = await orders.get(orderId);
      if (!found?.refund) throw notFound(MSG.refundNotRequested);
      if (found.refund.status !== 'requested') throw conflict(MSG.refundAlreadyDecided);
      const o = await hold(found);
      if (!approve) {
        const r = await orders.moveRefund(o.id, 'requested', {
          status: 'rejected',
          decisionReason: text,
          decidedAt: new Date(),
        });
        if (!r.moved) throw conflict(MSG.refundAlreadyDecided);
        return carryOutRejection(r.order);
      }
      const r = await orders.moveRefund(o.id, 'requested', {
        status: 'approving',
        attempt: o.refund!.attempt + 1,
      });
      if (!r.moved) throw conflict(MSG.refundAlreadyDecided);
      return carryOutApproval(r.order);
    },

    async list(caller, q) {
      assertAdmin(caller);
      return orders.refunds({ ...q, status: q.status ? STATES_OF[q.status] : undefined });
    },

    async sweep(now = new Date()) {
      let finished = 0;
      for (const o of await orders.unsettledRefunds(new Date(now.getTime() - d.graceMs))) {
        try {
          const state = o.refund!.status;
          if (state === 'requested') await hold(o);
          else if (state === 'approving') await carryOutApproval(o);
          else if (state === 'rejected') await carryOutRejection(o);
          finished++;
        } catch (err) {
          log.warn({ err, order: o.id }, 'a refund step could not be finished now; trying again later');
        }
      }
      return finished;
    },
  };
}
