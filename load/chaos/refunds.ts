import { ORDER_MESSAGES } from '@qm/contracts/rest';
import type { Op, OpLog } from './oplog';
import type { OrderFact } from './verify';

/**
 * What the chaos run proves about refunds (docs/adr/028) from the operation log and the orders and
 * escrows as the stack left them once drained. The refund calls take no Idempotency-Key: the orders
 * service allows one request per order and one decision per request, each by a conditional update of
 * the order, so the order's final state is the calls' effect, and an unknown call is judged by it
 * rather than retried. The money (a refunded order paid back by exactly one posted refund of its
 * total to its buyer, its units back in stock) is system:check's (load/system/check.ts); this adds
 * what only the log can tell:
 *
 * - every answer matches its order: a request answered 201 (or refused as already requested) left a
 *   refund on that order of its caller; an approval answered ok left the order `refunded`, a
 *   rejection answered ok left it rejected and not refunded; a decision refused as already decided
 *   left the request decided;
 * - no refund without a call: a request, an approval and a rejection each need a call for that order
 *   that was answered ok or never answered (unknown);
 * - each order's refund is final and of one piece: refunded exactly when approved;
 * - the sale's proceeds are held exactly while its request is open: an open request's escrow frozen
 *   with the price, an approved one's emptied by the refund, a rejected one's (and one never asked
 *   for) let go.
 */

/** A sale's escrow (`escrow:<reference>`, docs/adr/028) as the checks need it. */
export interface EscrowFact {
  reference: string;
  available: number;
  frozen: boolean;
}

export const REFUND_OPS = new Set(['refund-request', 'refund-approve', 'refund-reject']);

export type RefundInvariant = 'refund-answer' | 'refund-without-call' | 'refund-state' | 'refund-proceeds';

export interface RefundBreak {
  invariant: RefundInvariant;
  detail: string;
}

export interface RefundVerdict {
  breaks: RefundBreak[];
  /** The run's refund requests as their orders show them. */
  refunds: { open: number; approved: number; rejected: number };
  /** Refund calls logged, by op. */
  calls: Record<string, number>;
}

/** The order a refund call names (its path); undefined for other calls. */
export function refundOrderOf(op: Pick<Op, 'op' | 'path'>): number | undefined {
  if (!REFUND_OPS.has(op.op)) return undefined;
  const m = /^\/api\/(?:orders\/(\d+)\/refund-request|admin\/refunds\/(\d+))$/.exec(op.path);
  return m ? Number(m[1] ?? m[2]) : undefined;
}

/**
 * Whether a refund call's effect is on its order now (for the operations table's unknown calls):
 * the request made, the order refunded, the request rejected. Undefined for other calls.
 */
export function refundEffect(op: Op, orderById: Map<number, OrderFact>): number | undefined {
  const id = refundOrderOf(op);
  if (id === undefined) return undefined;
  const o = orderById.get(id);
  switch (op.op) {
    case 'refund-request':
      return o?.refund ? 1 : 0;
    case 'refund-approve':
      return o?.status === 'refunded' ? 1 : 0;
    default:
      return o?.refund?.status === 'rejected' ? 1 : 0;
  }
}

const messageOf = (op: Op) => (typeof op.answer?.message === 'string' ? op.answer.message : '');

