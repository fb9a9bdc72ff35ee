import { generateKeyPairSync } from 'node:crypto';
import { credentials, makeGenericClientConstructor, Metadata, type ServiceError } from '@grpc/grpc-js';
import { INTERNAL_TOKEN, type ActivityStack, startActivityStack, topUp } from '@qm/activity/test/stack';
import {
  activityV1,
  assistantV1,
  catalogV1,
  identityV1,
  ordersV1,
  supportV1,
  walletV1,
} from '@qm/contracts/grpc';
import {
  type Caller,
  createCallerSigner,
  DEV_CALLER_SIGNING_KEY,
  GrpcStatus,
  MD_CALLER,
  type RunningService,
  type ServiceDef,
  signingKeyFrom,
  signServiceIdentity,
  startService,
} from '@qm/platform';
import { callerAssertion, freePort, INFRA, serviceTestEnv, uniqueName } from '@qm/testkit';
import { supportService } from '@qm/support/src/service';
import { assistantService } from '../src/service';

/**
 * Service identity (docs/adr/021): each service's gRPC port, called directly without
 * the gateway, believes a caller only from an assertion signed with the gateway's key for itself,
 * or for the service that proves (ADR 005) it is relaying it.
 */
jest.setTimeout(180_000);

let s: ActivityStack;
let support: RunningService<unknown>;
let assistant: RunningService<unknown>;
let army: Caller;
let maker: Caller;
const admin: Caller = { userId: 1, username: 'admin', roles: ['Admin'] };
const opened: { close(): void }[] = [];

/** A bare gRPC call (no @qm/platform client): exactly the metadata given, as any pod could send. */
function call(address: string, def: ServiceDef, method: string, request: unknown, md = new Metadata()) {
  const Client = makeGenericClientConstructor(def as never, 'direct');
  const client = new Client(address, credentials.createInsecure());
  opened.push(client);
  return new Promise<unknown>((resolve, reject) =>
    (client as unknown as Record<string, Function>)[method]!.call(
      client,
      request,
      md,
      { deadline: Date.now() + 30_000 },
      (err: ServiceError | null, res: unknown) => (err ? reject(err) : resolve(res)),
    ),
  );
}

const withAssertion = (token: string, md = new Metadata()) => {
  md.set(MD_CALLER, token);
  return md;
};
const asService = (service: string, md = new Metadata()) =>
  signServiceIdentity(md, { service, token: INTERNAL_TOKEN });
const UNAUTHENTICATED = { code: GrpcStatus.UNAUTHENTICATED };

beforeAll(async () => {
  const [assistantPort, supportPort] = await Promise.all([freePort(), freePort()]);
  s = await startActivityStack();
  support = (await startService(
    supportService,
    serviceTestEnv(uniqueName('qm_test_callers_support'), {
      GRPC_PORT: String(supportPort),
      INTERNAL_TOKEN,
      SMTP_URL: INFRA.SMTP_URL,
      SUPPORT_REPLY_MAIL_DURABLE: uniqueName('callers_test_mail'),
    }),
  )) as RunningService<unknown>;
  assistant = (await startService(
    assistantService,
    serviceTestEnv(uniqueName('qm_test_callers_assistant'), {
      GRPC_PORT: String(assistantPort),
      INTERNAL_TOKEN,
      IDENTITY_GRPC_ADDR: s.addresses.identity,
      CATALOG_GRPC_ADDR: s.addresses.catalog,
      WALLET_GRPC_ADDR: s.addresses.wallet,
      ORDERS_GRPC_ADDR: s.addresses.orders,
      ACTIVITY_GRPC_ADDR: s.addresses.activity,
      SUPPORT_GRPC_ADDR: `127.0.0.1:${supportPort}`,
    }),
  )) as RunningService<unknown>;
  const [a, m] = await Promise.all([s.user('Army', 'CallArmy'), s.user('Manufacturer', 'CallMaker')]);
  army = { userId: a.who.id, username: a.who.username, roles: ['Army'] };
  maker = { userId: m.who.id, username: m.who.username, roles: ['Manufacturer'] };
  await topUp(a.as, 5000);
}, 180_000);

