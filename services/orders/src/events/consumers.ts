import { ORDERS_SUBJECTS, streamOf } from '@qm/contracts/events';
import {
  type BackgroundWork,
  type ConsumerSpec,
  idempotent,
  type Logger,
  type PeriodicJob,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import type { OrderMails } from '../app/order-mails';

export const DEFAULT_CONFIRMATION_DURABLE = 'orders-confirmation-mail';
export const DEFAULT_SALE_NOTICE_DURABLE = 'orders-sale-notice-mail';
/** The refund mails' durables are this prefix + -request-mail, -buyer-mail and -seller-mail. */
export const DEFAULT_REFUND_MAIL_DURABLE_PREFIX = 'orders-refund';

/**
 * One consumer per mail (docs/adr/012), so a failure to send one never sends another twice: JetStream redelivers until the send succeeds, and the claim per event id keeps a
 * redelivery, or a second replica, from mailing twice. They start with the orders completed after
 * they were first declared: an order completed before there were mails is never mailed late.
 */
function orderMailConsumer(
  { conn, log }: { conn: Connection; log: Logger },
  durable: string,
  subjects: string[],
  send: (event: { id: string; data: unknown }) => Promise<void>,
): ConsumerSpec {
  return {
    stream: streamOf('orders').name,
    durable,
    filterSubjects: subjects,
    startAt: 'new',
    handle: idempotent(conn, durable, log, send),
  };
}

/** The refund mails' durable names under one prefix. */
export const refundMailDurables = (prefix: string) => ({
  request: `${prefix}-request-mail`,
  buyer: `${prefix}-buyer-mail`,
  seller: `${prefix}-seller-mail`,
});

const DECISIONS = [ORDERS_SUBJECTS.refundApproved, ORDERS_SUBJECTS.refundRejected];

/** A completed order's two mails, and a refund's: its request to the administrators, its decision to both parties. */
export function orderMailConsumers(opts: {
  conn: Connection;
  log: Logger;
  mails: OrderMails;
  confirmationDurable: string;
  saleNoticeDurable: string;
  refundMailDurablePrefix: string;
}): ConsumerSpec[] {
  const { mails } = opts;
  const refund = refundMailDurables(opts.refundMailDurablePrefix);
  const completed = [ORDERS_SUBJECTS.completed];
  return [
    orderMailConsumer(opts, opts.confirmationDurable, completed, mails.confirmation),
    orderMailConsumer(opts, opts.saleNoticeDurable, completed, mails.saleNotice),
    orderMailConsumer(opts, refund.request, [ORDERS_SUBJECTS.refundRequested], mails.refundRequested),
    orderMailConsumer(opts, refund.buyer, DECISIONS, mails.refundDecisionToBuyer),
    orderMailConsumer(opts, refund.seller, DECISIONS, mails.refundDecisionToSeller),
  ];
}

/** What the orders service runs besides its handlers: the order mails and its periodic jobs. */
export function ordersBackground(consumers: ConsumerSpec[], jobs: PeriodicJob[]): BackgroundWork {
  return { consumers, jobs };
}
