import { formatMoney } from '@qm/contracts/rest';
import { ACTIVITY_SUBJECT, activityEvent, type OrderEndedData, ORDERS_SUBJECTS } from '@qm/contracts/events';
import { type EventEnvelope, type OutgoingEvent, outgoingEvent } from '@qm/platform';
import type { OrderRecord } from '../domain/order';
import type { OrderStore } from '../store/orders';

/** What the orders service publishes: an order's end, and its users' order activity (docs/product.md §3). */

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

/**
 * The outbox's question for an order's end event whose process died before publishing it: did the
 * order really end so, by this event? Another driver may have ended it first, its own event the one
 * the order names (orders ended before `endEvent` was kept are judged by their status alone).
 * (Activity follows the event it was written with.)
 */
export function confirmer(orders: OrderStore) {
  return async (event: EventEnvelope, subject: string): Promise<boolean> => {
    if (subject === ACTIVITY_SUBJECT) return true;
    const data = event.data as Partial<OrderEndedData>;
    if (typeof data.id !== 'number') return false;
    const order = await orders.get(data.id);
    return !!order && order.status === data.status && (order.endEvent ?? event.id) === event.id;
  };
}
