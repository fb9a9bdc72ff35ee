import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { INFRA, uniqueName } from '@qm/testkit';
import { type Db, MongoClient } from 'mongodb';
import { type OrdersStack, startOrdersStack } from '../../services/orders/test/stack';
import { checkSystem, type SystemBreakKind, type SystemDbs, systemLines } from '../system/check';

jest.setTimeout(120_000);

/**
 * `npm run system:check` (docs/adr/010) on a small system made through the real gateway, identity,
 * catalog, wallet and orders: a completed purchase, one cancelled for want of funds, a restock.
 * Each break is then written into a throwaway copy of the three databases, which the check must name.
 */
const ROOT = path.join(__dirname, '../..');
const SERVICES = ['wallet', 'catalog', 'orders'] as const;
let s: OrdersStack;
let client: MongoClient;
let seeded: Record<(typeof SERVICES)[number], string>;
let ids: { product: number; completed: number; cancelled: number };
const copies: Db[] = [];

beforeAll(async () => {
  s = await startOrdersStack();
  const maker = await s.user('Manufacturer');
  const army = await s.user('Army', 5_000);
  const poor = await s.user('Army', 100);
  const created = await maker.as.post('/api/products', {
    name: 'Field Radio',
    type: 'Equipment',
    price: '1000.00',
    description: 'VHF, 5 W',
    stock: 10,
  });
  expect(created.status).toBe(201);
  const product = created.body.id as number;
  const bought = await army.as.post('/api/orders', {
    productId: product,
    quantity: 2,
    totalPrice: '2000.00',
  });
  expect(bought.body).toMatchObject({ status: 'completed' });
  const refused = await poor.as.post('/api/orders', {
    productId: product,
    quantity: 1,
    totalPrice: '1000.00',
  });
  // Refused with "Insufficient wallet balance": the order is kept, cancelled.
  expect(refused.status).toBe(409);
  const cancelled = await s.orders.rt.conn.collection('orders').findOne({ status: 'cancelled' });
  // The owner sets the stock to 20 after the sale: 22 supplied in all.
  const { version } = (await maker.as.get(`/api/products/${product}`)).body as { version: number };
  expect((await maker.as.patch(`/api/products/${product}`, { stock: 20, version })).status).toBe(200);

  ids = { product, completed: bought.body.id, cancelled: cancelled!.id as number };
  seeded = { wallet: s.wallet.rt.conn.name, catalog: s.catalog.rt.conn.name, orders: s.orders.rt.conn.name };
  client = await MongoClient.connect(INFRA.MONGO_URL);
}, 120_000);

afterAll(async () => {
  for (const db of copies) await db.dropDatabase().catch(() => undefined);
  await client?.close();
  await s?.stop();
});

/** A throwaway copy of the seeded system's three databases. */
async function copy(): Promise<SystemDbs> {
  const dbs = {} as SystemDbs;
  for (const service of SERVICES) {
    const from = client.db(seeded[service]);
    const to = client.db(uniqueName(`qm_system_check_${service}`));
    copies.push(to);
    for (const { name } of await from.listCollections({}, { nameOnly: true }).toArray()) {
      const docs = await from.collection(name).find({}).toArray();
      if (docs.length) await to.collection(name).insertMany(docs);
    }
    dbs[service] = to;
  }
  return dbs;
}

const kinds = async (dbs: SystemDbs) =>
  [...new Set((await checkSystem(dbs)).breaks.map((b) => b.kind))].sort();

function runCli(dbs: SystemDbs) {
  const args = SERVICES.flatMap((service) => [`--${service}-db`, dbs[service].databaseName]);
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'load/system-check.ts', '--mongo-url', INFRA.MONGO_URL, ...args],
    { cwd: ROOT },
  ).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
}

