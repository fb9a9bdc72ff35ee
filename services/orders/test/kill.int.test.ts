import { walletV1 } from '@qm/contracts/grpc';
import { createClient } from '@qm/platform';
import { eventually, INFRA, testCallerSigner } from '@qm/testkit';
import type { Browser } from '@qm/testkit/src/identity-stack';
import { MongoClient } from 'mongodb';
import { checkSystem, type SystemDbs } from '../../../load/system/check';
import { INTERNAL_TOKEN, type Killable, type ProcessStack, startProcessStack } from './stack';

/**
 * Crashes (docs/adr/010, 043): each of orders, wallet and catalog, as a real process, is killed
 * (SIGKILL) while purchases are mid-saga — reserved, not yet paid — and started again. Every order
 * must end completed or cancelled before its deadline plus a sweep, and the system check must hold
 * after. Orders pause before the payment (ORDERS_PAUSE_BEFORE_PAYMENT_MS) so the kill lands inside
 * the saga.
 */
jest.setTimeout(120_000);

const PAUSE_MS = 3_000;
const HOLD_TIMEOUT_S = 45;
const BUYERS = 3;

interface OrderDoc {
  id: number;
  reference: string;
  buyerId: number;
  sellerId: number;
  totalPaise: number;
  refundableUntil: Date;
  paymentStatus: string;
  productId: number;
  status: string;
  step: string;
  deadlineAt: Date;
  updatedAt: Date;
}

