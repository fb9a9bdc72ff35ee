import { randomInt } from 'node:crypto';
import { catalogService } from '@qm/catalog/src/service';
import { catalogV1 } from '@qm/contracts/grpc';
import { ACTIVITY_SUBJECT, type OrderEndedData } from '@qm/contracts/events';
import { ORDER_MESSAGES } from '@qm/contracts/rest';
import {
  connectBus,
  connectMongo,
  createClient,
  createIdempotency,
  createOutbox,
  ensureIndexes,
  type EventBus,
  type EventEnvelope,
  newRequestId,
  openStoreEngine,
  type Outbox,
  type RunningService,
  runWithContext,
  startService,
  type StoreEngine,
} from '@qm/platform';
import { STREAMS } from '@qm/roster';
import {
  callerAssertion,
  INFRA,
  serviceTestEnv,
  streamMessages,
  testCallerSigner,
  testLog,
  uniqueName,
} from '@qm/testkit';
import { createLedger } from '@qm/wallet/src/app/ledger';
import { escrowAccount, providerAccount, userAccount } from '@qm/wallet/src/domain/ledger';
import { walletService } from '@qm/wallet/src/service';
import { createAccountStore } from '@qm/wallet/src/store/accounts';
import { createEntryStore } from '@qm/wallet/src/store/entries';
import { createHistoryStore } from '@qm/wallet/src/store/history';
import { createTransferStore } from '@qm/wallet/src/store/transfers';
import type { Connection } from 'mongoose';
import { grpcPartners, type Partners } from '../src/app/partners';
import { createPurchases } from '../src/app/purchases';
import { createSaga } from '../src/app/saga';
import { createSweeper } from '../src/app/sweeper';
import type { UserFacts } from '../src/domain/order';
import { confirmer } from '../src/events/orders-events';
import { createOrderStore, type OrderStore } from '../src/store/orders';

/**
 * docs/adr/025: the orders saga sweeper runs on every replica. Two replicas (their own database
 * and NATS connections, stores, outboxes and partner clients) sweep the same purchases, left
 * mid-saga by a process that died at every step, four passes at once: each order ends once, with
 * one stock movement in catalog, one money movement in the wallet and one event.
 */
jest.setTimeout(240_000);

const log = testLog('orders-sweeper-replicas');
const INTERNAL_TOKEN = 'internal-token-for-the-orders-replica-tests-0123456789';
const PRICE = 100_00;
const STOCK = 100;
const FUNDS = 10_000_00;
const base = 30_000_000 + randomInt(0, 60_000_000);
const buyer: UserFacts = {
  id: base + 1,
  username: 'sepoy',
  firstName: 'Ram',
  lastName: 'Singh',
  email: 'sepoy@example.test',
  phoneNumber: '',
  role: 'Army',
  status: 'approved',
  isAdmin: false,
};
const seller: UserFacts = { ...buyer, id: base + 2, username: 'maker', role: 'Manufacturer' };

/** Where the first process died: after a partner took the step, before the order recorded it. */
type Crash = 'reserve' | 'pay' | 'commit' | 'wallet-down';
const CRASHES: Crash[] = ['reserve', 'pay', 'commit', 'wallet-down'];

/** The partners of a process that dies at `at` (identity answers from here: no identity runs). */
function dying(p: Partners, at: Crash): Partners {
  const lost =
    <A extends unknown[]>(step: (...a: A) => Promise<void>) =>
    async (...a: A) => {
      await step(...a);
      throw new Error('process died');
    };
  return {
    ...p,
    user: async (id) => [buyer, seller].find((u) => u.id === id) ?? null,
    ...(at === 'reserve' && { reserve: lost(p.reserve) }),
    ...(at === 'pay' && { pay: lost(p.pay) }),
    ...(at === 'commit' && { commit: lost(p.commit) }),
    ...(at === 'wallet-down' && { pay: () => Promise.reject(new Error('wallet unreachable')) }),
  };
}

interface Replica {
  conn: Connection;
  engine: StoreEngine;
  bus: EventBus;
  orders: OrderStore;
  outbox: Outbox;
  partners: Partners;
}