describe('system:check', () => {
  it('passes the system the services made, and says what it counted', async () => {
    const live = {
      wallet: s.wallet.rt.conn.db!,
      catalog: s.catalog.rt.conn.db!,
      orders: s.orders.rt.conn.db!,
    };
    const report = await checkSystem(live as unknown as SystemDbs);
    expect(report.breaks).toEqual([]);
    expect(report).toMatchObject({
      products: 1,
      productsUnchecked: 0,
      unitsSold: 2,
      orders: { completed: 1, cancelled: 1, pending: 0 },
    });
    expect(systemLines(report)).toEqual([
      expect.stringMatching(
        /^system-check: OK — \d+ accounts, \d+ entries summing to ₹0\.00; 1 products, 2 units sold; 1 completed, 1 cancelled, 0 pending, 0 refunded orders/,
      ),
    ]);
  });

  it('exits 0 with the OK line, and 1 with every break listed, as `npm run system:check`', async () => {
    const dbs = await copy();
    expect(await runCli(dbs)).toEqual({ code: 0, stdout: expect.stringMatching(/^system-check: OK — /) });
    await dbs.catalog.collection('products').updateOne({ id: ids.product }, { $inc: { stock: 1 } });
    await dbs.orders.collection('orders').deleteOne({ id: ids.cancelled });
    await dbs.orders
      .collection('orders')
      .updateOne(
        { id: ids.completed },
        { $set: { status: 'pending', deadlineAt: new Date(Date.now() - 120_000) } },
      );
    const broken = await runCli(dbs);
    expect(broken.code).toBe(1);
    expect(broken.stdout.trim().split('\n')).toEqual([
      'system-check: 2 breaks',
      `  stock-supplied: product ${ids.product}: stock 21 + 2 sold ≠ 22 supplied by its manufacturer`,
      expect.stringMatching(
        new RegExp(
          `^  order-overdue: order ${ids.completed} \\(pending\\) at step done, 1[12]\\d s past its deadline$`,
        ),
      ),
    ]);
  });

  it('holds at any instant of a saga: stock taken by a reservation not yet committed counts', async () => {
    const dbs = await copy();
    // The completed purchase as it stood between reserving its stock and marking the reservation.
    await dbs.orders
      .collection('orders')
      .updateOne(
        { id: ids.completed },
        { $set: { status: 'pending', step: 'commit', deadlineAt: new Date(Date.now() + 60_000) } },
      );
    await dbs.catalog
      .collection('stock_reservations')
      .updateOne({ _id: `order-${ids.completed}` as never }, { $set: { state: 'pending' } });
    expect(await kinds(dbs)).toEqual([]);
    // Without the product's record of the movement, that reservation took nothing: 2 units unaccounted.
    await dbs.catalog
      .collection<{ id: number; movements: string[] }>('products')
      .updateOne({ id: ids.product }, { $pull: { movements: `reserve:order-${ids.completed}` } });
    expect(await kinds(dbs)).toEqual(['stock-supplied']);
  });

  const payment = (dbs: SystemDbs, id: number) =>
    dbs.wallet.collection('transfers').updateOne({ key: `hold:order-${id}` }, { $set: { state: 'posted' } });

  const breaks: [string, SystemBreakKind[], (dbs: SystemDbs) => Promise<unknown>][] = [
    [
      'a stock below zero',
      ['negative-stock', 'stock-supplied'],
      (dbs) => dbs.catalog.collection('products').updateOne({ id: ids.product }, { $set: { stock: -1 } }),
    ],
    [
      'stock appearing from nowhere',
      ['stock-supplied'],
      (dbs) => dbs.catalog.collection('products').updateOne({ id: ids.product }, { $inc: { stock: 3 } }),
    ],
    [
      "a completed order's reservation released (its units back on sale)",
      ['order-stock', 'stock-supplied'],
      (dbs) =>
        dbs.catalog
          .collection('stock_reservations')
          .updateOne({ _id: `order-${ids.completed}` as never }, { $set: { state: 'released' } }),
    ],
    [
      'a completed order whose payment was voided',
      ['order-payment'],
      (dbs) =>
        dbs.wallet
          .collection('transfers')
          .updateOne({ key: `hold:order-${ids.completed}` }, { $set: { state: 'voided' } }),
    ],
    [
      'a completed order paid the wrong amount',
      ['order-payment'],
      (dbs) => dbs.orders.collection('orders').updateOne({ id: ids.completed }, { $inc: { totalPaise: 1 } }),
    ],
    ['a cancelled order whose payment was posted', ['order-payment'], (dbs) => payment(dbs, ids.cancelled)],
    [
      'money and stock taken for an order that does not exist',
      ['order-payment', 'order-stock'],
      (dbs) => dbs.orders.collection('orders').deleteOne({ id: ids.completed }),
    ],
    [
      'an order still in its saga a minute after its deadline',
      ['order-overdue'],
      async (dbs) => {
        const orders = dbs.orders.collection('orders');
        const o = (await orders.findOne({ id: ids.cancelled }))!;
        const pending = { status: 'pending', step: 'hold', paymentStatus: 'pending' };
        // One just past its deadline is the sweeper's to end; one past it by a minute is a break.
        await orders.insertOne({
          ...o,
          _id: 9_001 as never,
          id: 9_001,
          reference: 'order-9001',
          ...pending,
          deadlineAt: new Date(Date.now() - 30_000),
        });
        await orders.insertOne({
          ...o,
          _id: 9_002 as never,
          id: 9_002,
          reference: 'order-9002',
          ...pending,
          deadlineAt: new Date(Date.now() - 61_000),
        });
      },
    ],
    [
      "a ledger break (the wallet's own check)",
      ['balance-entries'],
      (dbs) =>
        dbs.wallet
          .collection('accounts')
          .updateOne({ kind: 'user', balance: { $gt: 0 } }, { $inc: { balance: 1, available: 1 } }),
    ],
  ];

  it.each(breaks)('names %s', async (_what, expected, corrupt) => {
    const dbs = await copy();
    expect(await kinds(dbs)).toEqual([]);
    await corrupt(dbs);
    expect(await kinds(dbs)).toEqual([...expected].sort());
  });
});