describe('purchases survive a killed process', () => {
  let s: ProcessStack;
  let client: MongoClient;
  let dbs: SystemDbs;
  let maker: Browser;
  let buyers: Browser[];

  beforeAll(async () => {
    s = await startProcessStack({
      orders: {
        ORDERS_PAUSE_BEFORE_PAYMENT_MS: String(PAUSE_MS),
        ORDERS_HOLD_TIMEOUT_SECONDS: String(HOLD_TIMEOUT_S),
      },
    });
    maker = (await s.user('Manufacturer')).as;
    buyers = [];
    for (let i = 0; i < BUYERS; i++) buyers.push((await s.user('Army', 5_000)).as);
    client = await MongoClient.connect(INFRA.MONGO_URL);
    dbs = {
      wallet: client.db(s.dbs.wallet),
      catalog: client.db(s.dbs.catalog),
      orders: client.db(s.dbs.orders),
    };
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await s?.stop();
  });

  const ordersOf = (productId: number) =>
    dbs.orders.collection<OrderDoc>('orders').find({ productId }).toArray();

  /** A new 10-unit product at ₹1,000.00, listed by the maker; answers its id. */
  async function listRadio(): Promise<number> {
    const created = await maker.post('/api/products', {
      name: 'Field Radio',
      type: 'Equipment',
      price: '1000.00',
      description: 'VHF, 5 W',
      stock: 10,
    });
    expect(created.status).toBe(201);
    return created.body.id as number;
  }

  /** Every buyer buys one unit of a new product; resolves once all are reserved and paused before paying. */
  async function purchasesMidSaga() {
    const productId = await listRadio();
    const requests = buyers.map((b) =>
      b.post('/api/orders', { productId, quantity: 1, totalPrice: '1000.00' }).catch(() => undefined),
    );
    await eventually(async () => {
      const orders = await ordersOf(productId);
      return orders.length === BUYERS && orders.every((o) => o.step === 'hold');
    }, 30_000);
    return { productId, requests };
  }

  async function expectAllEnded(productId: number) {
    const orders = await ordersOf(productId);
    // The sweeper's bound: the deadline (the hold's timeout) plus a sweep; ours sweeps every 0.5 s.
    const bound = Math.max(...orders.map((o) => new Date(o.deadlineAt).getTime())) + 5_000;
    const ended = await eventually(async () => {
      const now = await ordersOf(productId);
      return now.every((o) => o.status !== 'pending') && now;
    }, bound - Date.now());
    for (const o of ended) {
      expect(['completed', 'cancelled']).toContain(o.status);
      expect(new Date(o.updatedAt).getTime()).toBeLessThanOrEqual(bound);
    }
    const report = await checkSystem(dbs);
    expect(report.breaks).toEqual([]);
    return ended.map((o) => o.status);
  }

  it.each<[Killable, string]>([
    ['wallet', 'about to take the buyers’ payments'],
    ['catalog', 'holding the reserved stock'],
  ])('%s killed %s: the restarted service lets every order end, the system holds', async (name) => {
    const { productId, requests } = await purchasesMidSaga();
    await s.kill(name);
    // Orders finds its partner gone after the pause: the orders wait at their step, nothing is lost.
    await new Promise((r) => setTimeout(r, PAUSE_MS + 500));
    expect((await ordersOf(productId)).map((o) => o.status)).toEqual(Array(BUYERS).fill('pending'));
    await s.start(name);
    expect(await expectAllEnded(productId)).toEqual(Array(BUYERS).fill('completed'));
    await Promise.all(requests);
  });

  it('orders killed mid-purchase under an Idempotency-Key: a retry answers that order at once, places no second', async () => {
    const productId = await listRadio();
    const body = { productId, quantity: 1, totalPrice: '1000.00' };
    const key = { 'idempotency-key': `kill-retry-${productId}` };
    const first = buyers[0]!.request('POST', '/api/orders', body, key).catch(() => undefined);
    await eventually(async () => (await ordersOf(productId)).some((o) => o.step === 'hold'), 30_000);
    await s.kill('orders');
    await s.start('orders'); // with its pause: the next test needs it
    expect(await expectAllEnded(productId)).toEqual(['completed']);
    await first;
    // The order is the key's record (docs/adr/045): nothing of the dead process's is left to wait out.
    const retry = await buyers[0]!.request('POST', '/api/orders', body, key);
    const orders = await ordersOf(productId);
    expect(orders).toHaveLength(1);
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(orders[0]!.id);
    expect((await checkSystem(dbs)).breaks).toEqual([]);
  });

  it('orders killed after paying, before recording it: the restarted sweeper completes the order, paid once', async () => {
    const productId = await listRadio();
    const request = buyers[0]!
      .post('/api/orders', { productId, quantity: 1, totalPrice: '1000.00' })
      .catch(() => undefined);
    await eventually(async () => (await ordersOf(productId)).some((o) => o.step === 'hold'), 30_000);
    await s.kill('orders');
    // The killed process's next call, made as it: the payment made, the order still at `hold` (the
    // saga records it only with the order's end, docs/adr/010, 043).
    const [order] = await ordersOf(productId);
    const wallet = createClient(walletV1.WalletServiceService, `127.0.0.1:${s.ports.wallet}`, {
      identity: { service: 'orders', token: INTERNAL_TOKEN },
      signer: testCallerSigner,
    });
    try {
      await wallet.paySale({
        sale: {
          reference: order!.reference,
          debitUserId: order!.buyerId,
          creditUserId: order!.sellerId,
          amountPaise: order!.totalPaise,
          description: 'Field Radio',
          releaseAt: new Date(order!.refundableUntil).toISOString(),
        },
      });
    } finally {
      wallet.close();
    }
    await s.start('orders'); // with its pause: the next test needs it
    expect(await expectAllEnded(productId)).toEqual(['completed']);
    expect((await ordersOf(productId))[0]).toMatchObject({ step: 'done', paymentStatus: 'paid' });
    expect((await maker.get(`/api/products/${productId}`)).body.stock).toBe(9);
    await request;
  });

  it('orders killed: the restarted service’s sweeper finishes every order, the system holds', async () => {
    const { productId, requests } = await purchasesMidSaga();
    await s.kill('orders');
    // Each was reserved and none paid yet: the restarted sweeper pays for them.
    const keys = (await ordersOf(productId)).map((o) => `hold:${o.reference}`);
    expect(await dbs.wallet.collection('transfers').countDocuments({ key: { $in: keys } })).toBe(0);
    await s.start('orders', { ORDERS_PAUSE_BEFORE_PAYMENT_MS: '0' });
    expect(await expectAllEnded(productId)).toEqual(Array(BUYERS).fill('completed'));
    expect((await maker.get(`/api/products/${productId}`)).body.stock).toBe(10 - BUYERS);
    await Promise.all(requests);
  });
});
