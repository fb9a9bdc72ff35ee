import { catalogService } from '@qm/catalog/src/service';
import { ordersV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  createClient,
  newRequestId,
  type RunningService,
  runWithContext,
  startService,
} from '@qm/platform';
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
import { ordersService } from '../src/service';

/**
 * The whole purchase path for real: a gateway with real sessions, identity (with Keycloak), catalog,
 * wallet (sandbox top-ups) and orders, each on its own fresh database of the local FerretDB and NATS.
 * Orders run with a short sweep so a test sees an abandoned order resumed within seconds.
 */
export const INTERNAL_TOKEN = 'internal-token-for-the-orders-tests-0123456789abcdef';

export interface OrdersStack {
  stack: Stack;
  catalog: RunningService<unknown>;
  wallet: RunningService<unknown>;
  orders: RunningService<unknown>;
  admin: Browser;
  /** Registers, approves and signs in a user; `funds` rupees are topped up through the sandbox. */
  user(role: 'Army' | 'Manufacturer', funds?: number): Promise<{ who: Registered; as: Browser }>;
  /** Another orders process on the same partners and database (e.g. with a test pause). */
  startOrders(env?: Record<string, string>): Promise<RunningService<unknown>>;
  /** gRPC straight to an orders process as a signed-in user (what the gateway passes on). */
  grpc(svc: RunningService<unknown>, caller: Caller): OrdersClient;
  stop(): Promise<void>;
}

type OrdersClient = ReturnType<typeof createClient<typeof ordersV1.OrdersServiceService>>;

export async function startOrdersStack(): Promise<OrdersStack> {
  const [catalogPort, walletPort, ordersPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const stack = await startIdentityStack({
    identity: { INTERNAL_TOKEN },
    gateway: {
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalogPort}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}`,
      ORDERS_GRPC_ADDR: `127.0.0.1:${ordersPort}`,
      AUTH_RATE_LIMIT_SCALE: '1000',
      GRPC_DEADLINE_MS: '30000',
    },
  });
  const catalog = await startService(
    catalogService,
    serviceTestEnv(uniqueName('qm_test_orders_catalog'), {
      GRPC_PORT: String(catalogPort),
      INTERNAL_TOKEN,
      CATALOG_USER_DELETED_DURABLE: uniqueName('orders_test_catalog'),
      OUTBOX_RELAY_MS: '500',
    }),
  );
  const wallet = await startService(
    walletService,
    serviceTestEnv(uniqueName('qm_test_orders_wallet'), {
      GRPC_PORT: String(walletPort),
      IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
      INTERNAL_TOKEN,
      WALLET_PROVIDER: 'sandbox',
      WALLET_WEBHOOK_URL: `${stack.url}/api/webhooks/sandbox`,
      WEBHOOK_RETRY_MS: '200',
      WALLET_USER_APPROVED_DURABLE: uniqueName('orders_test_wallet'),
    }),
  );
  const ordersDb = uniqueName('qm_test_orders');
  const ordersEnv = (env: Record<string, string>) =>
    serviceTestEnv(ordersDb, {
      IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalogPort}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}`,
      INTERNAL_TOKEN,
      ORDERS_SWEEP_INTERVAL_MS: '500',
      ORDERS_SWEEP_GRACE_MS: '3000',
      ORDERS_CALL_DEADLINE_MS: '20000',
      OUTBOX_RELAY_MS: '500',
      ...env,
    });
  const extra: RunningService<unknown>[] = [];
  const orders = await startService(ordersService, ordersEnv({ GRPC_PORT: String(ordersPort) }));
  const admin = new Browser(stack.url);
  if ((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status !== 200)
    throw new Error('admin sign-in failed');
  const clients: OrdersClient[] = [];

  return {
    stack,
    catalog: catalog as RunningService<unknown>,
    wallet: wallet as RunningService<unknown>,
    orders: orders as RunningService<unknown>,
    admin,
    async user(role, funds) {
      const who = await registerUser(stack, role === 'Army' ? 'OrdArmy' : 'OrdMaker', role, admin);
      const as = new Browser(stack.url);
      const signedIn = await as.login(who.username, who.password);
      if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status}`);
      if (funds) await topUp(as, funds);
      return { who, as };
    },
    async startOrders(env = {}) {
      const svc = await startService(ordersService, ordersEnv({ GRPC_PORT: '0', ...env }));
      extra.push(svc as RunningService<unknown>);
      return svc as RunningService<unknown>;
    },
    grpc(svc, caller) {
      const c = createClient(
        'qm.orders.v1.OrdersService',
        ordersV1.OrdersServiceService,
        `127.0.0.1:${svc.port}`,
        {
          defaultDeadlineMs: 60_000,
        },
      );
      clients.push(c);
      return new Proxy(c, {
        get: (target, method: string) => {
          const fn = (target as unknown as Record<string, unknown>)[method];
          if (typeof fn !== 'function') return fn;
          return (req: unknown) =>
            runWithContext({ requestId: newRequestId(), caller }, () =>
              (fn as (r: unknown) => Promise<unknown>).call(target, req),
            );
        },
      });
    },
    async stop() {
      clients.forEach((c) => c.close());
      for (const svc of [...extra, orders, wallet, catalog]) {
        await svc.rt.conn.dropDatabase().catch(() => undefined);
        await svc.stop().catch(() => undefined);
      }
      await stack.stop();
    },
  };
}

/** A sandbox top-up through the checkout, as the Add Money dialog does it. */
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

/** In batches of `size`: registration and sign-in go through Keycloak, which has two cores to share. */
export async function inBatches<T>(n: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => make(i + j)))));
  return out;
}
