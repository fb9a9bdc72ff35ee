import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import type { Logger, Outbox } from '@qm/platform';
import type { Partners } from '../src/app/partners';
import { createSaga } from '../src/app/saga';
import type { OrderRecord, SagaStep } from '../src/domain/order';
import type { OrderStore } from '../src/store/orders';

const party = (id: number, role: string) => ({ id, username: `user${id}`, name: `User ${id}`, role });

const pendingOrder = (step: SagaStep): OrderRecord => ({
  id: 1,
  reference: 'order-1',
  productId: 3,
  buyerId: 7,
  sellerId: 9,
  quantity: 1,
  unitPricePaise: 500,
  totalPaise: 500,
  status: 'pending',
  paymentStatus: 'pending',
  step,
  cancelReason: '',
  product: { name: 'Radio', type: 'Equipment', description: '' },
  buyerDetails: { name: 'User 7', role: 'Army', email: 'u7@test.local', phone: '' },
  buyer: party(7, 'Army'),
  seller: party(9, 'Manufacturer'),
  deadlineAt: new Date(Date.now() + 60_000),
  createdAt: new Date(),
  updatedAt: new Date(),
});

/**
 * The saga over an in-memory order and partners that record their calls; `productThere` is whether
 * catalog still has the product when asked for it.
 */
function sagaWith(opts: { productThere: boolean; pauseBeforePaymentMs?: number }) {
  const calls: string[] = [];
  const stored = new Map<number, OrderRecord>();
  const orders = {
    advance: (id: number, from: SagaStep, set: Partial<OrderRecord>) => {
      const o = stored.get(id)!;
      if (o.step !== from) return Promise.resolve({ moved: false, order: o });
      const moved = { ...o, ...set, updatedAt: new Date() };
      stored.set(id, moved);
      return Promise.resolve({ moved: true, order: moved });
    },
  } as unknown as OrderStore;
  const called =
    (name: string) =>
    (..._args: unknown[]) => {
      calls.push(name);
      return Promise.resolve();
    };
  const partners = {
    product: (id: number) => {
      calls.push('product');
      return Promise.resolve(
        opts.productThere
          ? {
              id,
              name: 'Radio',
              type: 'Equipment',
              description: '',
              pricePaise: 500,
              stock: 4,
              manufacturerId: 9,
            }
          : null,
      );
    },
    reserve: called('reserve'),
    pay: called('pay'),
    commit: called('commit'),
    cancelPayment: called('cancelPayment'),
    release: called('release'),
  } as unknown as Partners;
  const outbox = { run: (_events: unknown, change: () => Promise<unknown>) => change() } as Outbox;
  const log = { warn: jest.fn(), error: jest.fn() } as unknown as Logger;
  const saga = createSaga({
    orders,
    partners,
    outbox,
    log,
    holdTimeoutSeconds: 60,
    pauseBeforePaymentMs: opts.pauseBeforePaymentMs,
  });
  const drive = (o: OrderRecord) => {
    stored.set(o.id, o);
    return saga.drive(o);
  };
  return { calls, drive };
}

describe('the purchase saga asks catalog for the product only when it may have gone (docs/adr/046)', () => {
  it('a purchase driven from its reservation pays without asking for the product again', async () => {
    const { calls, drive } = sagaWith({ productThere: true });
    const o = await drive(pendingOrder('reserve'));
    expect(o).toMatchObject({ step: 'done', status: 'completed', paymentStatus: 'paid' });
    expect(calls).toEqual(['reserve', 'pay', 'commit']);
  });

  it('an order resumed at its payment asks, and is cancelled with its stock released when the product is gone', async () => {
    const { calls, drive } = sagaWith({ productThere: false });
    const o = await drive(pendingOrder('hold'));
    expect(o).toMatchObject({ step: 'done', status: 'cancelled', cancelReason: MSG.productNotFound });
    expect(calls).toEqual(['product', 'cancelPayment', 'release']);
  });

  it('an order resumed at its payment with the product still there is paid', async () => {
    const { calls, drive } = sagaWith({ productThere: true });
    const o = await drive(pendingOrder('hold'));
    expect(o).toMatchObject({ status: 'completed' });
    expect(calls).toEqual(['product', 'pay', 'commit']);
  });

  it('a pause between the reservation and the payment makes it ask again', async () => {
    const { calls, drive } = sagaWith({ productThere: false, pauseBeforePaymentMs: 1 });
    const o = await drive(pendingOrder('reserve'));
    expect(o).toMatchObject({ status: 'cancelled', cancelReason: MSG.productNotFound });
    expect(calls).toEqual(['reserve', 'product', 'cancelPayment', 'release']);
  });
});