describe('system:check on escrows and refunds (docs/adr/028)', () => {
  const breaks: [string, SystemBreakKind[], (dbs: SystemDbs) => Promise<unknown>][] = [
    [
      'a completed order paid to its seller directly though it has a refund window (no escrow)',
      ['order-payment'],
      async (dbs) => {
        const o = (await dbs.orders.collection('orders').findOne({ id: ids.completed }))!;
        await dbs.wallet
          .collection('transfers')
          .updateOne(
            { key: `hold:order-${ids.completed}` },
            { $set: { creditAccount: `user:${o.sellerId}` } },
          );
      },
    ],
    [
      'nothing, for an order placed before escrows paid to its seller directly',
      [],
      async (dbs) => {
        const o = (await dbs.orders.collection('orders').findOne({ id: ids.completed }))!;
        await dbs.orders
          .collection('orders')
          .updateOne({ id: ids.completed }, { $unset: { refundableUntil: '' } });
        await dbs.wallet
          .collection('transfers')
          .updateOne(
            { key: `hold:order-${ids.completed}` },
            { $set: { creditAccount: `user:${o.sellerId}` } },
          );
      },
    ],
    [
      'an order marked refunded with no refund paid and its units still sold',
      ['order-refund', 'order-stock'],
      (dbs) =>
        dbs.orders.collection('orders').updateOne({ id: ids.completed }, { $set: { status: 'refunded' } }),
    ],
  ];

  it.each(breaks)('names %s', async (_what, expected, corrupt) => {
    const dbs = await copy();
    expect(await kinds(dbs)).toEqual([]);
    await corrupt(dbs);
    expect(await kinds(dbs)).toEqual([...expected].sort());
  });
});
