import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { AppError, GrpcStatus, type Idempotency, type OwnRecordAttempt } from '@qm/platform';
import { createPurchases } from '../src/app/purchases';
import type { Partners } from '../src/app/partners';
import type { Saga } from '../src/app/saga';
import type { OrderRecord, UserFacts } from '../src/domain/order';
import type { NewOrder, OrderStore } from '../src/store/orders';

const user = (id: number, role: string): UserFacts => ({
  id,
  username: `user${id}`,
  firstName: 'A',
  lastName: 'B',
  email: `user${id}@test.local`,
  phoneNumber: '9876543210',
  role,
  status: 'approved',
  isAdmin: false,
});

/**
 * Purchases over in-memory partners and store. The store numbers what it places and refuses a
 * second order under one request key, as the unique index does; `beforePlace` runs inside `place`,
 * as a concurrent request would between the key's lookup and the insert.
 */
function purchasesWith(
  opts: {
    beforePlace?: (stored: Map<number, OrderRecord>) => void;
    /** How the key's claim finds this call (@qm/platform runOwnRecord); a first run holds it. */
    attempt?: OwnRecordAttempt;
  } = {},
) {
  const attempt = opts.attempt ?? { rerun: false, holder: true };
  const idempotency = {
    runOwnRecord: (_scope, key, _request, fn) => fn(key ? attempt : { rerun: false, holder: true }),
    inProgress: () => new AppError(GrpcStatus.ABORTED, MSG.idempotencyInProgress),
  } as Idempotency;
  const stored = new Map<number, OrderRecord>();
  let price = 500;
  const orders = {
    place: jest.fn((o: NewOrder) => {
      opts.beforePlace?.(stored);
      const id = stored.size + 1;
      if (o.requestKey && [...stored.values()].some((s) => s.requestKey === o.requestKey))
        return Promise.reject(Object.assign(new Error('E11000 duplicate key'), { code: 11000 }));
      return Promise.resolve(stored.set(id, { ...o, id, reference: `order-${id}` }).get(id)!);
    }),
    byRequestKey: jest.fn((key: string) =>
      Promise.resolve([...stored.values()].find((o) => o.requestKey === key) ?? null),
    ),
    get: jest.fn((id: number) => Promise.resolve(stored.get(id) ?? null)),
  } as unknown as OrderStore & { get: jest.Mock; byRequestKey: jest.Mock; place: jest.Mock };
  const partners = {
    user: (id: number) => Promise.resolve(user(id, id === 1 ? 'Army' : 'Manufacturer')),
    product: (id: number) =>
      Promise.resolve({
        id,
        name: 'Boots',
        type: 'Other',
        description: '',
        pricePaise: price,
        stock: 9,
        manufacturerId: 2,
      }),
  } as unknown as Partners;
  const saga: Saga = {
    drive: jest.fn((o: OrderRecord) =>
      Promise.resolve({
        ...o,
        status: 'completed' as const,
        paymentStatus: 'paid' as const,
        step: 'done' as const,
      }),
    ),
  };
  const purchases = createPurchases({
    orders,
    partners,
    saga,
    idempotency,
    holdTimeoutSeconds: 60,
    refundWindowMs: 0,
  });
  const buy = (body: { quantity?: number; totalPaise?: number; key?: string } = {}) =>
    purchases.create(
      { userId: 1, username: 'user1', roles: ['Army'] },
      {
        productId: 7,
        quantity: body.quantity ?? 2,
        totalPaise: body.totalPaise ?? 1000,
        idempotencyKey: body.key ?? 'k1',
      },
    );
  return { orders, saga, buy, stored, setPrice: (p: number) => (price = p) };
}

const REPEAT = { rerun: true, holder: false };

describe('a purchase answers its order', () => {
  it('as its saga left it, without reading it again or looking for an earlier one on its key’s first run', async () => {
    const { orders, buy } = purchasesWith();
    await expect(buy()).resolves.toMatchObject({
      id: 1,
      reference: 'order-1',
      status: 'completed',
      totalPaise: 1000,
      requestKey: '1:k1',
    });
    expect(orders.get).not.toHaveBeenCalled();
    expect(orders.byRequestKey).not.toHaveBeenCalled();
  });

  it('without an Idempotency-Key, places one order a call', async () => {
    const { orders, buy, stored } = purchasesWith();
    await buy({ key: '' });
    await buy({ key: '' });
    expect(orders.byRequestKey).not.toHaveBeenCalled();
    expect(stored.size).toBe(2);
  });
});

describe('a purchase under an Idempotency-Key: its order is the record (docs/adr/045)', () => {
  /** A first purchase under k1, then the same store seen by a call the claim finds as `attempt`. */
  async function after(attempt: OwnRecordAttempt, price?: number) {
    const first = purchasesWith();
    const placed = await first.buy();
    const again = purchasesWith({ attempt });
    again.stored.set(placed.id, placed);
    if (price) again.setPrice(price);
    return { placed, again };
  }

  it('a repeat drives and answers the key’s order, even after the price changed, and places none', async () => {
    const { placed, again } = await after(REPEAT, 650);
    await expect(again.buy()).resolves.toMatchObject({ id: placed.id, totalPaise: 1000 });
    expect(again.orders.place).not.toHaveBeenCalled();
    expect(again.saga.drive).toHaveBeenCalledTimes(1);
  });

  it('a repeat that finds no order yet, its key still held, is told the request is still being processed', async () => {
    const { buy, stored } = purchasesWith({ attempt: REPEAT });
    await expect(buy()).rejects.toMatchObject({ message: MSG.idempotencyInProgress });
    expect(stored.size).toBe(0);
  });

  it('a run that took the key over drives the order the dead run placed, or places it', async () => {
    const { placed, again } = await after({ rerun: true, holder: true });
    await expect(again.buy()).resolves.toMatchObject({ id: placed.id });
    expect(again.orders.place).not.toHaveBeenCalled();
    const fresh = purchasesWith({ attempt: { rerun: true, holder: true } });
    await expect(fresh.buy()).resolves.toMatchObject({ id: 1 });
  });

  it('an order under the key with other terms refuses the request, naming them', async () => {
    const { again } = await after({ rerun: true, holder: true });
    await expect(again.buy({ quantity: 3, totalPaise: 1500 })).rejects.toMatchObject({
      message: MSG.idempotencyMismatch(['quantity', 'totalPrice']),
    });
    expect(again.stored.size).toBe(1);
  });

  it('a run that loses the insert to another holder of the key answers the order that won', async () => {
    const won = { ...(await purchasesWith().buy()), id: 41, reference: 'order-41' };
    const racing = purchasesWith({
      attempt: { rerun: true, holder: true },
      // The other run's order lands between this one's lookup and its insert.
      beforePlace: (stored) => void stored.set(won.id, won),
    });
    await expect(racing.buy()).resolves.toMatchObject({ id: 41, reference: 'order-41' });
    expect(racing.orders.byRequestKey).toHaveBeenCalledTimes(2);
    expect(racing.stored.size).toBe(1);
  });
});