describe("two orders replicas' sweepers over the same stuck purchases", () => {
  let catalog: RunningService<unknown>;
  let wallet: RunningService<unknown>;
  let walletConn: Connection;
  let one: Replica;
  let two: Replica;
  let productId: number;
  const ordersDb = uniqueName('qm_test_orders_replicas');

  async function replica(): Promise<Replica> {
    const conn = await connectMongo(INFRA.MONGO_URL, ordersDb);
    const engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
    const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'orders-replica', log });
    await bus.ensureStreams(STREAMS);
    const orders = createOrderStore(conn);
    await ensureIndexes(conn);
    const outbox = createOutbox({ conn, bus, log, confirm: confirmer(orders) });
    const partners = grpcPartners({
      // The sweep asks no one about users.
      users: { byId: () => Promise.reject(new Error('identity is not part of this test')) },
      catalog: `127.0.0.1:${catalog.port}`,
      wallet: `127.0.0.1:${wallet.port}`,
      token: INTERNAL_TOKEN,
      deadlineMs: 20_000,
    });
    return { conn, engine, bus, orders, outbox, partners };
  }

  beforeAll(async () => {
    catalog = (await startService(
      catalogService,
      serviceTestEnv(uniqueName('qm_test_orders_replicas_catalog'), {
        GRPC_PORT: '0',
        INTERNAL_TOKEN,
        CATALOG_USER_DELETED_DURABLE: uniqueName('orders_replicas_catalog'),
      }),
    )) as RunningService<unknown>;
    const walletDb = uniqueName('qm_test_orders_replicas_wallet');
    wallet = (await startService(
      walletService,
      serviceTestEnv(walletDb, {
        GRPC_PORT: '0',
        INTERNAL_TOKEN,
        IDENTITY_GRPC_ADDR: '127.0.0.1:9',
        WALLET_PROVIDER: 'sandbox',
        WALLET_WEBHOOK_URL: 'http://127.0.0.1:9/unused',
        WALLET_USER_APPROVED_DURABLE: uniqueName('orders_replicas_wallet'),
        WALLET_USER_CLOSED_DURABLE: uniqueName('orders_replicas_wallet_closed'),
      }),
    )) as RunningService<unknown>;
    one = await replica();
    two = await replica();

    // The seller's product, through catalog's API.
    const client = createClient(catalogV1.CatalogServiceService, `127.0.0.1:${catalog.port}`, {
      signer: testCallerSigner,
    });
    const maker = { userId: seller.id, username: seller.username, roles: ['Manufacturer'] };
    const { product } = await runWithContext({ requestId: newRequestId(), caller: maker }, () =>
      client.createProduct({
        name: 'Field Radio',
        type: catalogV1.ProductType.PRODUCT_TYPE_EQUIPMENT,
        description: 'VHF, 5 W',
        pricePaise: PRICE,
        stock: STOCK,
      }),
    );
    client.close();
    productId = product!.id;

    // The buyer's money: a top-up straight on the wallet's ledger.
    walletConn = await connectMongo(INFRA.MONGO_URL, walletDb);
    const stores = {
      accounts: createAccountStore(walletConn),
      transfers: createTransferStore(walletConn),
      entries: createEntryStore(walletConn),
      history: createHistoryStore(walletConn),
    };
    await stores.accounts.ensure(providerAccount('test'));
    await stores.accounts.ensure(userAccount(buyer.id), buyer.id, buyer.username);
    await createLedger({ ...stores, log }).transfer({
      key: `topup:test:${base}`,
      kind: 'topup',
      debit: providerAccount('test'),
      credit: userAccount(buyer.id),
      amount: FUNDS,
      description: 'funds',
      history: [],
    });
  });

  afterAll(async () => {
    for (const r of [one, two]) {
      if (!r) continue;
      await r.outbox.stop();
      r.partners.close();
      await r.bus.close();
      await r.engine.close();
    }
    await one?.conn.dropDatabase().catch(() => undefined);
    await one?.conn.close();
    await two?.conn.close();
    await walletConn?.close();
    for (const svc of [wallet, catalog]) {
      if (!svc) continue;
      await svc.rt.conn.dropDatabase().catch(() => undefined);
      await svc.stop();
    }
  });

  /** A purchase through the real use case on replica one, whose process dies at `crash`. */
  async function purchase(crash: Crash, quantity: number, holdTimeoutSeconds: number) {
    const idempotency = createIdempotency({
      conn: one.conn,
      messages: {
        inProgress: ORDER_MESSAGES.idempotencyInProgress,
        mismatch: ORDER_MESSAGES.idempotencyMismatch,
      },
    });
    const caller = { userId: buyer.id, username: buyer.username, roles: ['Army'] };
    const partners = dying(one.partners, crash);
    const saga = createSaga({ orders: one.orders, partners, outbox: one.outbox, log, holdTimeoutSeconds });
    const purchases = createPurchases({
      orders: one.orders,
      partners,
      saga,
      refundWindowMs: 48 * 3_600_000,
      idempotency,
      holdTimeoutSeconds,
    });
    // As the request arrives from the gateway: the buyer's signed assertion, relayed to partners.
    const assertion = await callerAssertion(caller, 'orders');
    return runWithContext({ requestId: newRequestId(), caller, assertion }, () =>
      purchases.create(caller, { productId, quantity, totalPaise: quantity * PRICE, idempotencyKey: '' }),
    );
  }

  const sweeper = (r: Replica) =>
    createSweeper({
      orders: r.orders,
      saga: createSaga({ ...r, log, holdTimeoutSeconds: 600 }),
      log,
      graceMs: 0,
    });

  const endEvents = async (ids: number[]) =>
    (await streamMessages<EventEnvelope<OrderEndedData>>(one.bus, 'QM_ORDERS')).filter((e) =>
      ids.includes(e.data.id),
    );
  /** The orders of every order_place activity in the stream. */
  const placedActivities = async () =>
    (await streamMessages<EventEnvelope<{ action: string; details: string }>>(one.bus, 'QM_ACTIVITY'))
      .filter((e) => e.type === ACTIVITY_SUBJECT && e.data.action === 'order_place')
      .map((e) => Number(/^Order #(\d+):/.exec(e.data.details)?.[1]));

  it('resolve each exactly once: one outcome, one stock movement, one money movement, one event', async () => {
    // Twenty purchases through the real use case on replica one, each dying at a step; every
    // third one with a deadline of 2 s, which passes before the sweepers come.
    const placed: { id: number; crash: Crash; deadline: boolean; quantity: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const crash = CRASHES[i % CRASHES.length]!;
      const deadline = i % 3 === 0;
      const holdTimeoutSeconds = deadline ? 2 : 600;
      const quantity = 1 + (i % 2);
      const order = await purchase(crash, quantity, holdTimeoutSeconds);
      expect([order.status, order.step]).toEqual([
        'pending',
        { reserve: 'reserve', pay: 'hold', commit: 'commit', 'wallet-down': 'hold' }[crash],
      ]);
      placed.push({ id: order.id, crash, deadline, quantity });
    }
    await new Promise((r) => setTimeout(r, 2_500));

    const a = sweeper(one);
    const b = sweeper(two);
    // Both replicas' timers fire together, more than once; then again until nothing is pending.
    await Promise.all([a.sweep(), b.sweep(), a.sweep(), b.sweep()]);
    for (let round = 0; round < 5 && (await one.orders.pending()).length; round++)
      await Promise.all([a.sweep(), b.sweep()]);
    await Promise.all([one.outbox.relayOnce(), two.outbox.relayOnce()]);

    // One outcome each: paid ones complete; unpaid ones past their deadline are cancelled.
    const outcomes = await Promise.all(placed.map(async (p) => (await one.orders.get(p.id))!));
    expect(outcomes.map((o) => [o.id, o.status, o.step, o.paymentStatus])).toEqual(
      placed.map((p) => {
        const completes = !p.deadline || p.crash === 'pay' || p.crash === 'commit';
        return completes ? [p.id, 'completed', 'done', 'paid'] : [p.id, 'cancelled', 'done', 'failed'];
      }),
    );
    expect(outcomes.filter((o) => o.status === 'cancelled').map((o) => o.cancelReason)).toEqual(
      outcomes.filter((o) => o.status === 'cancelled').map(() => ORDER_MESSAGES.timedOut),
    );
    const completed = outcomes.filter((o) => o.status === 'completed');
    const sold = completed.reduce((s, o) => s + o.quantity, 0);
    const paid = completed.reduce((s, o) => s + o.totalPaise, 0);

    // One stock movement each: committed for a completed order, released (or never taken) otherwise.
    const reservations = catalog.rt.conn.collection<{ _id: string; state: string }>('stock_reservations');
    for (const o of outcomes) {
      const r = await reservations.findOne({ _id: o.reference });
      expect([o.id, r?.state ?? 'none']).toEqual([
        o.id,
        o.status === 'completed' ? 'committed' : expect.stringMatching(/^(released|expired|none)$/),
      ]);
    }
    const products = catalog.rt.conn.collection<{ id: number; stock: number }>('products');
    expect((await products.findOne({ id: productId }))!.stock).toBe(STOCK - sold);

    // One money movement each: the payment posted for a completed order, none otherwise.
    const accounts = createAccountStore(walletConn);
    const transfers = createTransferStore(walletConn);
    for (const o of outcomes) {
      const t = await transfers.byKey(`hold:${o.reference}`);
      expect([o.id, t?.state ?? 'none']).toEqual([
        o.id,
        o.status === 'completed' ? 'posted' : expect.stringMatching(/^(voided|expired|failed|none)$/),
      ]);
    }
    const [b1, s1] = await Promise.all([
      accounts.get(userAccount(buyer.id)),
      accounts.get(userAccount(seller.id)),
    ]);
    // The proceeds wait in each sale's escrow for the refund window (docs/adr/028).
    const held = await accounts.heldProceeds(seller.id);
    expect([b1!.balance, b1!.available, s1!.balance]).toEqual([FUNDS - paid, FUNDS - paid, 0]);
    expect(held.map((e) => e.reference).sort()).toEqual(completed.map((o) => o.reference).sort());
    expect(held.reduce((sum, e) => sum + e.available, 0)).toBe(paid);
    const entries = await walletConn
      .collection<{ account: string; amount: number }>('entries')
      .find({
        account: { $in: [userAccount(buyer.id), ...completed.map((o) => escrowAccount(o.reference))] },
      })
      .toArray();
    expect(entries.filter((e) => e.account.startsWith('escrow:')).length).toBe(completed.length);

    // One event each, saying how it ended; and the buyer's activity once per completed order.
    const ended = await endEvents(placed.map((p) => p.id));
    expect(ended.map((e) => [e.data.id, e.data.status]).sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual(
      outcomes.map((o) => [o.id, o.status]),
    );
    const activity = (await placedActivities())
      .filter((id) => placed.some((p) => p.id === id))
      .sort((x, y) => x - y);
    expect(activity).toEqual(completed.map((o) => o.id));
    expect(await one.conn.collection('outbox').countDocuments()).toBe(0);
  });

  it("publishes only the winner's end when the other replica loses the last step and dies before dropping its event", async () => {
    const order = await purchase('commit', 1, 600);
    // Replica two has read it mid-saga; replica one's sweeper ends it first.
    const stale = (await one.orders.get(order.id))!;
    await sweeper(one).sweep();
    expect((await one.orders.get(order.id))!.status).toBe('completed');
    // Its own relay's pass removes what it published (gathered otherwise, docs/adr/052).
    await one.outbox.relayOnce();
    // Replica two drives its stale copy: its end event goes into the outbox, its update finds the
    // order ended already, and its process dies before it drops that event.
    const diesAfterLosing: OrderStore = {
      ...two.orders,
      async advance(id, from, set) {
        const r = await two.orders.advance(id, from, set);
        if (set.step === 'done' && !r.moved) await new Promise(() => undefined);
        return r;
      },
    };
    void createSaga({ ...two, orders: diesAfterLosing, log, holdTimeoutSeconds: 600 }).drive(stale);
    const outbox = one.conn.collection('outbox');
    while ((await outbox.countDocuments()) < 2) await new Promise((r) => setTimeout(r, 20));

    // Both replicas' relays settle the dead process's entries (no grace: it is long gone).
    const relay = (r: Replica) =>
      createOutbox({ conn: r.conn, bus: r.bus, log, graceMs: 0, confirm: confirmer(r.orders) });
    await Promise.all([relay(one).relayOnce(), relay(two).relayOnce()]);
    expect(await outbox.countDocuments()).toBe(0);
    expect((await endEvents([order.id])).map((e) => e.data.status)).toEqual(['completed']);
    expect((await placedActivities()).filter((id) => id === order.id)).toEqual([order.id]);
  });
});
