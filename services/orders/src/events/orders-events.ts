import { formatMoney } from '@qm/contracts/rest';
import {
  ACTIVITY_SUBJECT,
  activityEvent,
  type OrderEndedData,
  ORDERS_SUBJECTS,
  type RefundEventData,
} from '@qm/contracts/events';
import { type EventEnvelope, type OutgoingEvent, outgoingEvent } from '@qm/platform';
import type { OrderRecord } from '../domain/order';
import type { OrderStore } from '../store/orders';

/**
 * What the orders service publishes: an order's end and its refund's steps, and its users' order
 * activity (docs/product.md §3).
 */

/** orders.order.completed or .cancelled, and for a completed order the buyer's order_place. */
export function orderEnded(o: OrderRecord, status: 'completed' | 'cancelled', at: Date): OutgoingEvent[] {
  const subject = ORDERS_SUBJECTS[status];
  const ended = outgoingEvent<OrderEndedData>(subject, {
    id: o.id,
    reference: o.reference,
    productId: o.productId,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    quantity: o.quantity,
    totalPaise: o.totalPaise,
    status,
    cancelReason: status === 'cancelled' ? o.cancelReason : '',
    updatedAt: at.toISOString(),
  });
  if (status === 'cancelled') return [ended];
  const details = `Order #${o.id}: ${o.quantity} × ${o.product.name} for ₹${formatMoney(o.totalPaise)}`;
  return [ended, activityEvent({ userId: o.buyerId, username: o.buyer.username }, 'order_place', details)];
}

export type RefundStep = RefundEventData['status'];

const REFUND_SUBJECT: Record<RefundStep, string> = {
  requested: ORDERS_SUBJECTS.refundRequested,
  approved: ORDERS_SUBJECTS.refundApproved,
  rejected: ORDERS_SUBJECTS.refundRejected,
};
const REFUND_SUBJECTS = new Set(Object.values(REFUND_SUBJECT));

/**
 * A refund's step as events: orders.refund.<step>, and the activity of who took it: the buyer's
 * refund_requested, the deciding administrator's refund_approved or refund_rejected (an approval
 * finished by the sweeper names the administrator who made it).
 */
export function refundStepped(
  o: OrderRecord,
  step: RefundStep,
  at: Date,
  decision: { by?: { userId: number; username: string }; reason?: string } = {},
): OutgoingEvent[] {
  const refund = o.refund!;
  const event = outgoingEvent<RefundEventData>(REFUND_SUBJECT[step], {
    id: o.id,
    reference: o.reference,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    totalPaise: o.totalPaise,
    status: step,
    reason: refund.reason,
    decisionReason: step === 'rejected' ? (decision.reason ?? '') : '',
    at: at.toISOString(),
  });
  const amount = `₹${formatMoney(o.totalPaise)}`;
  const buyer = o.buyer.username;
  if (step === 'requested')
    return [
      event,
      activityEvent(
        { userId: o.buyerId, username: buyer },
        'refund_requested',
        `Order #${o.id}: refund of ${amount} requested`,
      ),
    ];
  if (!decision.by) return [event];
  const details =
    step === 'approved'
      ? `Order #${o.id}: ${amount} refunded to ${buyer}`
      : `Order #${o.id}: refund of ${amount} to ${buyer} rejected`;
  return [event, activityEvent(decision.by, `refund_${step}`, details)];
}

/**
 * The outbox's question for an event whose process died before publishing it: did the change it
 * announces really happen, by this event? Another driver may have made it first, its own event the
 * one the order names (orders ended before `endEvent` was kept are judged by their status alone).
 * (Activity follows the event it was written with.)
 */
export function confirmer(orders: OrderStore) {
  return async (event: EventEnvelope, subject: string): Promise<boolean> => {
    if (subject === ACTIVITY_SUBJECT) return true;
    const data = event.data as { id?: unknown; status?: unknown };
    if (typeof data.id !== 'number') return false;
    const order = await orders.get(data.id);
    if (!order) return false;
    if (REFUND_SUBJECTS.has(subject))
      return (
        (data.status === 'requested' ? order.refund?.requestEvent : order.refund?.decisionEvent) === event.id
      );
    return order.status === data.status && (order.endEvent ?? event.id) === event.id;
  };
}
