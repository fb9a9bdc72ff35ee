import { createIdempotency, createMailer, createOutbox, type ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { ORDER_MESSAGES } from '@qm/contracts/rest';
import { createOrderLists } from './app/lists';
import { createCompletedOrders } from './app/completed-orders';
import { createOrderMails } from './app/order-mails';
import { grpcPartners } from './app/partners';
import { followUserChanges, identityDirectory } from '@qm/contracts/grpc';
import { createPurchases } from './app/purchases';
import { createRefunds } from './app/refunds';
import { createSaga } from './app/saga';
import { createOrderStats } from './app/stats';
import { createSweeper } from './app/sweeper';
import { ordersEnv } from './config';
import { orderMailConsumers, ordersBackground } from './events/consumers';
import { confirmer } from './events/orders-events';
import { addOrdersService } from './server';
import { createOrderStore } from './store/orders';

export { ordersEnv } from './config';

/** The orders service (port and database: @qm/roster): docs/product.md §3 orders and the purchase saga. */
export const ordersService: ServiceDefinition<typeof ordersEnv> = {
  ...serviceDefaults('orders'),
  env: ordersEnv,
  async setup({ config, log, conn, bus, grpc, faults }) {
    if (config.ORDERS_PAUSE_BEFORE_PAYMENT_MS && config.NODE_ENV === 'production')
      throw new Error('ORDERS_PAUSE_BEFORE_PAYMENT_MS is for tests only');
    const orders = createOrderStore(conn);
    await orders.init();
    const outbox = createOutbox({
      conn,
      bus,
      log,
      confirm: confirmer(orders),
      intervalMs: config.OUTBOX_RELAY_MS,
    });
    outbox.start();
    const users = identityDirectory({
      address: config.IDENTITY_GRPC_ADDR,
      service: 'orders',
      token: config.INTERNAL_TOKEN,
      deadlineMs: config.ORDERS_CALL_DEADLINE_MS,
    });
    const stopFollowingUsers = followUserChanges(bus, users);
    const partners = grpcPartners({
      users,
      catalog: config.CATALOG_GRPC_ADDR,
      wallet: config.WALLET_GRPC_ADDR,
      token: config.INTERNAL_TOKEN,
      deadlineMs: config.ORDERS_CALL_DEADLINE_MS,
    });
    const idempotency = createIdempotency({
      conn,
      messages: {
        inProgress: ORDER_MESSAGES.idempotencyInProgress,
        mismatch: ORDER_MESSAGES.idempotencyMismatch,
      },
    });
    const holdTimeoutSeconds = config.ORDERS_HOLD_TIMEOUT_SECONDS;
    const completed = createCompletedOrders();
    const saga = createSaga({
      orders,
      completed,
      partners,
      outbox,
      log,
      holdTimeoutSeconds,
      pauseBeforePaymentMs: config.ORDERS_PAUSE_BEFORE_PAYMENT_MS,
    });
    const purchases = createPurchases({
      orders,
      partners,
      saga,
      idempotency,
      holdTimeoutSeconds,
      refundWindowMs: config.REFUND_WINDOW_HOURS * 3_600_000,
    });
    const refunds = createRefunds({
      orders,
      partners,
      outbox,
      log,
      windowHours: config.REFUND_WINDOW_HOURS,
      graceMs: config.ORDERS_SWEEP_GRACE_MS,
    });
    addOrdersService(grpc, {
      purchases,
      refunds,
      lists: createOrderLists({ conn, orders, outbox }),
      stats: createOrderStats({ conn, orders }),
    });

    const sweeper = createSweeper({ orders, saga, log, graceMs: config.ORDERS_SWEEP_GRACE_MS });
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, faults });
    const mails = orderMailConsumers({
      conn,
      log,
      mails: createOrderMails({
        orders,
        partners,
        mailer,
        log,
        refundRequestsTo: config.REFUND_REQUESTS_MAIL_TO,
        completed,
      }),
      confirmationDurable: config.ORDERS_CONFIRMATION_DURABLE,
      saleNoticeDurable: config.ORDERS_SALE_NOTICE_DURABLE,
      refundMailDurablePrefix: config.ORDERS_REFUND_MAIL_DURABLE_PREFIX,
    });
    return {
      ...ordersBackground(mails, [
        { name: 'saga-sweep', everyMs: config.ORDERS_SWEEP_INTERVAL_MS, run: () => sweeper.sweep() },
        { name: 'refund-sweep', everyMs: config.ORDERS_SWEEP_INTERVAL_MS, run: () => refunds.sweep() },
        { name: 'idempotency-expiry', everyMs: 10 * 60_000, run: () => idempotency.sweep() },
      ]),
      stop: async () => {
        await outbox.stop();
        partners.close();
        stopFollowingUsers();
        users.close();
        mailer.close();
      },
    };
  },
};
