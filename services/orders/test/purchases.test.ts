import type { Idempotency } from '@qm/platform';
import { createPurchases } from '../src/app/purchases';
import type { Partners } from '../src/app/partners';
import type { Saga } from '../src/app/saga';
import type { OrderRecord, UserFacts } from '../src/domain/order';
import type { OrderStore } from '../src/store/orders';

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

/** Purchases over in-memory partners and store, counting the store's reads of an order. */
function purchasesWith(idempotency: Idempotency, earlier: OrderRecord[] = []) {
  const stored = new Map<number, OrderRecord>(earlier.map((o) => [o.id, o]));
  const orders = {
    nextId: () => Promise.resolve(stored.size + 1),
    insert: (o: OrderRecord) => Promise.resolve(stored.set(o.id, o).get(o.id)!),
    byRequestKey: jest.fn((key: string) =>
      Promise.resolve([...stored.values()].find((o) => o.requestKey === key) ?? null),
    ),
    get: jest.fn((id: number) => Promise.resolve(stored.get(id) ?? null)),
  } as unknown as OrderStore & { get: jest.Mock; byRequestKey: jest.Mock };
  const partners = {
    user: (id: number) => Promise.resolve(user(id, id === 1 ? 'Army' : 'Manufacturer')),
    product: (id: number) =>
      Promise.resolve({
        id,
        name: 'Boots',
        type: 'Other',
        description: '',
        pricePaise: 500,
        stock: 9,
        manufacturerId: 2,
      }),
  } as unknown as Partners;
  const saga: Saga = {
    drive: (o) => Promise.resolve({ ...o, status: 'completed', paymentStatus: 'paid', step: 'done' }),
  };
  const purchases = createPurchases({
    orders,
    partners,
    saga,
    idempotency,
    holdTimeoutSeconds: 60,
    refundWindowMs: 0,
  });
  const buy = () =>
    purchases.create(
      { userId: 1, username: 'user1', roles: ['Army'] },
      { productId: 7, quantity: 2, totalPaise: 1000, idempotencyKey: 'k1' },
    );
  return { orders, buy, stored };
}

describe('a purchase answers its order', () => {
  it('as its saga left it, without reading it again', async () => {
    const runs: Idempotency = {
      run: (_s, _k, _r, fn) => fn({ rerun: false }),
      sweep: () => Promise.resolve(0),
    };
    const { orders, buy } = purchasesWith(runs);
    await expect(buy()).resolves.toMatchObject({ id: 1, status: 'completed', totalPaise: 1000 });
    expect(orders.get).not.toHaveBeenCalled();
  });

  it('as it is now when its key answers an earlier call', async () => {
    let first = true;
    const replays: Idempotency = {
      run: async (_s, _k, _r, fn) => {
        if (!first) return 1 as never;
        first = false;
        return fn({ rerun: false });
      },
      sweep: () => Promise.resolve(0),
    };
    const { orders, buy } = purchasesWith(replays);
    await buy();
    await expect(buy()).resolves.toMatchObject({ id: 1, status: 'pending' });
    expect(orders.get).toHaveBeenCalledWith(1);
  });
});

describe('a purchase under an Idempotency-Key', () => {
  const running = (rerun: boolean): Idempotency => ({
    run: (_s, _k, _r, fn) => fn({ rerun }),
    sweep: () => Promise.resolve(0),
  });

  it('places its order without looking for an earlier one on the key’s first run', async () => {
    const { orders, buy } = purchasesWith(running(false));
    await expect(buy()).resolves.toMatchObject({ id: 1, requestKey: '1:k1' });
    expect(orders.byRequestKey).not.toHaveBeenCalled();
  });

  it('drives on the order an earlier run placed when the key runs again', async () => {
    const first = purchasesWith(running(false));
    await first.buy();
    const again = purchasesWith(running(true), [...first.stored.values()]);
    await expect(again.buy()).resolves.toMatchObject({ id: 1 });
    expect(again.orders.byRequestKey).toHaveBeenCalledWith('1:k1');
    expect(again.stored.size).toBe(1);
  });
});
