import { formatPaise, longDateTime } from '@qm/contracts/rest';
import type { Logger, Mailer } from '@qm/platform';
import { z } from 'zod';
import type { OrderParty, OrderRecord } from '../domain/order';
import { type OrderFacts, orderMails } from '../mail/templates';
import type { OrderStore } from '../store/orders';
import type { CompletedOrders } from './completed-orders';
import type { Partners } from './partners';

const OrderCompleted = z.object({ id: z.number().int().positive() });
const RefundStepped = z.object({
  id: z.number().int().positive(),
  status: z.enum(['requested', 'approved', 'rejected']),
});

type Party = 'buyer' | 'seller';

export interface OrderMails {
  /** Mails the buyer of the order an orders.order.completed event names its confirmation. */
  confirmation(event: { id: string; data: unknown }): Promise<void>;
  /** Mails its seller the sale notice. */
  saleNotice(event: { id: string; data: unknown }): Promise<void>;
  /** Tells the administrators' address of an orders.refund.requested event's request. */
  refundRequested(event: { id: string; data: unknown }): Promise<void>;
  /** Tells the buyer of an orders.refund.approved or .rejected event's decision. */
  refundDecisionToBuyer(event: { id: string; data: unknown }): Promise<void>;
  /** Tells the seller. */
  refundDecisionToSeller(event: { id: string; data: unknown }): Promise<void>;
}

const partyName = (p: OrderParty) =>
  p.name && p.name !== p.username ? `${p.name} (${p.username})` : p.username;

const factsOf = (o: OrderRecord): OrderFacts => ({
  orderId: o.id,
  product: o.product.name,
  quantity: o.quantity,
  unitPrice: formatPaise(o.unitPricePaise),
  total: formatPaise(o.totalPaise),
  completedAt: longDateTime(o.updatedAt.toISOString()),
});

/**
 * The mails of a completed order and of its refund, read from the order when they are sent (the
 * event carries its id) and addressed from identity, so a user who changed their email gets them at
 * the new one.
 */
export function createOrderMails(d: {
  orders: OrderStore;
  partners: Pick<Partners, 'user'>;
  mailer: Mailer;
  log: Logger;
  /** Where refund requests are announced (the administrators' address). */
  refundRequestsTo: string;
  /** The orders this process just completed: a completed order's mails read it from here first. */
  completed?: Pick<CompletedOrders, 'get'>;
}): OrderMails {
  /** The order a refund event names, if its refund really is at the event's step. */
  async function refundedOrder(event: { id: string; data: unknown }) {
    const parsed = RefundStepped.safeParse(event.data);
    if (!parsed.success) {
      d.log.error({ eventId: event.id, issues: parsed.error.issues }, 'malformed refund event ignored');
      return null;
    }
    const order = await d.orders.get(parsed.data.id);
    const state = order?.refund?.status;
    const at = parsed.data.status;
    if (!order?.refund || (at === 'requested' ? !state : state !== at)) {
      d.log.error({ eventId: event.id, orderId: parsed.data.id }, 'no refund at this event’s step: no mail');
      return null;
    }
    return { order, refund: order.refund, step: at };
  }

  async function refundDecisionTo(party: Party, event: { id: string; data: unknown }) {
    const found = await refundedOrder(event);
    if (!found || found.step === 'requested') return;
    const { order, refund } = found;
    const user = await d.partners.user(party === 'buyer' ? order.buyerId : order.sellerId);
    if (!user?.email) return;
    const release = order.refundableUntil;
    await d.mailer.send(
      user.email,
      orderMails.refundDecided({
        ...factsOf(order),
        party,
        firstName: user.firstName || user.username,
        approved: refund.status === 'approved',
        decisionReason: refund.decisionReason ?? '',
        fromBalance: refund.source === 'seller',
        ...(release && release.getTime() > Date.now()
          ? { releasedAt: longDateTime(release.toISOString()) }
          : {}),
      }),
    );
  }

  async function mailTo(party: Party, event: { id: string; data: unknown }) {
    const parsed = OrderCompleted.safeParse(event.data);
    if (!parsed.success) {
      d.log.error({ eventId: event.id, issues: parsed.error.issues }, 'malformed order event ignored');
      return;
    }
    const order = d.completed?.get(parsed.data.id) ?? (await d.orders.get(parsed.data.id));
    // The event is published only after the order completed; anything else is not this order's event.
    if (!order || order.status !== 'completed') {
      d.log.error(
        { eventId: event.id, orderId: parsed.data.id },
        'no completed order for this event: no mail',
      );
      return;
    }
    const user = await d.partners.user(party === 'buyer' ? order.buyerId : order.sellerId);
    // A deleted user has no address left to write to.
    if (!user?.email) return;
    const firstName = user.firstName || user.username;
    await d.mailer.send(
      user.email,
      party === 'buyer'
        ? orderMails.confirmation({ ...factsOf(order), firstName, seller: partyName(order.seller) })
        : orderMails.saleNotice({
            ...factsOf(order),
            firstName,
            buyer: partyName(order.buyer),
            ...(order.refundableUntil
              ? { releasedAt: longDateTime(order.refundableUntil.toISOString()) }
              : {}),
          }),
    );
  }
  return {
    confirmation: (event) => mailTo('buyer', event),
    saleNotice: (event) => mailTo('seller', event),
    async refundRequested(event) {
      const found = await refundedOrder(event);
      if (found?.step !== 'requested') return;
      const { order, refund } = found;
      await d.mailer.send(
        d.refundRequestsTo,
        orderMails.refundRequested({
          ...factsOf(order),
          buyer: partyName(order.buyer),
          seller: partyName(order.seller),
          reason: refund.reason,
          requestedAt: longDateTime(refund.requestedAt.toISOString()),
        }),
      );
    },
    refundDecisionToBuyer: (event) => refundDecisionTo('buyer', event),
    refundDecisionToSeller: (event) => refundDecisionTo('seller', event),
  };
}
