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
  type Outbox,
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
import { type RefundStep, refundStepped } from '../events/orders-events';
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

type Moved = Awaited<ReturnType<OrderStore['moveRefund']>>;

/** Thrown inside an outbox run whose step another driver took first: its events are dropped. */
class NotMoved extends Error {
  constructor(readonly result: Moved) {
    super('the refund moved on without this step');
  }
}

/**
 * A step that users hear of (requested, approved, rejected): its events go through the outbox
 * with the move, named on the refund, so they are published once and only if the move was this
 * call's (a raced driver's are dropped, even if it dies first).
 */
async function announced(
  outbox: Pick<Outbox, 'run'>,
  o: OrderRecord,
  step: RefundStep,
  move: (eventId: string) => Promise<Moved>,
  decision?: Parameters<typeof refundStepped>[3],
): Promise<Moved> {
  const events = refundStepped(o, step, new Date(), decision);
  try {
    return await outbox.run(events, async () => {
      const r = await move(events[0]!.event.id);
      if (!r.moved) throw new NotMoved(r);
      return r;
    });
  } catch (err) {
    if (err instanceof NotMoved) return err.result;
    throw err;
  }
}

export function createRefunds(d: {
  orders: OrderStore;
  partners: Pick<Partners, 'holdProceeds' | 'unholdProceeds' | 'refundSale' | 'returnStock'>;
  outbox: Pick<Outbox, 'run'>;
  log: Logger;
  windowHours: number;
  /** A refund step untouched this long is taken over by the sweeper. */
  graceMs: number;
}): Refunds {
  const { orders, partners, log } = d;
  let marking: Promise<number> | undefined;

  function assertAdmin(caller: Caller | undefined): asserts caller is Caller {
    if (!caller) throw unauthenticated();
    if (!hasRole(caller, 'Admin')) throw forbidden('Administrators only');
  }

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
    const done = await announced(
      d.outbox,
      o,
      'approved',
      (decisionEvent) =>
        orders.moveRefund(
          o.id,
          'approving',
          { status: 'approved', source, decidedAt: new Date(), settled: true, decisionEvent },
          { status: 'refunded', paymentStatus: 'refunded' },
        ),
      { by: refund.decidedBy },
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
      const order = assertRefundable(await orders.get(orderId), caller.userId, now, d.windowHours);
      const refund: RefundRecord = {
        status: 'requested',
        reason: text,
        requestedAt: now,
        held: null,
        attempt: 0,
        settled: false,
      };
      const started = await announced(d.outbox, { ...order, refund }, 'requested', (requestEvent) =>
        orders.startRefund(orderId, caller.userId, { ...refund, requestEvent }),
      );
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
      const decidedBy = { userId: caller.userId, username: caller.username };
      if (!approve) {
        const r = await announced(
          d.outbox,
          o,
          'rejected',
          (decisionEvent) =>
            orders.moveRefund(o.id, 'requested', {
              status: 'rejected',
              decisionReason: text,
              decidedAt: new Date(),
              decidedBy,
              decisionEvent,
            }),
          { by: decidedBy, reason: text },
        );
        if (!r.moved) throw conflict(MSG.refundAlreadyDecided);
        return carryOutRejection(r.order);
      }
      const r = await orders.moveRefund(o.id, 'requested', {
        status: 'approving',
        attempt: o.refund!.attempt + 1,
        decidedBy,
      });
      if (!r.moved) throw conflict(MSG.refundAlreadyDecided);
      return carryOutApproval(r.order);
    },

    async list(caller, q) {
      assertAdmin(caller);
      return orders.refunds({ ...q, status: q.status ? STATES_OF[q.status] : undefined });
    },

    async sweep(now = new Date()) {
      // Once per process: refunds opened before `refundOpen` and `refundAsked` were written carry neither.
      marking ??= orders.markOpenRefunds();
      await marking.catch((err: unknown) => {
        marking = undefined;
        throw err;
      });
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