export function verifyRefunds(
  log: OpLog,
  orders: OrderFact[],
  escrows: Map<string, EscrowFact>,
): RefundVerdict {
  const breaks: RefundBreak[] = [];
  const broke = (invariant: RefundInvariant, detail: string) => breaks.push({ invariant, detail });
  const orderById = new Map(orders.map((o) => [o.id, o]));
  const calls: Record<string, number> = {};
  // The calls that may have taken effect (answered ok, or never answered), per op and order.
  const mayHave = new Set<string>();
  const mark = (op: string, order: number) => `${op}:${order}`;

  for (const op of log.ops) {
    const id = refundOrderOf(op);
    if (id === undefined) continue;
    calls[op.op] = (calls[op.op] ?? 0) + 1;
    if (op.outcome !== 'failed') mayHave.add(mark(op.op, id));
    const o = orderById.get(id);
    const name = `${op.op} of order ${id} (call ${op.id})`;
    const refund = o?.refund;
    const state = o
      ? `the order is ${o.status}, its refund ${refund?.status ?? 'never requested'}`
      : 'no such order of the run';
    const message = messageOf(op);
    if (op.op === 'refund-request') {
      if (op.outcome === 'ok' && (!refund || o?.buyerId !== op.user))
        broke('refund-answer', `${name} by user ${op.user}: answered ${op.status}, yet ${state}`);
      else if (op.outcome === 'failed' && message === ORDER_MESSAGES.refundAlreadyRequested && !refund)
        broke('refund-answer', `${name}: refused as already requested, yet ${state}`);
    } else {
      const approve = op.op === 'refund-approve';
      if (op.outcome === 'ok' && approve && !(o?.status === 'refunded' && refund?.status === 'approved'))
        broke('refund-answer', `${name}: approved (${op.status}), yet ${state}`);
      else if (
        op.outcome === 'ok' &&
        !approve &&
        !(o?.status !== 'refunded' && refund?.status === 'rejected')
      )
        broke('refund-answer', `${name}: rejected (${op.status}), yet ${state}`);
      else if (
        op.outcome === 'failed' &&
        message === ORDER_MESSAGES.refundAlreadyDecided &&
        refund?.status !== 'approved' &&
        refund?.status !== 'rejected'
      )
        broke('refund-answer', `${name}: refused as already decided, yet ${state}`);
    }
  }

  const refunds = { open: 0, approved: 0, rejected: 0 };
  for (const o of orders) {
    const refund = o.refund;
    const name = `order ${o.id} of buyer ${o.buyerId}`;
    if (!refund) {
      if (o.status === 'refunded' || o.paymentStatus === 'refunded')
        broke('refund-state', `${name} is ${o.status} (payment ${o.paymentStatus}) without a refund request`);
    } else {
      if (refund.status === 'approved') refunds.approved++;
      else if (refund.status === 'rejected') refunds.rejected++;
      else refunds.open++;
      if (!mayHave.has(mark('refund-request', o.id)))
        broke(
          'refund-without-call',
          `${name} has a refund (${refund.status}) but no request call that could have made it`,
        );
      if (
        (refund.status === 'approved' || o.status === 'refunded') &&
        !mayHave.has(mark('refund-approve', o.id))
      )
        broke(
          'refund-without-call',
          `${name} is ${o.status}, its refund ${refund.status}, but no approval call could have done it`,
        );
      if (refund.status === 'rejected' && !mayHave.has(mark('refund-reject', o.id)))
        broke(
          'refund-without-call',
          `${name}: its refund is rejected but no rejection call could have done it`,
        );
      const refunded = o.status === 'refunded' && o.paymentStatus === 'refunded';
      const anyRefunded = o.status === 'refunded' || o.paymentStatus === 'refunded';
      // Decided: all it entails done (settled); open: its proceeds asked for (held true, or false when
      // the release came first). An approval still under way ('approving') is unfinished.
      const finished =
        refund.status === 'approved' || refund.status === 'rejected'
          ? refund.settled === true
          : refund.status === 'requested' && refund.held != null;
      if (refund.status === 'approved' ? !refunded : anyRefunded)
        broke(
          'refund-state',
          `${name} is ${o.status} (payment ${o.paymentStatus}), its refund ${refund.status}`,
        );
      else if (!finished)
        broke(
          'refund-state',
          `${name}: its refund ${refund.status} is not finished (held ${String(refund.held)}, settled ${String(refund.settled)})`,
        );
    }

    // The proceeds: a purchase's escrow, frozen exactly while its request is open (docs/adr/028).
    const escrow = o.reference === undefined ? undefined : escrows.get(o.reference);
    if (!escrow) continue;
    if (refund?.status === 'approving') continue; // unfinished, said above
    const open = refund?.status === 'requested';
    if (open && refund.held === true && !(escrow.frozen && escrow.available === o.totalPaise))
      broke(
        'refund-proceeds',
        `${name}: its refund is open and held, yet its escrow is ${escrow.frozen ? 'frozen' : 'not frozen'} with ${escrow.available} of ${String(o.totalPaise)} paise`,
      );
    else if (refund?.status === 'approved' && escrow.available !== 0)
      broke('refund-proceeds', `${name}: refunded, yet its escrow still holds ${escrow.available} paise`);
    else if (!open && refund?.status !== 'approved' && escrow.frozen)
      broke(
        'refund-proceeds',
        `${name}: its escrow is frozen, yet ${refund ? `its refund was ${refund.status}` : 'no refund was requested'}`,
      );
  }
  return { breaks, refunds, calls };
}
