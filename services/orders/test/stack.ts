import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { catalogService } from '@qm/catalog/src/service';
import { ordersV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  connectMongo,
  createClient,
  newRequestId,
  type RunningService,
  runWithContext,
  startService,
} from '@qm/platform';
import { deleteDurables, freePort, INFRA, serviceTestEnv, testCallerSigner, uniqueName } from '@qm/testkit';
import { startServiceProcess } from '@qm/testkit/src/process';
import {
  ADMIN_PASSWORD,
  Browser,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';
import { walletService } from '@qm/wallet/src/service';
import { refundMailDurables } from '../src/events/consumers';
import { ordersService } from '../src/service';

/**
 * The whole purchase path for real: a gateway with real sessions, identity (with Keycloak), catalog,
 * wallet (sandbox top-ups) and orders, each on its own fresh database of the local FerretDB and NATS.
 * Orders run with a short sweep so a test sees an abandoned order resumed within seconds.
 */
export const INTERNAL_TOKEN = 'internal-token-for-the-orders-tests-0123456789abcdef';

export interface OrdersStack {
  stack: Stack;
  /** The durables of the order mails' consumers (processed_events ids start with them). */
  mailDurables: StackPlan['mailDurables'];
  /** The administrators' address of this stack, where refund requests are announced. */
  refundRequestsTo: string;
  catalog: RunningService<unknown>;
  wallet: RunningService<unknown>;
  orders: RunningService<unknown>;
  admin: Browser;
  /** Registers, approves and signs in a user; `funds` rupees are topped up through the sandbox. */
  user(role: 'Army' | 'Manufacturer', funds?: number): Promise<{ who: Registered; as: Browser }>;
  /** `user()` for each name, one after another: each name's browser and registration. */
  users<K extends string>(
    spec: Record<K, ['Army' | 'Manufacturer', number]>,
  ): Promise<{ as: Record<K, Browser>; who: Record<K, Registered> }>;
  /** Another orders process on the same partners and database (e.g. with a test pause). */
  startOrders(env?: Record<string, string>): Promise<RunningService<unknown>>;
  /** gRPC straight to an orders process as a signed-in user (what the gateway passes on). */
  grpc(svc: RunningService<unknown>, caller: Caller): OrdersClient;
  stop(): Promise<void>;
}

type OrdersClient = ReturnType<typeof createClient<typeof ordersV1.OrdersServiceService>>;

/** Each service's database and environment in one stack (in process or as child processes). */
interface StackPlan {
  ports: Record<'catalog' | 'wallet' | 'orders', number>;
  dbs: Record<'catalog' | 'wallet' | 'orders', string>;
  /** The orders' mail consumers of this stack (every orders process of it shares them, as replicas do). */
  mailDurables: { confirmation: string; saleNotice: string; refundPrefix: string };
  refundRequestsTo: string;
  stack: Stack;
}

async function planStack(): Promise<StackPlan> {
  const [catalog, wallet, orders] = await Promise.all([freePort(), freePort(), freePort()]);
  const stack = await startIdentityStack({
    identity: { INTERNAL_TOKEN },
    gateway: {
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalog}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${wallet}`,
      ORDERS_GRPC_ADDR: `127.0.0.1:${orders}`,
      AUTH_RATE_LIMIT_SCALE: '1000',
      // Storms reach the saga whole: these tests are of the services, not of the gateway's deadline
      // or of its admission control (docs/adr/026, tested in gateway/test).
      GRPC_DEADLINE_MS: '30000',
      ADMISSION_MAX_IN_FLIGHT: '1000',
      ADMISSION_MAX_WAITING: '1000',
    },
  });
  return {
    ports: { catalog, wallet, orders },
    dbs: {
      catalog: uniqueName('qm_test_orders_catalog'),
      wallet: uniqueName('qm_test_orders_wallet'),
      orders: uniqueName('qm_test_orders'),
    },
    mailDurables: {
      confirmation: uniqueName('orders-confirmation-test'),
      saleNotice: uniqueName('orders-sale-notice-test'),
      refundPrefix: uniqueName('orders-refund-test'),
    },
    refundRequestsTo: `${uniqueName('refunds')}@admins.test`,
    stack,
  };
}

/** Removes the stack's mail consumers from the stream, which outlives the test. */
const deleteMailDurables = ({ mailDurables: m }: StackPlan) =>
  deleteDurables('QM_ORDERS', [
    m.confirmation,
    m.saleNotice,
    ...Object.values(refundMailDurables(m.refundPrefix)),
  ]);

const catalogEnv = ({ ports, dbs }: StackPlan) =>
  serviceTestEnv(dbs.catalog, {
    GRPC_PORT: String(ports.catalog),
    INTERNAL_TOKEN,
    CATALOG_USER_DELETED_DURABLE: uniqueName('orders_test_catalog'),
    OUTBOX_RELAY_MS: '500',
  });

const walletEnv = ({ ports, dbs, stack }: StackPlan) =>
  serviceTestEnv(dbs.wallet, {
    GRPC_PORT: String(ports.wallet),
    IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
    INTERNAL_TOKEN,
    WALLET_PROVIDER: 'sandbox',
    WALLET_WEBHOOK_URL: `${stack.url}/api/webhooks/sandbox`,
    WEBHOOK_RETRY_MS: '200',
    WALLET_USER_APPROVED_DURABLE: uniqueName('orders_test_wallet'),
  });

const ordersEnvOf =
  ({ ports, dbs, stack, mailDurables, refundRequestsTo }: StackPlan) =>
  (env: Record<string, string>) =>
    serviceTestEnv(dbs.orders, {
      GRPC_PORT: String(ports.orders),
      IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
      CATALOG_GRPC_ADDR: `127.0.0.1:${ports.catalog}`,
      WALLET_GRPC_ADDR: `127.0.0.1:${ports.wallet}`,
      INTERNAL_TOKEN,
      ORDERS_SWEEP_INTERVAL_MS: '500',
      ORDERS_SWEEP_GRACE_MS: '3000',
      ORDERS_CALL_DEADLINE_MS: '20000',
      OUTBOX_RELAY_MS: '500',
      ORDERS_CONFIRMATION_DURABLE: mailDurables.confirmation,
      ORDERS_SALE_NOTICE_DURABLE: mailDurables.saleNotice,
      ORDERS_REFUND_MAIL_DURABLE_PREFIX: mailDurables.refundPrefix,
      REFUND_REQUESTS_MAIL_TO: refundRequestsTo,
      ...env,
    });

async function signInAdmin(stack: Stack): Promise<Browser> {
  const admin = new Browser(stack.url);
  if ((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status !== 200)
    throw new Error('admin sign-in failed');
  return admin;
}

async function newUser(stack: Stack, admin: Browser, role: 'Army' | 'Manufacturer', funds?: number) {
  const who = await registerUser(stack, role === 'Army' ? 'OrdArmy' : 'OrdMaker', role, admin);
  const as = new Browser(stack.url);
  const signedIn = await as.login(who.username, who.password);
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status}`);
  if (funds) await topUp(as, funds);
  return { who, as };
}

async function newUsers<K extends string>(
  stack: Stack,
  admin: Browser,
  spec: Record<K, ['Army' | 'Manufacturer', number]>,
) {
  const as = {} as Record<K, Browser>;
  const who = {} as Record<K, Registered>;
  for (const [name, [role, funds]] of Object.entries(spec) as [K, ['Army' | 'Manufacturer', number]][]) {
    const u = await newUser(stack, admin, role, funds);
    as[name] = u.as;
    who[name] = u.who;
  }
  return { as, who };
}

/** `env` adds to a partner's test environment (e.g. QM_FAULTS_FILE). */
export async function startOrdersStack(
  env: Partial<Record<'catalog' | 'wallet', Record<string, string>>> = {},
): Promise<OrdersStack> {
  const plan = await planStack();
  const { stack } = plan;
  const catalog = await startService(catalogService, { ...catalogEnv(plan), ...env.catalog });
  const wallet = await startService(walletService, { ...walletEnv(plan), ...env.wallet });
  const ordersEnv = ordersEnvOf(plan);
  const extra: RunningService<unknown>[] = [];
  const orders = await startService(ordersService, ordersEnv({}));
  const admin = await signInAdmin(stack);
  const clients: OrdersClient[] = [];

  return {
    stack,
    mailDurables: plan.mailDurables,
    refundRequestsTo: plan.refundRequestsTo,
    catalog: catalog as RunningService<unknown>,
    wallet: wallet as RunningService<unknown>,
    orders: orders as RunningService<unknown>,
    admin,
    user: (role, funds) => newUser(stack, admin, role, funds),
    users: (spec) => newUsers(stack, admin, spec),
    async startOrders(env = {}) {
      const svc = await startService(ordersService, ordersEnv({ GRPC_PORT: '0', ...env }));
      extra.push(svc as RunningService<unknown>);
      return svc as RunningService<unknown>;
    },
    grpc(svc, caller) {
      const c = createClient(ordersV1.OrdersServiceService, `127.0.0.1:${svc.port}`, {
        signer: testCallerSigner,
        defaultDeadlineMs: 60_000,
      });
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
      await deleteMailDurables(plan);
      await stack.stop();
    },
  };
}

export type Killable = 'catalog' | 'wallet' | 'orders';

export interface ProcessStack {
  stack: Stack;
  admin: Browser;
  /** The services' databases (read them with the system check). */
  dbs: Record<Killable, string>;
  /** The services' gRPC ports (the orders service's partners call them with INTERNAL_TOKEN). */
  ports: Record<Killable, number>;
  user: OrdersStack['user'];
  /** SIGKILLs the service's process; resolves once it is dead. */
  kill(name: Killable): Promise<void>;
  /** Starts the service again on its port and database; `env` adds to its test environment. */
  start(name: Killable, env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The same stack with catalog, wallet and orders as real child processes (identity and the gateway
 * stay in this process), so a test can kill any of them outright and start it again.
 */
export async function startProcessStack(env: Partial<Record<Killable, Record<string, string>>> = {}) {
  const plan = await planStack();
  const { stack, dbs } = plan;
  const envs: Record<Killable, (extra: Record<string, string>) => Record<string, string>> = {
    catalog: (extra) => ({ ...catalogEnv(plan), ...extra }),
    wallet: (extra) => ({ ...walletEnv(plan), ...extra }),
    orders: ordersEnvOf(plan),
  };
  const running = new Map<Killable, ChildProcess>();
  const start = async (name: Killable, extra: Record<string, string> = {}) => {
    // `info`: startServiceProcess waits for the service's "ready" line.
    const childEnv = envs[name]({ LOG_LEVEL: 'info', ...env[name], ...extra });
    running.set(name, await startServiceProcess(name, childEnv));
  };
  const kill = async (name: Killable) => {
    const child = running.get(name);
    running.delete(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const dead = once(child, 'exit');
    child.kill('SIGKILL');
    await dead;
  };
  const stopAll = async () => {
    for (const name of ['orders', 'wallet', 'catalog'] as const) await kill(name);
  };
  try {
    for (const name of ['catalog', 'wallet', 'orders'] as const) await start(name);
  } catch (err) {
    await stopAll();
    await stack.stop();
    throw err;
  }
  const admin = await signInAdmin(stack);
  const stacked: ProcessStack = {
    stack,
    admin,
    dbs,
    ports: { catalog: plan.ports.catalog, wallet: plan.ports.wallet, orders: plan.ports.orders },
    user: (role, funds) => newUser(stack, admin, role, funds),
    kill,
    start,
    async stop() {
      await stopAll();
      const conn = await connectMongo(INFRA.MONGO_URL, dbs.orders);
      for (const db of Object.values(dbs))
        await conn
          .useDb(db)
          .dropDatabase()
          .catch(() => undefined);
      await conn.close();
      await deleteMailDurables(plan);
      await stack.stop();
    },
  };
  return stacked;
}

/** Lists an Equipment product as `maker` through the gateway and answers its id. */
export async function listProduct(
  maker: Browser,
  p: { name: string; price: string; stock: number; description: string },
): Promise<number> {
  const res = await maker.post('/api/products', { type: 'Equipment', ...p });
  if (res.status !== 201) throw new Error(`POST /api/products: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
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
