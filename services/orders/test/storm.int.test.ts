import { ORDER_MESSAGES, parseRupees } from '@qm/contracts/rest';

import type { Browser } from '@qm/testkit/src/identity-stack';
import { checkSystem, type SystemDbs } from '../../../load/system/check';
import { inBatches, type OrdersStack, startOrdersStack } from './stack';

/**
 * The last-item storm (docs/adr/010): 200 concurrent purchases of a product with 5 in stock by 40
 * funded buyers, through the real gateway, orders, catalog and wallet. eShop's basket checks stock
 * without reserving it and oversells here; the saga must sell exactly 5.
 */
jest.setTimeout(240_000);

const BUYERS = 40;
const ATTEMPTS = 200;
const STOCK = 5;

const paise = (text: string) => {
  const m = parseRupees(text);
  if (!m.ok) throw new Error(`not money: ${text}`);
  return m.paise;
};

describe('orders: the last-item storm', () => {
  let s: OrdersStack;
  let maker: Browser;
  let buyers: Browser[];

  beforeAll(async () => {
    s = await startOrdersStack();
    maker = (await s.user('Manufacturer')).as;
    buyers = (await inBatches(BUYERS, 8, () => s.user('Army', 5000))).map((u) => u.as);
  }, 200_000);
  afterAll(() => s?.stop());

  const balances = async (b: Browser) => {
    const w = (await b.get('/api/wallet')).body;
    return { balance: paise(w.balance), held: paise(w.heldBalance), proceeds: paise(w.proceedsOnHold) };
  };

  it('sells exactly the stock: 5 completed, stock 0 and never below, debits = credits, nothing left held', async () => {
    const created = await maker.post('/api/products', {
      name: 'Last Rifles',
      type: 'Weapon',
      price: '1000.00',
      description: 'Five left',
      stock: STOCK,
    });
    expect(created.status).toBe(201);
    const productId = created.body.id as number;
    const before = await Promise.all(buyers.map(balances));
    const products = s.catalog.rt.conn.collection('products');

    // Watch the stock while the storm runs: it must never be seen below zero.
    let lowest = STOCK;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const p = await products.findOne({ id: productId });
        lowest = Math.min(lowest, p!.stock as number);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    const started = Date.now();
    // All 200 at once, five per buyer. A purchase the gateway gave up on (504) is an unknown outcome,
    // as in Jepsen's bank test: its saga goes on, and the orders below say how it ended.
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        buyers[i % BUYERS]!.post('/api/orders', { productId, quantity: 1, totalPrice: '1000.00' }),
      ),
    );
    const elapsed = Date.now() - started;

    const ok = answers.filter((a) => a.status === 201);
    const unknown = answers.filter((a) => a.status === 504);
    const refused = answers.filter((a) => a.status !== 201 && a.status !== 504);
    expect(ok.length).toBeLessThanOrEqual(STOCK);
    expect(ok.every((a) => a.body.status === 'completed' && a.body.paymentStatus === 'paid')).toBe(true);
    // Every other answered attempt is told the stock ran out (before or during its saga).
    expect(refused.map((a) => [a.status, a.body.message])).toEqual(
      refused.map(() => [409, ORDER_MESSAGES.insufficientStock]),
    );
    expect(ok.length + refused.length + unknown.length).toBe(ATTEMPTS);
    expect(elapsed).toBeLessThan(120_000);

    // Every order ends (the unknown ones too) before the stock is judged.
    const orderDocs = s.orders.rt.conn.collection('orders');
    for (
      let waited = 0;
      (await orderDocs.countDocuments({ productId, status: 'pending' })) > 0;
      waited += 250
    ) {
      if (waited > 90_000) throw new Error('orders still pending 90 s after the storm');
      await new Promise((r) => setTimeout(r, 250));
    }
    watching = false;
    await watcher;

    expect((await products.findOne({ id: productId }))!.stock).toBe(0);
    expect(lowest).toBeGreaterThanOrEqual(0);

    // Orders: 5 completed and paid, every other one cancelled with nothing paid, none left pending.
    const orders = await orderDocs.find({ productId }).toArray();
    // Attempts refused up front, once the stock reads 0, make no order at all.
    expect(orders.length).toBeLessThanOrEqual(ATTEMPTS);
    const completed = orders.filter((o) => o.status === 'completed');
    expect(completed).toHaveLength(STOCK);
    expect(completed.every((o) => o.paymentStatus === 'paid')).toBe(true);
    expect(orders.filter((o) => o.status === 'pending')).toHaveLength(0);
    const cancelled = orders.filter((o) => o.status === 'cancelled');
    expect(cancelled.every((o) => o.paymentStatus === 'failed')).toBe(true);

    // The wallet: exactly one posted payment per completed order, no other hold posted or still held.
    const holds = await s.wallet.rt.conn
      .collection('transfers')
      .find({ key: { $in: orders.map((o) => `hold:${o.reference}`) } })
      .toArray();
    const byKey = new Map(holds.map((t) => [t.key as string, t.state as string]));
    for (const o of completed) expect(byKey.get(`hold:${o.reference}`)).toBe('posted');
    for (const o of cancelled)
      expect(['voided', 'failed', undefined]).toContain(byKey.get(`hold:${o.reference}`));

    // Money: what the buyers paid is what the seller got, to the paisa (in escrow for the refund
    // window, docs/adr/028); no buyer's funds stay held.
    const after = await Promise.all(buyers.map(balances));
    const debited = before.reduce((sum, b, i) => sum + b.balance - after[i]!.balance, 0);
    expect(after.every((b) => b.held === 0)).toBe(true);
    expect(debited).toBe(STOCK * 1000_00);
    expect(await balances(maker)).toEqual({ balance: 0, held: 0, proceeds: STOCK * 1000_00 });

    // And the whole system agrees: ledger, stock supplied = stock + sold, one payment per order.
    const report = await checkSystem({
      wallet: s.wallet.rt.conn.db!,
      catalog: s.catalog.rt.conn.db!,
      orders: s.orders.rt.conn.db!,
    } as unknown as SystemDbs);
    expect(report.breaks).toEqual([]);
    expect(report).toMatchObject({ unitsSold: STOCK, orders: { completed: STOCK, pending: 0 } });
  });
});
