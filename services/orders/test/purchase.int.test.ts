import { ACTIVITY_SUBJECT, ORDERS_SUBJECTS } from '@qm/contracts/events';
import { formatMoney, ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { catalogV1, walletV1 } from '@qm/contracts/grpc';
import {
  connectBus,
  connectMongo,
  createClient,
  ensureIndexes,
  GrpcStatus,
  openStoreEngine,
  type RunningService,
} from '@qm/platform';
import { eventually, INFRA, testCallerSigner, testLog } from '@qm/testkit';
import type { Browser, Registered } from '@qm/testkit/src/identity-stack';
import { createOrderStore } from '../src/store/orders';
import { INTERNAL_TOKEN, listProduct, type OrdersStack, startOrdersStack } from './stack';

/**
 * A purchase's rules and its saga's ends (docs/adr/010, docs/product.md §5 and §6) through the real gateway,
 * orders, catalog, wallet and identity: the refusals, the Idempotency-Key, insufficient balance,
 * the product deleted mid-saga, the sweeper's resumption of an abandoned order, and the lists.
 */
jest.setTimeout(120_000);

describe('orders: placing a purchase', () => {
  let s: OrdersStack;
  let as: Record<'maker' | 'army' | 'poor', Browser>;
  let who: Record<'maker' | 'army' | 'poor', Registered>;

  beforeAll(async () => {
    s = await startOrdersStack();
    ({ as, who } = await s.users({
      maker: ['Manufacturer', 0],
      army: ['Army', 20_000],
      poor: ['Army', 100],
    }));
  }, 120_000);
  afterAll(() => s?.stop());

  const product = (price = '1250.50', stock = 10) =>
    listProduct(as.maker, { name: 'Field Radio', price, stock, description: 'VHF, 5 W' });
  const stockOf = async (id: number) => (await as.army.get(`/api/products/${id}`)).body.stock as number;
  const wallet = async (b: Browser) => (await b.get('/api/wallet')).body;
  const ordersOf = (productId: number) => s.orders.rt.conn.collection('orders').find({ productId }).toArray();
  const holdOf = (reference: string) =>
    s.wallet.rt.conn.collection('transfers').findOne({ key: `hold:${reference}` });
  /** A partner's gRPC client as the orders service calls it. */
  const asOrders = <S extends typeof walletV1.WalletServiceService | typeof catalogV1.CatalogServiceService>(
    service: S,
    svc: RunningService<unknown>,
  ) =>
    createClient(service, `127.0.0.1:${svc.port}`, {
      identity: { service: 'orders', token: INTERNAL_TOKEN },
      signer: testCallerSigner,
    });

  it('buys: stock, both wallets and the order move together; the order carries the buyer details', async () => {
    const id = await product('1250.50', 10);
    const before = await wallet(as.army);
    const res = await as.army.post('/api/orders', { productId: id, quantity: 2, totalPrice: '2501.00' });
    expect(res).toMatchObject({
      status: 201,
      body: {
        productId: id,
        buyerId: who.army.id,
        sellerId: who.maker.id,
        quantity: 2,
        unitPrice: '1250.50',
        totalPrice: '2501.00',
        status: 'completed',
        paymentStatus: 'paid',
        cancelReason: null,
        product: { name: 'Field Radio', type: 'Equipment', description: 'VHF, 5 W' },
      },
    });
    expect(await stockOf(id)).toBe(8);
    const after = await wallet(as.army);
    expect(Number(before.balance) * 100 - Number(after.balance) * 100).toBeCloseTo(250100, 0);
    expect(after.heldBalance).toBe('0.00');
    // The seller's proceeds wait out the refund window in the sale's escrow (docs/adr/028).
    const maker = await wallet(as.maker);
    expect(maker).toMatchObject({ balance: '0.00', proceedsOnHold: '2501.00' });
    expect(maker.heldProceeds).toEqual([
      {
        reference: `order-${res.body.id}`,
        amount: '2501.00',
        releaseAt: expect.any(String),
        refundRequested: false,
      },
    ]);

    const sold = await as.maker.get('/api/orders/sold');
    expect(sold.status).toBe(200);
    expect(sold.body.orders[0]).toMatchObject({
      id: res.body.id,
      buyer: { id: who.army.id, username: who.army.username, role: 'Army', name: 'Gate Soldier' },
      buyerDetails: { name: 'Gate Soldier', role: 'Army', email: who.army.email, phone: '+91 90000 00000' },
    });
    const purchased = await as.army.get('/api/orders/purchased');
    expect(purchased.body.orders[0]).toMatchObject({
      id: res.body.id,
      seller: { id: who.maker.id, username: who.maker.username, role: 'Manufacturer' },
    });
    // Paid in one transfer into the sale's escrow (docs/adr/043).
    const payment = await holdOf(`order-${res.body.id}`);
    expect(payment).toMatchObject({ state: 'posted', amount: 250100, twoPhase: false });
  });

  it('changes its order twice after placing it: reserved, then done with the payment (docs/adr/010, 043)', async () => {
    const id = await product('20.00', 5);
    const changes: { filter: { _id?: number; step?: string }; set: Record<string, unknown> }[] = [];
    const { conn } = s.orders.rt;
    conn.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      if (collection !== 'orders' || method !== 'findOneAndUpdate') return;
      const [filter, update] = args as [{ _id?: number; step?: string }, { $set: Record<string, unknown> }];
      changes.push({ filter, set: update.$set });
    });
    let orderId: number;
    try {
      const res = await as.army.post('/api/orders', { productId: id, quantity: 1, totalPrice: '20.00' });
      expect(res.body).toMatchObject({ status: 'completed', paymentStatus: 'paid' });
      orderId = res.body.id as number;
    } finally {
      conn.set('debug', false);
    }
    const mine = changes.filter((c) => c.filter._id === orderId);
    expect(mine.map((c) => [c.filter.step, c.set.step])).toEqual([
      ['reserve', 'hold'],
      ['hold', 'done'],
    ]);
    expect(mine[1]!.set).toMatchObject({ status: 'completed', paymentStatus: 'paid' });
  });

  it('refuses a tampered total (409, the price changed), the own product and administrators, creating nothing', async () => {
    const id = await product('1000.00', 3);
    const tampered = await as.army.post('/api/orders', { productId: id, quantity: 2, totalPrice: '1000.00' });
    expect(tampered).toMatchObject({ status: 409, body: { message: MSG.priceChanged } });
    const own = await as.maker.post('/api/orders', { productId: id, quantity: 1, totalPrice: '1000.00' });
    expect(own).toMatchObject({ status: 403, body: { message: MSG.ownProduct } });
    const admin = await s.admin.post('/api/orders', { productId: id, quantity: 1, totalPrice: '1000.00' });
    expect(admin).toMatchObject({ status: 403, body: { message: MSG.adminCannotPurchase } });
    const tooMany = await as.army.post('/api/orders', { productId: id, quantity: 4, totalPrice: '4000.00' });
    expect(tooMany).toMatchObject({ status: 400, body: { message: MSG.quantityAboveStock(3) } });
    const zero = await as.army.post('/api/orders', { productId: id, quantity: 0, totalPrice: '0.00' });
    expect(zero).toMatchObject({ status: 400, body: { message: MSG.quantityMin } });
    const gone = await as.army.post('/api/orders', { productId: 987654321, quantity: 1, totalPrice: '1.00' });
    expect(gone).toMatchObject({ status: 404, body: { message: MSG.productNotFound } });
    expect(await ordersOf(id)).toHaveLength(0);
    expect(await stockOf(id)).toBe(3);
  });

  it('the same Idempotency-Key answers the same order once; another body under it is a 409', async () => {
    const id = await product('500.00', 5);
    const key = `buy-${Date.now()}`;
    const body = { productId: id, quantity: 1, totalPrice: '500.00' };
    const first = await as.army.request('POST', '/api/orders', body, { 'idempotency-key': key });
    const again = await as.army.request('POST', '/api/orders', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, body: { id: first.body.id, status: 'completed' } });
    const other = await as.army.request(
      'POST',
      '/api/orders',
      { ...body, quantity: 2, totalPrice: '1000.00' },
      {
        'idempotency-key': key,
      },
    );
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(MSG.idempotencyMismatch(['quantity', 'totalPrice']));
    expect(await ordersOf(id)).toHaveLength(1);
    expect(await stockOf(id)).toBe(4);
    expect(
      await s.wallet.rt.conn.collection('transfers').countDocuments({ key: `hold:order-${first.body.id}` }),
    ).toBe(1);
  });

  it('the order is the key’s record (docs/adr/045): a repeat after the price changed answers it; the claim stores no answer', async () => {
    const id = await product('300.00', 5);
    const key = `buy-record-${Date.now()}`;
    const body = { productId: id, quantity: 1, totalPrice: '300.00' };
    const first = await as.army.request('POST', '/api/orders', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const { version } = (await as.maker.get(`/api/products/${id}`)).body;
    expect((await as.maker.request('PATCH', `/api/products/${id}`, { price: 350, version })).status).toBe(
      200,
    );
    const again = await as.army.request('POST', '/api/orders', body, { 'idempotency-key': key });
    expect(again).toMatchObject({ status: 201, body: { id: first.body.id, totalPrice: '300.00' } });
    expect(await ordersOf(id)).toEqual([expect.objectContaining({ requestKey: `${who.army.id}:${key}` })]);
    const claim = await s.orders.rt.conn
      .collection('idempotency_keys')
      .findOne({ _id: `${who.army.id}:create-order:${key}` as never });
    expect(claim).toMatchObject({ state: 'running' });
    expect(claim?.outcome).toBeUndefined();
  });

  it('twelve concurrent requests under one key place one order and pay once; each is answered it or told to retry', async () => {
    const id = await product('100.00', 20);
    const before = await wallet(as.army);
    const key = `buy-burst-${Date.now()}`;
    const body = { productId: id, quantity: 1, totalPrice: '100.00' };
    const buy = () => as.army.request('POST', '/api/orders', body, { 'idempotency-key': key });
    const answers = await Promise.all(Array.from({ length: 12 }, buy));
    const [order, ...others] = await ordersOf(id);
    expect(others).toEqual([]);
    for (const a of answers)
      expect([a.status, a.status === 201 ? a.body.id : a.body.message]).toEqual(
        a.status === 201 ? [201, order!.id] : [409, MSG.idempotencyInProgress],
      );
    expect((await buy()).body).toMatchObject({ id: order!.id, status: 'completed' });
    expect(await stockOf(id)).toBe(19);
    expect(Number(before.balance) - Number((await wallet(as.army)).balance)).toBeCloseTo(100, 2);
  });

  it('insufficient balance: "Insufficient wallet balance", the order cancelled, its stock back, nothing held', async () => {
    const id = await product('150.00', 2);
    const res = await as.poor.post('/api/orders', { productId: id, quantity: 1, totalPrice: '150.00' });
    expect(res).toMatchObject({ status: 409, body: { message: MSG.insufficientBalance } });
    const [order] = await ordersOf(id);
    expect(order).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'failed',
      cancelReason: MSG.insufficientBalance,
    });
    expect(await stockOf(id)).toBe(2);
    expect(await wallet(as.poor)).toMatchObject({ balance: '100.00', heldBalance: '0.00' });
    expect(
      await s.catalog.rt.conn.collection('stock_reservations').findOne({ _id: order!.reference } as never),
    ).toMatchObject({
      state: 'released',
    });
  });

  describe('with a pause between the reservation and the payment', () => {
    let paused: RunningService<unknown>;
    beforeAll(async () => {
      paused = await s.startOrders({ ORDERS_PAUSE_BEFORE_PAYMENT_MS: '2000' });
    });

    it('the product deleted mid-saga: nothing paid, the reservation released, the order cancelled; a late payment takes nothing', async () => {
      const id = await product('700.00', 4);
      const before = await wallet(as.army);
      const client = s.grpc(paused, { userId: who.army.id, username: who.army.username, roles: ['Army'] });
      const buying = client
        .createOrder({ productId: id, quantity: 1, totalPaise: 700_00, idempotencyKey: '' })
        .then(
          () => undefined,
          (err: { code: number; details: string }) => err,
        );
      // The order is reserved and waits in the pause: now the product goes.
      await eventually(async () => ((await ordersOf(id))[0]?.step === 'hold' ? true : undefined), 20_000);
      expect((await as.maker.delete(`/api/products/${id}`)).status).toBe(200);
      expect(await buying).toMatchObject({ code: GrpcStatus.NOT_FOUND, details: MSG.productNotFound });

      const [order] = await ordersOf(id);
      expect(order).toMatchObject({ status: 'cancelled', cancelReason: MSG.productNotFound });
      // Cancelled before it was asked for: recorded failed (docs/adr/043).
      expect(await holdOf(order!.reference)).toMatchObject({ state: 'failed', settled: true });
      // A payment that arrives late (a request held up on the way) finds it so, and takes nothing.
      const walletAsOrders = asOrders(walletV1.WalletServiceService, s.wallet);
      const late = await walletAsOrders
        .paySale({
          sale: {
            reference: order!.reference,
            debitUserId: who.army.id,
            creditUserId: who.maker.id,
            amountPaise: 700_00,
            description: 'Field Radio',
            releaseAt: '',
          },
        })
        .catch((err: { code: number; details: string }) => err)
        .finally(() => walletAsOrders.close());
      expect(late).toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        details: "This sale's payment was cancelled",
      });
      expect(await holdOf(order!.reference)).toMatchObject({ state: 'failed' });
      expect(await wallet(as.army)).toMatchObject({ balance: before.balance, heldBalance: '0.00' });
    });
  });

  it('an order an earlier build left at `pay` with its hold: the sweeper posts the hold and completes it', async () => {
    const id = await product('400.00', 3);
    const before = await wallet(as.army);
    const store = createOrderStore(s.orders.rt.conn);
    const orderId = await store.nextId();
    const reference = `order-${orderId}`;
    const longAgo = new Date(Date.now() - 60_000);
    const deadlineAt = new Date(Date.now() + 60_000);
    // What that build did before its process stopped: the stock reserved, the money held.
    const catalog = asOrders(catalogV1.CatalogServiceService, s.catalog);
    const walletAsOrders = asOrders(walletV1.WalletServiceService, s.wallet);
    try {
      await catalog.reserveStock({ reference, productId: id, quantity: 1, ttlSeconds: 600 });
      await walletAsOrders.createPendingTransfer({
        reference,
        debitUserId: who.army.id,
        creditUserId: who.maker.id,
        amountPaise: 400_00,
        timeoutSeconds: 600,
        description: `Order #${orderId}: 1 × Field Radio`,
        releaseAt: new Date(deadlineAt.getTime() + 3_600_000).toISOString(),
      });
    } finally {
      catalog.close();
      walletAsOrders.close();
    }
    expect(await wallet(as.army)).toMatchObject({ heldBalance: '400.00' });
    await store.insert({
      id: orderId,
      reference,
      productId: id,
      buyerId: who.army.id,
      sellerId: who.maker.id,
      quantity: 1,
      unitPricePaise: 400_00,
      totalPaise: 400_00,
      status: 'pending',
      paymentStatus: 'pending',
      step: 'pay',
      cancelReason: '',
      product: { name: 'Field Radio', type: 'Equipment', description: '' },
      buyerDetails: { name: 'Gate Soldier', role: 'Army', email: who.army.email, phone: '' },
      buyer: { id: who.army.id, name: 'Gate Soldier', username: who.army.username, role: 'Army' },
      seller: { id: who.maker.id, name: 'Gate Maker', username: who.maker.username, role: 'Manufacturer' },
      deadlineAt,
      refundableUntil: new Date(deadlineAt.getTime() + 3_600_000),
      createdAt: longAgo,
      updatedAt: longAgo,
    });
    await eventually(
      async () => ((await store.get(orderId))?.status === 'completed' ? true : undefined),
      20_000,
    );
    expect(await holdOf(reference)).toMatchObject({ state: 'posted', twoPhase: true });
    const after = await wallet(as.army);
    expect(after.heldBalance).toBe('0.00');
    expect(Number(before.balance) - Number(after.balance)).toBeCloseTo(400, 2);
    expect(await stockOf(id)).toBe(2);
  });

  it('the sweeper finishes an order its process left behind, and cancels one past its deadline', async () => {
    const id = await product('300.00', 5);
    const store = createOrderStore(s.orders.rt.conn);
    const base = {
      productId: id,
      buyerId: who.army.id,
      sellerId: who.maker.id,
      quantity: 1,
      unitPricePaise: 300_00,
      totalPaise: 300_00,
      status: 'pending' as const,
      paymentStatus: 'pending' as const,
      step: 'reserve' as const,
      cancelReason: '',
      product: { name: 'Field Radio', type: 'Equipment', description: '' },
      buyerDetails: { name: 'Gate Soldier', role: 'Army', email: who.army.email, phone: '' },
      buyer: { id: who.army.id, name: 'Gate Soldier', username: who.army.username, role: 'Army' },
      seller: { id: who.maker.id, name: 'Gate Maker', username: who.maker.username, role: 'Manufacturer' },
    };
    // As a crash right after recording them leaves them: pending at the first step, untouched since.
    const longAgo = new Date(Date.now() - 60_000);
    const left = await store.nextId();
    await store.insert({
      ...base,
      id: left,
      reference: `order-${left}`,
      deadlineAt: new Date(Date.now() + 60_000),
      createdAt: longAgo,
      updatedAt: longAgo,
    });
    const late = await store.nextId();
    await store.insert({
      ...base,
      id: late,
      reference: `order-${late}`,
      deadlineAt: new Date(Date.now() - 1000),
      createdAt: longAgo,
      updatedAt: longAgo,
    });
    await eventually(
      async () => ((await store.get(left))?.status === 'completed' ? true : undefined),
      20_000,
    );
    await eventually(
      async () => ((await store.get(late))?.status === 'cancelled' ? true : undefined),
      20_000,
    );
    expect(await store.get(late)).toMatchObject({ cancelReason: MSG.timedOut, paymentStatus: 'failed' });
    expect(await holdOf(`order-${left}`)).toMatchObject({ state: 'posted' });
    expect(await holdOf(`order-${late}`)).toBeNull();
    expect(await stockOf(id)).toBe(4);
  });

  it('lists: sales are for Manufacturers only (403), administrators see every order with the cards', async () => {
    const sold = await as.army.get('/api/orders/sold');
    expect(sold).toMatchObject({ status: 403, body: { message: MSG.salesManufacturersOnly } });
    expect((await as.army.get('/api/orders')).status).toBe(403);
    const all = await s.admin.get('/api/orders?pageSize=32');
    expect(all.status).toBe(200);
    const total = (await s.orders.rt.conn.collection('orders').countDocuments({})) as number;
    expect(all.body).toMatchObject({ total, allCount: total, armyCount: total, manufacturerCount: total });
    expect(all.body.completedCount + all.body.cancelledCount + all.body.pendingCount).toBe(total);
    // The Army Purchases and Manufacturer Sales cards: the value of the completed orders (every buyer
    // here is Army, every seller a Manufacturer), once no order is pending any more.
    const completed = await s.orders.rt.conn
      .collection<{ totalPaise: number }>('orders')
      .find({ status: 'completed' })
      .toArray();
    expect(completed.length).toBeGreaterThan(0);
    const value = formatMoney(completed.reduce((sum, o) => sum + o.totalPaise, 0));
    const cards = await eventually(async () => {
      const b = (await s.admin.get('/api/orders?pageSize=1')).body;
      return b.armyCompletedAmount === value && b.manufacturerCompletedAmount === value && b;
    });
    expect(cards).toMatchObject({ armyCompletedAmount: value, manufacturerCompletedAmount: value });
    expect(all.body.orders[0]).toMatchObject({
      product: expect.any(Object),
      buyer: { role: 'Army' },
      seller: { role: 'Manufacturer' },
      buyerDetails: { role: 'Army' },
    });
    const army = await s.admin.get('/api/orders?scope=army&pageSize=5');
    expect(army.body).toMatchObject({ total, pageSize: 5 });
    expect(army.body.orders).toHaveLength(Math.min(5, total));
  });

  it('the OpenAPI document carries the order calls with their refusals and the Idempotency-Key', async () => {
    const doc = (await (await fetch(`${s.stack.url}/api/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, unknown>; parameters: { name: string }[] }>
      >;
    };
    const create = doc.paths['/api/orders']!.post!;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '403', '404', '409']),
    );
    expect(create.parameters.map((p) => p.name)).toContain('idempotency-key');
    expect(doc.paths['/api/orders']!.get!.responses['403']).toBeDefined();
    expect(doc.paths['/api/orders/purchased']!.get!.responses['200']).toBeDefined();
    expect(doc.paths['/api/orders/sold']!.get!.responses['403']).toBeDefined();
  });

  it('publishes the order ends and the buyer activity: orders.order.completed with order_place, .cancelled, order_view', async () => {
    const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'orders-events-test', log: testLog() });
    const seen: { subject: string; data: Record<string, unknown> }[] = [];
    for (const subject of [ORDERS_SUBJECTS.completed, ORDERS_SUBJECTS.cancelled, ACTIVITY_SUBJECT])
      bus.listen(subject, (event) => seen.push({ subject, data: event.data as Record<string, unknown> }));
    await bus.nc.flush();
    try {
      const id = await product('200.00', 1);
      const bought = await as.army.post('/api/orders', { productId: id, quantity: 1, totalPrice: '200.00' });
      expect(bought.status).toBe(201);
      const poor = await product('5000.00', 1);
      expect(
        (await as.poor.post('/api/orders', { productId: poor, quantity: 1, totalPrice: '5000.00' })).status,
      ).toBe(409);
      expect((await as.army.get('/api/orders/purchased')).status).toBe(200);
      // The outbox publishes at least once (a slow mark-as-sent can send an event again): the distinct
      // events, however many copies of each arrived.
      const mine = (subject: string, test: (d: Record<string, unknown>) => boolean) => [
        ...new Map(
          seen.filter((e) => e.subject === subject && test(e.data)).map((e) => [JSON.stringify(e), e]),
        ).values(),
      ];
      await eventually(
        async () => (mine(ORDERS_SUBJECTS.cancelled, (d) => d.productId === poor).length ? true : undefined),
        10_000,
      );
      await eventually(
        async () =>
          mine(ACTIVITY_SUBJECT, (d) => d.action === 'order_view' && d.userId === who.army.id).length
            ? true
            : undefined,
        10_000,
      );
      expect(mine(ORDERS_SUBJECTS.completed, (d) => d.productId === id)).toEqual([
        {
          subject: ORDERS_SUBJECTS.completed,
          data: expect.objectContaining({
            id: bought.body.id,
            status: 'completed',
            buyerId: who.army.id,
            totalPaise: 200_00,
          }),
        },
      ]);
      expect(mine(ORDERS_SUBJECTS.cancelled, (d) => d.productId === poor)).toEqual([
        {
          subject: ORDERS_SUBJECTS.cancelled,
          data: expect.objectContaining({ status: 'cancelled', cancelReason: MSG.insufficientBalance }),
        },
      ]);
      // One order_place, however many copies of it (the activity service stores it once).
      const placed = mine(
        ACTIVITY_SUBJECT,
        (d) => d.action === 'order_place' && String(d.details).startsWith(`Order #${bought.body.id}:`),
      );
      expect(placed).toHaveLength(1);
    } finally {
      await bus.close();
    }
  });
});

