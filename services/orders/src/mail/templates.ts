import { mailMessage } from '@qm/platform';

/** What both mails of a completed order say about it. */
export interface OrderFacts {
  orderId: number;
  product: string;
  quantity: number;
  unitPrice: string;
  total: string;
  completedAt: string;
}

const orderLines = (o: OrderFacts) => [
  `Order: #${o.orderId}`,
  `Product: ${o.product}`,
  `Quantity: ${o.quantity}`,
  `Unit price: ${o.unitPrice}`,
  `Total: ${o.total}`,
];

/** The orders service's emails (docs/adr/012). */
export const orderMails = {
  confirmation: (o: OrderFacts & { firstName: string; seller: string }) =>
    mailMessage(`Order #${o.orderId} confirmed: ${o.product}`, [
      `Hello ${o.firstName},`,
      `Your order is complete: ${o.total} has been paid from your wallet.`,
      [...orderLines(o), `Seller: ${o.seller}`, `Completed: ${o.completedAt}`].join('\n'),
      'You can see this order under Orders → Purchases. Questions about it? Write to us through the Contact page.',
    ]),
  saleNotice: (o: OrderFacts & { firstName: string; buyer: string; releasedAt?: string }) =>
    mailMessage(`You sold ${o.quantity} × ${o.product} (order #${o.orderId})`, [
      `Hello ${o.firstName},`,
      o.releasedAt
        ? `${o.buyer} bought your product: ${o.total} is held while the buyer may ask for a refund, ` +
          `and reaches your wallet's balance on ${o.releasedAt}.`
        : `${o.buyer} bought your product: ${o.total} has been added to your wallet.`,
      [...orderLines(o), `Buyer: ${o.buyer}`, `Completed: ${o.completedAt}`].join('\n'),
      'You can see this sale, with the buyer’s details, under Orders → Sales.',
    ]),
};
