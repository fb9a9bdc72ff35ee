import { formatPaise, longDateTime } from '@qm/contracts/rest';
import type { Logger, Mailer } from '@qm/platform';
import { z } from 'zod';
import type { OrderParty, OrderRecord } from '../domain/order';
import { type OrderFacts, orderMails } from '../mail/templates';
import type { OrderStore } from '../store/orders';
import type { Partners } from './partners';

const OrderCompleted = z.object({ id: z.number().int().positive() });

type Party = 'buyer' | 'seller';

export interface OrderMails {
  /** Mails the buyer of the order an orders.order.completed event names its confirmation. */
  confirmation(event: { id: string; data: unknown }): Promise<void>;
  /** Mails its seller the sale notice. */
  saleNotice(event: { id: string; data: unknown }): Promise<void>;
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
 * The mails of a completed order, read from the order when they are sent (the event carries its id)
 * and addressed from identity, so a user who changed their email gets them at the new one.
 */
export function createOrderMails(d: {
  orders: OrderStore;
  partners: Pick<Partners, 'user'>;
  mailer: Mailer;
  log: Logger;
}): OrderMails {
  async function mailTo(party: Party, event: { id: string; data: unknown }) {
    const parsed = OrderCompleted.safeParse(event.data);
    if (!parsed.success) {
      d.log.error({ eventId: event.id, issues: parsed.error.issues }, 'malformed order event ignored');
      return;
    }
    const order = await d.orders.get(parsed.data.id);
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
  };
}
