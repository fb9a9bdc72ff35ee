import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { eventually } from '@qm/testkit';
import type { Browser, Registered } from '@qm/testkit/src/identity-stack';
import { releaseWindowOf } from '@qm/wallet/src/store/accounts';
import { checkSystem } from '../../../load/system/check';
import { createOrderStore } from '../src/store/orders';
import { listProduct, type OrdersStack, startOrdersStack } from './stack';

/**
 * Refunds through the real gateway, orders, wallet, catalog and identity (docs/adr/028): the buyer's
 * request and its rules, the administrators' decisions, the money and the stock each moves once,
 * and the sweeper finishing an approval a crash left half-done.
 */
jest.setTimeout(120_000);

describe('orders: refunds', () => {
  let s: OrdersStack;
  let as: Record<'maker' | 'army' | 'other', Browser>;
  let who: Record<'maker' | 'army' | 'other', Registered>;

  beforeAll(async () => {
    s = await startOrdersStack();
    ({ as, who } = await s.users({
      maker: ['Manufacturer', 0],
      army: ['Army', 20_000],
      other: ['Army', 1_000],
    }));
  }, 120_000);
  afterAll(() => s?.stop());

  const paise = (rupees: string) => Math.round(Number(rupees) * 100);
  const wallet = async (b: Browser) => (await b.get('/api/wallet')).body;
  const stockOf = async (id: number) => (await as.army.get(`/api/products/${id}`)).body.stock as number;
  const escrowOf = (orderId: number) =>
    s.wallet.rt.conn.collection('accounts').findOne({ _id: `escrow:order-${orderId}` as never });

  /** A completed purchase of 2 units at ₹100.00 by the Army buyer. */
  async function purchase(): Promise<{ orderId: number; productId: number }> {
    const productId = await listProduct(as.maker, {
      name: 'Ration Pack',
      price: '100.00',
      stock: 10,
      description: 'One day',
    });
    const res = await as.army.post('/api/orders', { productId, quantity: 2, totalPrice: '200.00' });
    expect(res.body).toMatchObject({ status: 'completed', refund: null });
    expect(Date.parse(res.body.refundableUntil)).toBeGreaterThan(Date.now() + 47 * 3_600_000);
    return { orderId: res.body.id, productId };
  }
  const request = (b: Browser, orderId: number, reason: unknown = 'Arrived damaged') =>
    b.post(`/api/orders/${orderId}/refund-request`, { reason });
  const decide = (orderId: number, body: Record<string, unknown>, b = s.admin) =>
    b.patch(`/api/admin/refunds/${orderId}`, body);

  it('the buyer asks once, within the window, with a reason; the proceeds stay held; nobody else may ask', async () => {
    const { orderId } = await purchase();
    expect(await request(as.army, orderId, '   ')).toMatchObject({
      status: 400,
      body: { message: MSG.refundReasonRequired },
    });
    expect(await request(as.army, orderId, 'x'.repeat(501))).toMatchObject({
      status: 400,
      body: { message: MSG.refundReasonTooLong },
    });
    // Someone else's order is not found, as when reading it.
    expect(await request(as.other, orderId)).toMatchObject({
      status: 404,
      body: { message: MSG.orderNotFound },
    });
    const first = await request(as.army, orderId);
    expect(first).toMatchObject({
      status: 201,
      body: { id: orderId, status: 'completed', refund: { status: 'requested', reason: 'Arrived damaged' } },
    });
    expect(await escrowOf(orderId)).toMatchObject({ frozen: true, balance: 200_00 });
    // The seller sees those proceeds held for the request, whatever their release time.
    const held = (await wallet(as.maker)).heldProceeds.find(
      (p: { reference: string }) => p.reference === `order-${orderId}`,
    );
    expect(held).toMatchObject({ amount: '200.00', refundRequested: true });
    expect(await request(as.army, orderId)).toMatchObject({
      status: 409,
      body: { message: MSG.refundAlreadyRequested },
    });
    const mine = (await as.army.get('/api/orders/purchased')).body.orders.find(
      (o: { id: number }) => o.id === orderId,
    );
    expect(mine.refund).toMatchObject({ status: 'requested', decisionReason: null, source: null });
  });

  it('after the window the request is refused with a message naming it', async () => {
    const { orderId } = await purchase();
    await s.orders.rt.conn
      .collection('orders')
      .updateOne({ _id: orderId as never }, { $set: { refundableUntil: new Date(Date.now() - 1_000) } });
    expect(await request(as.army, orderId)).toMatchObject({
      status: 400,
      body: { message: MSG.refundWindowClosed(48) },
    });
  });

  it('approved: the buyer is paid back from the escrow once, the units return to stock, the order is refunded', async () => {
    const { orderId, productId } = await purchase();
    const before = await wallet(as.army);
    const stock = await stockOf(productId);
    await request(as.army, orderId);
    expect(await decide(orderId, { decision: 'approved' }, as.army)).toMatchObject({ status: 403 });
    const approved = await decide(orderId, { decision: 'approved' });
    expect(approved).toMatchObject({
      status: 200,
      body: {
        status: 'refunded',
        paymentStatus: 'refunded',
        refund: { status: 'approved', source: 'escrow', decisionReason: null },
      },
    });
    expect(paise((await wallet(as.army)).balance)).toBe(paise(before.balance) + 200_00);
    expect(await stockOf(productId)).toBe(stock + 2);
    expect(await escrowOf(orderId)).toMatchObject({ balance: 0 });
    const maker = await wallet(as.maker);
    expect(maker.heldProceeds.some((p: { reference: string }) => p.reference === `order-${orderId}`)).toBe(
      false,
    );
    for (const decision of ['approved', 'rejected'])
      expect(await decide(orderId, { decision, reason: 'again' })).toMatchObject({
        status: 409,
        body: { message: MSG.refundAlreadyDecided },
      });
    expect(paise((await wallet(as.army)).balance)).toBe(paise(before.balance) + 200_00);
  });

  it('rejected with a reason: the request is closed, the proceeds released when the window ends', async () => {
    const { orderId } = await purchase();
    await request(as.army, orderId);
    expect(await decide(orderId, { decision: 'rejected' })).toMatchObject({
      status: 400,
      body: { message: MSG.refundRejectReasonRequired },
    });
    expect(await decide(orderId, { decision: 'maybe' })).toMatchObject({ status: 400 });
    const rejected = await decide(orderId, { decision: 'rejected', reason: 'Used in the field' });
    expect(rejected).toMatchObject({
      status: 200,
      body: { status: 'completed', refund: { status: 'rejected', decisionReason: 'Used in the field' } },
    });
    expect(await escrowOf(orderId)).toMatchObject({ frozen: false, balance: 200_00 });
    expect(await decide(orderId, { decision: 'approved' })).toMatchObject({ status: 409 });
    expect(await decide(999_999, { decision: 'approved' })).toMatchObject({
      status: 404,
      body: { message: MSG.refundNotRequested },
    });
  });

  it("after the proceeds' release, an approval pays the buyer back from the seller's balance", async () => {
    const { orderId } = await purchase();
    // The window of this sale closes now in the wallet: filed under the current release window, its
    // sweeper releases the proceeds once that window ends.
    await s.wallet.rt.conn
      .collection('accounts')
      .updateOne(
        { _id: `escrow:order-${orderId}` as never },
        { $set: { releaseAt: new Date(Date.now() - 1), releaseWindow: releaseWindowOf(new Date()) } },
      );
    // A release debits the escrow a step before it credits the seller: wait for both.
    await eventually(async () => (await escrowOf(orderId))?.balance === 0, 30_000);
    const seller = await eventually(async () => {
      const balance = paise((await wallet(as.maker)).balance);
      return balance >= 200_00 && balance;
    }, 20_000);
    await request(as.army, orderId);
    const approved = await decide(orderId, { decision: 'approved' });
    expect(approved.body).toMatchObject({
      status: 'refunded',
      refund: { status: 'approved', source: 'seller' },
    });
    expect(paise((await wallet(as.maker)).balance)).toBe(seller - 200_00);
  });

  it('lists the requests for administrators only: open first, by status and by username', async () => {
    const { orderId } = await purchase();
    await request(as.army, orderId);
    expect((await as.army.get('/api/admin/refunds')).status).toBe(403);
    const all = (await s.admin.get('/api/admin/refunds?pageSize=32')).body;
    expect(all.orders[0]).toMatchObject({ id: orderId, refund: { status: 'requested' } });
    const statuses = all.orders.map((o: { refund: { status: string } }) => o.refund.status);
    expect(statuses.indexOf('requested')).toBe(0);
    expect(statuses.lastIndexOf('requested')).toBeLessThan(statuses.indexOf('approved'));
    const open = (await s.admin.get('/api/admin/refunds?status=requested')).body;
    expect(open.orders.every((o: { refund: { status: string } }) => o.refund.status === 'requested')).toBe(
      true,
    );
    const byBuyer = (await s.admin.get(`/api/admin/refunds?search=${who.army.username.slice(2, 10)}`)).body;
    expect(byBuyer.total).toBe(all.total);
    expect((await s.admin.get(`/api/admin/refunds?search=${who.other.username}`)).body.total).toBe(0);
    expect((await s.admin.get('/api/admin/refunds?status=lost')).status).toBe(400);
  });

  it('an approval a crash left half-done is finished by the sweeper: the buyer paid once', async () => {
    const { orderId, productId } = await purchase();
    const before = paise((await wallet(as.army)).balance);
    const stock = await stockOf(productId);
    await request(as.army, orderId);
    const ordersCol = s.orders.rt.conn.collection('orders');
    // The sweeper's one equality: present while the refund is not settled.
    expect(await ordersCol.findOne({ _id: orderId as never })).toMatchObject({ refundOpen: true });
    // As a process that died right after moving the request to approving (attempt 1) leaves it.
    await ordersCol.updateOne(
      { _id: orderId as never },
      {
        $set: {
          'refund.status': 'approving',
          'refund.attempt': 1,
          updatedAt: new Date(Date.now() - 60_000),
        },
      },
    );
    const done = await eventually(async () => {
      const o = (await s.admin.get(`/api/admin/refunds?search=${who.army.username}`)).body.orders.find(
        (x: { id: number }) => x.id === orderId,
      );
      return o?.status === 'refunded' && o;
    }, 30_000);
    expect(done.refund).toMatchObject({ status: 'approved', source: 'escrow' });
    expect(done).not.toHaveProperty('refundOpen');
    expect(paise((await wallet(as.army)).balance)).toBe(before + 200_00);
    expect(await stockOf(productId)).toBe(stock + 2);
    expect(await ordersCol.findOne({ _id: orderId as never })).not.toHaveProperty('refundOpen');
  });

  it('the sweeper asks for open refunds only; one opened before refundOpen existed is marked once', async () => {
    const { orderId } = await purchase();
    await request(as.army, orderId);
    const store = createOrderStore(s.orders.rt.conn);
    const later = new Date(Date.now() + 60_000);
    const open = async () => (await store.unsettledRefunds(later)).map((o) => o.id);
    // As an order written before the field: its request unsettled, not held yet, no refundOpen.
    await s.orders.rt.conn
      .collection('orders')
      .updateOne({ _id: orderId as never }, { $unset: { refundOpen: '' }, $set: { 'refund.held': null } });
    expect(await open()).not.toContain(orderId);
    expect(await store.markOpenRefunds()).toBeGreaterThanOrEqual(1);
    expect(await open()).toContain(orderId);
    expect(await store.markOpenRefunds()).toBe(0);
  });

  it("the administrators' list asks for refunds by refundAsked; one asked before it existed is marked once", async () => {
    const { orderId } = await purchase();
    await request(as.army, orderId);
    const store = createOrderStore(s.orders.rt.conn);
    const listed = async () => (await store.refunds({ page: 1, pageSize: 100 })).orders.map((o) => o.id);
    expect(await listed()).toContain(orderId);
    const ordersCol = s.orders.rt.conn.collection('orders');
    expect(await ordersCol.findOne({ _id: orderId as never })).toMatchObject({ refundAsked: true });
    await ordersCol.updateOne({ _id: orderId as never }, { $unset: { refundAsked: '' } });
    expect(await listed()).not.toContain(orderId);
    expect(await store.markOpenRefunds()).toBeGreaterThanOrEqual(1);
    expect(await listed()).toContain(orderId);
    expect((await store.refunds({ page: 1, pageSize: 100 })).orders[0]).not.toHaveProperty('refundAsked');
  });

  it('leaves the whole system consistent: ledger, stock and every order against its payments', async () => {
    const report = await checkSystem({
      wallet: s.wallet.rt.conn.db!,
      catalog: s.catalog.rt.conn.db!,
      orders: s.orders.rt.conn.db!,
    });
    expect(report.breaks).toEqual([]);
    expect(report.orders.refunded).toBe(3);
  });
});