afterAll(async () => {
  opened.forEach((c) => c.close());
  for (const svc of [assistant, support]) {
    await svc?.rt.conn.dropDatabase().catch(() => undefined);
    await svc?.stop();
  }
  await s?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each service's own response type
type Res = any;

/** One call per service that acts for its caller, and what a valid assertion gets back. */
const services = () =>
  [
    {
      name: 'identity',
      address: s.addresses.identity,
      def: identityV1.IdentityServiceService,
      method: 'getCurrentUser',
      request: {},
      caller: army,
      check: (res: Res) => expect(res.user).toMatchObject({ id: army.userId, username: army.username }),
    },
    {
      name: 'catalog',
      address: s.addresses.catalog,
      def: catalogV1.CatalogServiceService,
      method: 'createProduct',
      request: catalogV1.CreateProductRequest.fromPartial({
        name: 'Signed Helmet',
        type: catalogV1.ProductType.PRODUCT_TYPE_EQUIPMENT,
        pricePaise: 10_000,
        description: 'Made by the caller the assertion names.',
        stock: 1,
      }),
      caller: maker,
      check: (res: Res) => expect(res.product.manufacturerId).toBe(maker.userId),
    },
    {
      name: 'wallet',
      address: s.addresses.wallet,
      def: walletV1.WalletServiceService,
      method: 'getWallet',
      request: {},
      caller: army,
      check: (res: Res) => expect(res.wallet).toMatchObject({ userId: army.userId, balancePaise: 500_000 }),
    },
    {
      name: 'orders',
      address: s.addresses.orders,
      def: ordersV1.OrdersServiceService,
      method: 'listPurchasedOrders',
      request: ordersV1.ListPurchasedOrdersRequest.fromPartial({ page: 1, pageSize: 10 }),
      caller: army,
      check: (res: Res) => expect(res.orders).toEqual([]),
    },
    {
      name: 'support',
      address: `127.0.0.1:${support.port}`,
      def: supportV1.SupportServiceService,
      method: 'listQueries',
      request: supportV1.ListQueriesRequest.fromPartial({ page: 1, pageSize: 10 }),
      caller: admin,
      check: (res: Res) => expect(res.queries).toEqual([]),
    },
    {
      name: 'activity',
      address: s.addresses.activity,
      def: activityV1.ActivityServiceService,
      method: 'listMyActivities',
      request: activityV1.ListMyActivitiesRequest.fromPartial({ page: 1, pageSize: 10 }),
      caller: army,
      check: (res: Res) => expect(Array.isArray(res.activities)).toBe(true),
    },
    {
      name: 'assistant',
      address: `127.0.0.1:${assistant.port}`,
      def: assistantV1.AssistantServiceService,
      method: 'clearChatHistory',
      request: {},
      caller: army,
      check: (res: Res) => expect(res.deletedMessages).toBe(0),
    },
  ] as const;

const NAMES = ['identity', 'catalog', 'wallet', 'orders', 'support', 'activity', 'assistant'] as const;

describe.each(NAMES)('the %s service, called directly', (name) => {
  const svc = () => services().find((x) => x.name === name)!;
  const send = (md: Metadata) => {
    const { address, def, method, request } = svc();
    return call(address, def, method, request, md);
  };

  it('refuses a caller in plain metadata (x-user-id, x-username, x-user-roles)', async () => {
    const { caller } = svc();
    const md = new Metadata();
    md.set('x-user-id', String(caller.userId));
    md.set('x-username', caller.username);
    md.set('x-user-roles', caller.roles.join(','));
    await expect(send(md)).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('refuses an assertion signed with another key', async () => {
    const forger = createCallerSigner(generateKeyPairSync('ed25519').privateKey);
    await expect(send(withAssertion(await forger.assertionFor(svc().caller, name)))).rejects.toMatchObject(
      UNAUTHENTICATED,
    );
  });

  it('refuses an expired assertion', async () => {
    const past = createCallerSigner(signingKeyFrom(DEV_CALLER_SIGNING_KEY), () => Date.now() - 120_000);
    await expect(send(withAssertion(await past.assertionFor(svc().caller, name)))).rejects.toMatchObject(
      UNAUTHENTICATED,
    );
  });

  it('refuses an assertion for another service, without that service’s proof', async () => {
    const other = name === 'orders' ? 'wallet' : 'orders';
    const token = await callerAssertion(svc().caller, other);
    await expect(send(withAssertion(token))).rejects.toMatchObject(UNAUTHENTICATED);
    // A proven service that is not the audience cannot relay it either.
    const third = NAMES.find((n) => n !== name && n !== other)!;
    await expect(send(asService(third, withAssertion(token)))).rejects.toMatchObject(UNAUTHENTICATED);
  });

  it('accepts a valid assertion for itself and acts for the caller it names', async () => {
    const { caller, check } = svc();
    check(await send(withAssertion(await callerAssertion(caller, name))));
  });
});

describe('a call made on a user’s behalf (relay)', () => {
  it('orders places a purchase with the buyer’s assertion, relayed to wallet; wallet refuses it from anyone else', async () => {
    const created = (await call(
      s.addresses.catalog,
      catalogV1.CatalogServiceService,
      'createProduct',
      catalogV1.CreateProductRequest.fromPartial({
        name: 'Relay Radio',
        type: catalogV1.ProductType.PRODUCT_TYPE_EQUIPMENT,
        pricePaise: 20_000,
        description: 'Bought through a relayed assertion.',
        stock: 3,
      }),
      withAssertion(await callerAssertion(maker, 'catalog')),
    )) as catalogV1.CreateProductResponse;
    const forOrders = await callerAssertion(army, 'orders');
    const order = (await call(
      s.addresses.orders,
      ordersV1.OrdersServiceService,
      'createOrder',
      ordersV1.CreateOrderRequest.fromPartial({
        productId: created.product!.id,
        quantity: 1,
        totalPaise: 20_000,
        idempotencyKey: uniqueName('relay', '-'),
      }),
      withAssertion(forOrders),
    )) as ordersV1.CreateOrderResponse;
    expect(order.order).toMatchObject({
      buyerId: army.userId,
      status: ordersV1.OrderStatus.ORDER_STATUS_COMPLETED,
    });

    // The assertion orders relayed, presented to the wallet by a client without orders' proof.
    const wallet = (md: Metadata) =>
      call(s.addresses.wallet, walletV1.WalletServiceService, 'getWallet', {}, md);
    await expect(wallet(withAssertion(forOrders))).rejects.toMatchObject(UNAUTHENTICATED);
    await expect(wallet(asService('catalog', withAssertion(forOrders)))).rejects.toMatchObject(
      UNAUTHENTICATED,
    );
    // With orders' proof it is the relay the purchase made: the buyer's wallet, less the price.
    expect(await wallet(asService('orders', withAssertion(forOrders)))).toMatchObject({
      wallet: { userId: army.userId, balancePaise: 500_000 - 20_000 },
    });
  });
});
