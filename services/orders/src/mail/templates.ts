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
  refundRequested: (o: OrderFacts & { buyer: string; seller: string; reason: string; requestedAt: string }) =>
    mailMessage(`Refund requested for order #${o.orderId}`, [
      `${o.buyer} asked for a refund of ${o.total} for order #${o.orderId}. The sale's proceeds are held until it is decided.`,
      [...orderLines(o), `Buyer: ${o.buyer}`, `Seller: ${o.seller}`, `Requested: ${o.requestedAt}`].join(
        '\n',
      ),
      `Reason: ${o.reason}`,
      'Approve or reject it under Admin → Refunds.',
    ]),
  refundDecided: (r: RefundDecisionFacts) =>
    r.party === 'buyer' ? buyerDecisionMail(r) : sellerDecisionMail(r),
};

/** What the buyer's and the seller's mails of a refund's decision say. */
export interface RefundDecisionFacts extends OrderFacts {
  party: 'buyer' | 'seller';
  firstName: string;
  approved: boolean;
  /** The administrator's reason to reject; empty for an approval. */
  decisionReason: string;
  /** When the proceeds of a rejected refund reach the seller's balance (already past: none). */
  releasedAt?: string;
  /** Where an approved refund's money came from: the sale's held proceeds or the seller's balance. */
  fromBalance: boolean;
}

function buyerDecisionMail(r: RefundDecisionFacts) {
  return r.approved
    ? mailMessage(`Your refund for order #${r.orderId} is approved`, [
        `Hello ${r.firstName},`,
        `Your refund is approved: ${r.total} is back in your wallet.`,
        orderLines(r).join('\n'),
        'You can see this order under Orders → Purchases.',
      ])
    : mailMessage(`Your refund for order #${r.orderId} was rejected`, [
        `Hello ${r.firstName},`,
        `Your refund request for order #${r.orderId} was rejected. The payment of ${r.total} stays with the seller.`,
        `Reason: ${r.decisionReason}`,
        orderLines(r).join('\n'),
        'Questions about it? Write to us through the Contact page.',
      ]);
}

function sellerDecisionMail(r: RefundDecisionFacts) {
  return r.approved
    ? mailMessage(`Order #${r.orderId} was refunded`, [
        `Hello ${r.firstName},`,
        r.fromBalance
          ? `The buyer's refund of order #${r.orderId} was approved: ${r.total} was returned to them from your wallet's balance.`
          : `The buyer's refund of order #${r.orderId} was approved: the sale's held proceeds of ${r.total} were returned to them.`,
        orderLines(r).join('\n'),
        `The ${r.quantity} ${r.quantity === 1 ? 'unit is' : 'units are'} back in your product's stock if it is still listed.`,
      ])
    : mailMessage(`The refund request for order #${r.orderId} was rejected`, [
        `Hello ${r.firstName},`,
        r.releasedAt
          ? `The buyer's refund request was rejected: the sale's ${r.total} reaches your wallet's balance on ${r.releasedAt}.`
          : `The buyer's refund request was rejected: the sale's ${r.total} is yours.`,
        orderLines(r).join('\n'),
        `Reason given: ${r.decisionReason}`,
      ]);
}
