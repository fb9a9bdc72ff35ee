import { statsDay, type DayTotal, USER_ROLES, USER_STATUSES } from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import { Browser, registerUser } from '@qm/testkit/src/identity-stack';
import { createOrderStore } from '../src/store/orders';
import { type OrdersStack, startOrdersStack, topUp } from './stack';

/**
 * The admin dashboard's aggregates (docs/API.md) after real registrations, sandbox top-ups and
 * purchases through the gateway and the identity, wallet, catalog and orders services, each on a
 * fresh database, so every figure is known exactly: money in and purchases per IST day, orders by
 * status, the money refunded, users by status and role; administrators only.
 */
jest.setTimeout(180_000);

const ROUTES = ['/api/admin/stats/money', '/api/admin/stats/orders', '/api/admin/stats/users'];
const DAY_MS = 24 * 60 * 60_000;

const nonZero = (days: DayTotal[]) => days.filter((d) => d.count > 0);
const sum = (days: DayTotal[]) =>
  days.reduce((t, d) => ({ count: t.count + d.count, amountPaise: t.amountPaise + d.amountPaise }), {
    count: 0,
    amountPaise: 0,
  });

describe('admin dashboard statistics', () => {
  let s: OrdersStack;
  let army: Browser;
  let poor: Browser;
  let started: Date;
  let boughtId: number;
  let productId: number;

  beforeAll(async () => {
    started = new Date();
    s = await startOrdersStack();
    const maker = await s.user('Manufacturer');
    army = (await s.user('Army', 5_000)).as;
    await topUp(army, 1_250);
    poor = (await s.user('Army', 100)).as;
    // Registrations waiting for a decision and one refused.
    await registerUser(s.stack, 'StatsPending', 'Army');
    const refused = await registerUser(s.stack, 'StatsRefused', 'Manufacturer');
    const rejected = await s.admin.patch(`/api/users/${refused.id}/status`, {
      status: 'rejected',
      rejectionReason: 'Licence could not be verified',
    });
    expect(rejected.status).toBe(200);

    const product = await maker.as.post('/api/products', {
      name: 'Field Radio',
      type: 'Equipment',
      price: '1250.50',
      description: 'VHF, 5 W',
      stock: 10,
    });
    expect(product.status).toBe(201);
    const id = product.body.id as number;
    productId = id;
    const bought = await army.post('/api/orders', { productId: id, quantity: 2, totalPrice: '2501.00' });
    expect(bought.body).toMatchObject({ status: 'completed' });
    boughtId = bought.body.id as number;
    // ₹100 cannot pay ₹1,250.50: the saga cancels the order.
    const refusedOrder = await poor.post('/api/orders', {
      productId: id,
      quantity: 1,
      totalPrice: '1250.50',
    });
    expect(refusedOrder.status).toBe(409);
  });
  afterAll(() => s?.stop());

  /** Today's IST day, or yesterday's if the test ran across IST midnight. */
  const today = () => [statsDay(started), statsDay(new Date())];

  it('money: the three completed top-ups, on today, among 30 days of zeros', async () => {
    const res = await s.admin.get('/api/admin/stats/money');
    expect(res.status).toBe(200);
    expect(res.body.timeZone).toBe('Asia/Kolkata');
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days.at(-1).day).toBe(statsDay(new Date()));
    expect(sum(res.body.days)).toEqual({ count: 3, amountPaise: (5_000 + 1_250 + 100) * 100 });
    for (const d of nonZero(res.body.days)) expect(today()).toContain(d.day);

    const week = await s.admin.get('/api/admin/stats/money?days=7');
    expect(week.body.days).toHaveLength(7);
    expect(sum(week.body.days)).toEqual(sum(res.body.days));
  });

  it('orders: completed purchases per day by the day placed, within the window only, and every order by status', async () => {
    // Two completed orders placed earlier, written through the service's own store: 10 days ago
    // (inside 30 days, outside 7) and 40 days ago (outside both).
    const orders = createOrderStore(s.orders.rt.conn);
    const recent = (await orders.get(boughtId))!;
    const backdate = async (daysAgo: number, totalPaise: number) => {
      const id = await orders.nextId();
      const at = new Date(Date.now() - daysAgo * DAY_MS);
      await orders.insert({
        ...recent,
        id,
        reference: `order-${id}`,
        totalPaise,
        createdAt: at,
        updatedAt: at,
      });
      return statsDay(at);
    };
    const tenDaysAgo = await backdate(10, 700_00);
    await backdate(40, 900_00);

    const res = await s.admin.get('/api/admin/stats/orders');
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(30);
    expect(res.body.byStatus).toEqual({ pending: 0, completed: 3, cancelled: 1, refunded: 0 });
    expect(res.body.refundedPaise).toBe(0);
    expect(sum(res.body.days)).toEqual({ count: 2, amountPaise: 2501_00 + 700_00 });
    expect(res.body.days.find((d: DayTotal) => d.day === tenDaysAgo)).toEqual({
      day: tenDaysAgo,
      count: 1,
      amountPaise: 700_00,
    });
    for (const d of nonZero(res.body.days)) expect([tenDaysAgo, ...today()]).toContain(d.day);

    const week = await s.admin.get('/api/admin/stats/orders?days=7');
    expect(sum(week.body.days)).toEqual({ count: 1, amountPaise: 2501_00 });
    expect(week.body.byStatus).toEqual(res.body.byStatus);
  });

  it('the running tallies take in what came after the first read, once', async () => {
    const before = {
      money: sum((await s.admin.get('/api/admin/stats/money')).body.days),
      orders: sum((await s.admin.get('/api/admin/stats/orders')).body.days),
    };
    await topUp(army, 100);
    const bought = await army.post('/api/orders', { productId, quantity: 1, totalPrice: '1250.50' });
    expect(bought.body).toMatchObject({ status: 'completed' });
    for (let i = 0; i < 2; i++) {
      // Asked twice: the second read finds nothing new and must not count anything again.
      expect(sum((await s.admin.get('/api/admin/stats/money')).body.days)).toEqual({
        count: before.money.count + 1,
        amountPaise: before.money.amountPaise + 100_00,
      });
      expect(sum((await s.admin.get('/api/admin/stats/orders')).body.days)).toEqual({
        count: before.orders.count + 1,
        amountPaise: before.orders.amountPaise + 1250_50,
      });
    }
  });

  it('refunds: the refunded orders and the money paid back, each approval taken in once', async () => {
    const before = (await s.admin.get('/api/admin/stats/orders')).body;
    expect(before).toMatchObject({ byStatus: { refunded: 0 }, refundedPaise: 0 });
    const buy = async () => {
      const res = await army.post('/api/orders', { productId, quantity: 1, totalPrice: '1250.50' });
      expect(res.body).toMatchObject({ status: 'completed' });
      const id = res.body.id as number;
      const asked = await army.post(`/api/orders/${id}/refund-request`, { reason: 'Arrived damaged' });
      expect(asked.status).toBe(201);
      return id;
    };
    const [refunded, rejected] = [await buy(), await buy()];
    expect(await s.admin.patch(`/api/admin/refunds/${refunded}`, { decision: 'approved' })).toMatchObject({
      status: 200,
      body: { status: 'refunded' },
    });
    expect(
      await s.admin.patch(`/api/admin/refunds/${rejected}`, { decision: 'rejected', reason: 'Used' }),
    ).toMatchObject({ status: 200, body: { status: 'completed' } });
    for (let i = 0; i < 2; i++) {
      // Asked twice: the second read finds no new refund and must not add the first again.
      const res = await s.admin.get('/api/admin/stats/orders');
      expect(res.body.byStatus).toEqual({
        ...before.byStatus,
        completed: before.byStatus.completed + 1,
        refunded: 1,
      });
      expect(res.body.refundedPaise).toBe(1250_50);
    }
  });

  it('users: the counts by status and by role agree with the users list', async () => {
    const list = (await s.admin.get('/api/users')).body as { status: string; role: string }[];
    const count = (key: 'status' | 'role', value: string) => list.filter((u) => u[key] === value).length;
    const res = await s.admin.get('/api/admin/stats/users');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total: list.length,
      byStatus: Object.fromEntries(USER_STATUSES.map((st) => [st, count('status', st)])),
      byRole: Object.fromEntries(USER_ROLES.map((r) => [r, count('role', r)])),
    });
    // Approved: the admin, two buyers and a maker; one buyer waiting, one maker refused.
    expect(res.body.byStatus).toEqual({ pending: 1, approved: 4, rejected: 1 });
    expect(res.body.byRole).toEqual({ Admin: 1, Army: 3, Manufacturer: 2, Navy: 0, Airforce: 0 });
  });

  it('answers administrators only: 401 signed out, 403 for a user', async () => {
    for (const path of ROUTES) {
      expect((await new Browser(s.stack.url).get(path)).status).toBe(401);
      const forbidden = await army.get(path);
      expect(forbidden).toMatchObject({ status: 403, body: { message: 'Administrator access required' } });
    }
    // The orders service refuses on its own too, whoever calls it.
    const asArmy = s.grpc(s.orders, { userId: 999, username: 'someone', roles: ['Army'] });
    await expect(asArmy.getOrderStats({ days: 30 })).rejects.toMatchObject({
      code: GrpcStatus.PERMISSION_DENIED,
    });
  });

  it('refuses a window outside 1 to 90 days with a clear message', async () => {
    for (const path of ROUTES.slice(0, 2)) {
      expect(await s.admin.get(`${path}?days=0`)).toMatchObject({
        status: 400,
        body: { message: 'Days must be at least 1' },
      });
      expect(await s.admin.get(`${path}?days=91`)).toMatchObject({
        status: 400,
        body: { message: 'Days must be at most 90' },
      });
    }
  });
});
