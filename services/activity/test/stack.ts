import { catalogService } from '@qm/catalog/src/service';
import { ordersService } from '@qm/orders/src/service';
import { type RunningService, startService } from '@qm/platform';
import { freePort, serviceTestEnv, uniqueName } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  Browser,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';
import { walletService } from '@qm/wallet/src/service';
import { activityService } from '../src/service';

/**
 * Every service that records an activity, and the activity service storing them, behind a gateway
 * with real sessions, each on a fresh database of the local FerretDB and NATS.
 */
export const INTERNAL_TOKEN = 'internal-token-for-the-activity-tests-0123456789abcd';

export interface ActivityStack {
  stack: Stack;
  activity: RunningService<unknown>;
  /** The wallet, whose database a test may move in time (an escrow's release). */
  wallet: RunningService<unknown>;
  admin: Browser;
  /** Registers, approves and signs in a user. */
  user(role: 'Army' | 'Manufacturer', prefix?: string): Promise<{ who: Registered; as: Browser }>;
  /** Where each service listens (host:port), for services a test adds to the stack. */
  addresses: Record<'identity' | 'catalog' | 'wallet' | 'orders' | 'activity', string>;
  /** Another activity service on another database, e.g. without the PostgreSQL search. */
  startActivity(env?: Record<string, string>): Promise<RunningService<unknown>>;
  stop(): Promise<void>;
}

/** `gateway` adds to the gateway's environment (e.g. the address of a service the test starts). */
export async function startActivityStack(
  opts: { gateway?: Record<string, string> } = {},
): Promise<ActivityStack> {
  const [catalogPort, walletPort, ordersPort, activityPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const stack = await startIdentityStack({
    identity: { INTERNAL_TOKEN },
    gateway: {
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalogPort}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}`,
      ORDERS_GRPC_ADDR: `127.0.0.1:${ordersPort}`,
      ACTIVITY_GRPC_ADDR: `127.0.0.1:${activityPort}`,
      AUTH_RATE_LIMIT_SCALE: '1000',
      GRPC_DEADLINE_MS: '30000',
      ...opts.gateway,
    },
  });
  const identityAddr = `127.0.0.1:${stack.identity.port}`;
  const catalog = await startService(
    catalogService,
    serviceTestEnv(uniqueName('qm_test_act_catalog'), {
      GRPC_PORT: String(catalogPort),
      INTERNAL_TOKEN,
      CATALOG_USER_DELETED_DURABLE: uniqueName('act_test_catalog'),
      OUTBOX_RELAY_MS: '500',
    }),
  );
  const wallet = await startService(
    walletService,
    serviceTestEnv(uniqueName('qm_test_act_wallet'), {
      GRPC_PORT: String(walletPort),
      IDENTITY_GRPC_ADDR: identityAddr,
      INTERNAL_TOKEN,
      WALLET_PROVIDER: 'sandbox',
      WALLET_WEBHOOK_URL: `${stack.url}/api/webhooks/sandbox`,
      WEBHOOK_RETRY_MS: '200',
      WALLET_USER_APPROVED_DURABLE: uniqueName('act_test_wallet'),
      SWEEP_INTERVAL_MS: '500',
    }),
  );
  const orders = await startService(
    ordersService,
    serviceTestEnv(uniqueName('qm_test_act_orders'), {
      GRPC_PORT: String(ordersPort),
      IDENTITY_GRPC_ADDR: identityAddr,
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalogPort}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}`,
      INTERNAL_TOKEN,
      ORDERS_CALL_DEADLINE_MS: '20000',
      OUTBOX_RELAY_MS: '500',
    }),
  );
  const activityEnv = (env: Record<string, string>) =>
    serviceTestEnv(uniqueName('qm_test_activity'), {
      GRPC_PORT: String(activityPort),
      IDENTITY_GRPC_ADDR: identityAddr,
      INTERNAL_TOKEN,
      ACTIVITY_DURABLE: uniqueName('act_test'),
      ...env,
    });
  const activity = await startService(activityService, activityEnv({}));
  const extra: RunningService<unknown>[] = [];

  const admin = new Browser(stack.url);
  if ((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status !== 200)
    throw new Error('admin sign-in failed');

  return {
    stack,
    activity: activity as RunningService<unknown>,
    wallet: wallet as RunningService<unknown>,
    admin,
    addresses: {
      identity: identityAddr,
      catalog: `127.0.0.1:${catalogPort}`,
      wallet: `127.0.0.1:${walletPort}`,
      orders: `127.0.0.1:${ordersPort}`,
      activity: `127.0.0.1:${activityPort}`,
    },
    async user(role, prefix = role === 'Army' ? 'ActArmy' : 'ActMaker') {
      const who = await registerUser(stack, prefix, role, admin);
      const as = new Browser(stack.url);
      const signedIn = await as.login(who.username, who.password);
      if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status}`);
      return { who, as };
    },
    async startActivity(env = {}) {
      const svc = await startService(activityService, activityEnv({ GRPC_PORT: '0', ...env }));
      extra.push(svc as RunningService<unknown>);
      return svc as RunningService<unknown>;
    },
    async stop() {
      for (const svc of [...extra, activity, orders, wallet, catalog]) {
        await svc.rt.conn.dropDatabase().catch(() => undefined);
        await svc.stop().catch(() => undefined);
      }
      await stack.stop();
    },
  };
}

export async function topUp(as: Browser, rupees: number): Promise<void> {
  const order = await as.post('/api/create-order', { amount: rupees });
  if (order.status !== 200) throw new Error(`create-order: ${order.status} ${JSON.stringify(order.body)}`);
  const paid = await as.post('/api/sandbox/pay', {
    orderId: order.body.id,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/40',
    cvc: '123',
  });
  if (paid.status !== 200) throw new Error(`sandbox/pay: ${paid.status}`);
  const credited = await as.post('/api/verify-payment', paid.body);
  if (credited.status !== 200) throw new Error(`verify-payment: ${credited.status}`);
}
