import { ORDERS_SUBJECTS, streamOf } from '@qm/contracts/events';
import { type BackgroundWork, type ConsumerSpec, idempotent, type PeriodicJob } from '@qm/platform';
import type { Connection } from 'mongoose';
import type { OrderMails } from '../app/order-mails';

export const DEFAULT_CONFIRMATION_DURABLE = 'orders-confirmation-mail';
export const DEFAULT_SALE_NOTICE_DURABLE = 'orders-sale-notice-mail';

/**
 * One consumer per mail of a completed order (docs/adr/012), so a failure to send one never sends the
 * other twice: JetStream redelivers until the send succeeds, and the claim per event id keeps a
 * redelivery, or a second replica, from mailing twice. They start with the orders completed after
 * they were first declared: an order completed before there were mails is never mailed late.
 */
function orderMailConsumer(
  conn: Connection,
  durable: string,
  send: (event: { id: string; data: unknown }) => Promise<void>,
): ConsumerSpec {
  return {
    stream: streamOf('orders').name,
    durable,
    filterSubjects: [ORDERS_SUBJECTS.completed],
    startAt: 'new',
    handle: idempotent(conn, durable, send),
  };
}

export function orderMailConsumers(opts: {
  conn: Connection;
  mails: OrderMails;
  confirmationDurable: string;
  saleNoticeDurable: string;
}): ConsumerSpec[] {
  return [
    orderMailConsumer(opts.conn, opts.confirmationDurable, opts.mails.confirmation),
    orderMailConsumer(opts.conn, opts.saleNoticeDurable, opts.mails.saleNotice),
  ];
}

/** What the orders service runs besides its handlers: the order mails and its periodic jobs. */
export function ordersBackground(consumers: ConsumerSpec[], jobs: PeriodicJob[]): BackgroundWork {
  return { consumers, jobs };
}