describe('orders: the store', () => {
  it('makes the unique index of the request key in place of an earlier build’s, and refuses a second order under a key', async () => {
    const conn = await connectMongo(INFRA.MONGO_URL, `qm_orders_upgrade_${Date.now()}`);
    const engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
    try {
      await conn.createCollection('orders');
      await conn.collection('orders').createIndex({ requestKey: 1 }, { name: 'requestKey_1' });
      const store = createOrderStore(conn);
      await store.init();
      await ensureIndexes(conn);
      const onKey = (await conn.collection('orders').indexes()).filter((i) => i.key.requestKey);
      expect(onKey).toEqual([expect.objectContaining({ name: 'requestKey_unique', unique: true })]);
      // A second replica starting at the same time finds nothing left to drop.
      await expect(createOrderStore(conn).init()).resolves.toBeUndefined();

      const party = { id: 1, name: 'A B', username: 'ab', role: 'Army' };
      const at = new Date();
      const order = {
        productId: 1,
        buyerId: 1,
        sellerId: 2,
        quantity: 1,
        unitPricePaise: 100,
        totalPaise: 100,
        status: 'pending' as const,
        paymentStatus: 'pending' as const,
        step: 'reserve' as const,
        cancelReason: '',
        product: { name: 'Boots', type: 'Other', description: '' },
        buyerDetails: { name: 'A B', role: 'Army', email: 'ab@test.local', phone: '' },
        buyer: party,
        seller: { ...party, id: 2, role: 'Manufacturer' },
        deadlineAt: at,
        createdAt: at,
        updatedAt: at,
      };
      const placed = await store.place({ ...order, requestKey: '1:k' });
      expect(placed).toMatchObject({ id: placed.id, reference: `order-${placed.id}` });
      await expect(store.place({ ...order, requestKey: '1:k' })).rejects.toMatchObject({ code: 11000 });
      // Orders without a key do not meet on the index.
      await store.place(order);
      await store.place(order);
    } finally {
      await conn.dropDatabase().catch(() => undefined);
      await engine.close();
      await conn.close();
    }
  });
});
