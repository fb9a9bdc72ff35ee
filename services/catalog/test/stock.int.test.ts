import { GrpcStatus } from '@qm/platform';
import { INTERNAL_TOKEN, json, product, type Stack, startStack } from './harness';

/**
 * Stock movements (docs/adr/010) against the real service, database and NATS: the owner sets its
 * stock; only the orders service, proven by its service identity, reserves, releases and commits.
 */
jest.setTimeout(60_000);

describe('catalog stock: who may move it, and reservations', () => {
  let s: Stack;
  let orders: ReturnType<Stack['asService']>;

  beforeAll(async () => {
    s = await startStack();
    orders = s.asService({ service: 'orders', token: INTERNAL_TOKEN });
  });
  afterAll(() => s?.stop());

  async function create(stock: number) {
    const res = await s.http('maker', 'POST', '/api/products', product({ stock }));
    expect(res.status).toBe(201);
    return (await json(res)) as { id: number; stock: number; version: number };
  }
  const stockOf = async (id: number) =>
    (await s.catalog.rt.conn.collection('products').findOne({ id }))!.stock;
  let n = 0;
  const ref = () => `order-${process.pid}-${Date.now()}-${++n}`;

  it('only the owning manufacturer sets stock: a buyer, an admin or another manufacturer is PERMISSION_DENIED', async () => {
    const p = await create(5);
    for (const who of ['army', 'admin', 'rival'] as const) {
      await expect(s.grpc(who, 'adjustStock', { id: p.id, delta: -1 })).rejects.toMatchObject({
        code: GrpcStatus.PERMISSION_DENIED,
        details: 'You can only change the stock of your own products',
      });
      await expect(
        s.grpc(who, 'updateProduct', { id: p.id, stock: 0, version: p.version }),
      ).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    }
    // Not even the orders service: it moves stock through reservations only.
    await expect(orders.adjustStock({ id: p.id, delta: -1 })).rejects.toMatchObject({
      code: GrpcStatus.UNAUTHENTICATED,
    });
    expect(await stockOf(p.id)).toBe(5);
    expect((await s.grpc('maker', 'adjustStock', { id: p.id, delta: 2 })).product!.stock).toBe(7);
  });

  it("keeps the stock its owner supplied: the owner's adjustments and settings move it, purchases do not", async () => {
    const p = await create(10);
    const supplied = async () =>
      (await s.catalog.rt.conn.collection('products').findOne({ id: p.id }))!.suppliedStock as number;
    expect(await supplied()).toBe(10);
    await s.grpc('maker', 'adjustStock', { id: p.id, delta: 5 });
    const sold = ref();
    await orders.reserveStock({ productId: p.id, quantity: 3, reference: sold, ttlSeconds: 0 });
    await orders.commitStock({ reference: sold });
    const released = ref();
    await orders.reserveStock({ productId: p.id, quantity: 2, reference: released, ttlSeconds: 0 });
    await orders.releaseStock({ reference: released });
    expect([await stockOf(p.id), await supplied()]).toEqual([12, 15]);
    // The owner sets 4 on top of the 3 sold: 7 supplied in all.
    const { product: now } = await s.grpc('maker', 'getProduct', { id: p.id, recordView: false });
    await s.grpc('maker', 'updateProduct', { id: p.id, stock: 4, version: now!.version });
    await s.grpc('maker', 'adjustStock', { id: p.id, delta: -1 });
    expect([await stockOf(p.id), await supplied()]).toEqual([3, 6]);
  });

  it('reserve, release and commit without the orders identity are PERMISSION_DENIED, and move nothing', async () => {
    const p = await create(5);
    const reference = ref();
    const reserved = await orders.reserveStock({ productId: p.id, quantity: 1, reference, ttlSeconds: 0 });
    expect(reserved.product!.stock).toBe(4);
    // No identity, the right name with another token, another service with the right token.
    const impostors = [
      s.asService(undefined),
      s.asService({ service: 'orders', token: 'not-the-internal-token-but-long-enough' }),
      s.asService({ service: 'wallet', token: INTERNAL_TOKEN }),
    ];
    const denied = {
      code: GrpcStatus.PERMISSION_DENIED,
      details: 'Only the orders service can reserve, release or commit stock',
    };
    // A user of any role, the product's owner included (all the gateway can pass on).
    for (const who of ['army', 'maker'] as const) {
      await expect(
        s.grpc(who, 'reserveStock', { productId: p.id, quantity: 1, reference: ref(), ttlSeconds: 0 }),
      ).rejects.toMatchObject(denied);
      await expect(s.grpc(who, 'releaseStock', { reference })).rejects.toMatchObject(denied);
      await expect(s.grpc(who, 'commitStock', { reference })).rejects.toMatchObject(denied);
    }
    for (const client of impostors) {
      await expect(
        client.reserveStock({ productId: p.id, quantity: 1, reference: ref(), ttlSeconds: 0 }),
      ).rejects.toMatchObject(denied);
      await expect(client.releaseStock({ reference })).rejects.toMatchObject(denied);
      await expect(client.commitStock({ reference })).rejects.toMatchObject(denied);
    }
    expect(await stockOf(p.id)).toBe(4);
  });

  it('a reservation records its reference, quantity and expiry; repeating it takes nothing more', async () => {
    const p = await create(10);
    const reference = ref();
    const before = Date.now();
    const first = await orders.reserveStock({ productId: p.id, quantity: 3, reference, ttlSeconds: 600 });
    expect(first.product!.stock).toBe(7);
    expect(first.reservation).toMatchObject({ reference, productId: p.id, quantity: 3, state: 'reserved' });
    const expiresAt = new Date(first.reservation!.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 600_000);
    expect(expiresAt).toBeLessThan(Date.now() + 600_000 + 1000);
    const again = await orders.reserveStock({ productId: p.id, quantity: 3, reference, ttlSeconds: 600 });
    expect(again.reservation).toEqual(first.reservation);
    expect(await stockOf(p.id)).toBe(7);
    // The same reference for another movement is refused rather than taken as a repeat.
    await expect(
      orders.reserveStock({ productId: p.id, quantity: 4, reference, ttlSeconds: 600 }),
    ).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
    expect(await stockOf(p.id)).toBe(7);
  });

  it('a release with an unknown reference is refused and puts nothing back', async () => {
    const p = await create(4);
    await orders.reserveStock({ productId: p.id, quantity: 1, reference: ref(), ttlSeconds: 0 });
    await expect(orders.releaseStock({ reference: `never-reserved-${ref()}` })).rejects.toMatchObject({
      code: GrpcStatus.NOT_FOUND,
      details: 'No reservation with this reference',
    });
    await expect(orders.releaseStock({ reference: '' })).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    expect(await stockOf(p.id)).toBe(3);
  });

  it('a second release of the same reference has no second effect, even when 10 arrive at once', async () => {
    const p = await create(10);
    const reference = ref();
    await orders.reserveStock({ productId: p.id, quantity: 3, reference, ttlSeconds: 0 });
    const released = await orders.releaseStock({ reference });
    expect(released.product!.stock).toBe(10);
    expect(released.reservation!.state).toBe('released');
    const again = await orders.releaseStock({ reference });
    expect(again.reservation!.state).toBe('released');
    expect(await stockOf(p.id)).toBe(10);

    const concurrent = ref();
    await orders.reserveStock({ productId: p.id, quantity: 4, reference: concurrent, ttlSeconds: 0 });
    expect(await stockOf(p.id)).toBe(6);
    const all = await Promise.all(
      Array.from({ length: 10 }, () => orders.releaseStock({ reference: concurrent })),
    );
    expect(all.every((r) => r.reservation!.state === 'released')).toBe(true);
    expect(await stockOf(p.id)).toBe(10);
    // Released stock is not sold: it can no longer be committed.
    await expect(orders.commitStock({ reference: concurrent })).rejects.toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
    });
  });

  it('a committed reservation stays taken: commit is idempotent and a later release is refused', async () => {
    const p = await create(5);
    const reference = ref();
    await orders.reserveStock({ productId: p.id, quantity: 2, reference, ttlSeconds: 0 });
    expect((await orders.commitStock({ reference })).reservation!.state).toBe('committed');
    expect((await orders.commitStock({ reference })).reservation!.state).toBe('committed');
    await expect(orders.releaseStock({ reference })).rejects.toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: 'This reservation was committed and can no longer be released',
    });
    await expect(orders.commitStock({ reference: `never-reserved-${ref()}` })).rejects.toMatchObject({
      code: GrpcStatus.NOT_FOUND,
    });
    expect(await stockOf(p.id)).toBe(3);
  });

  it('reserving beyond stock is refused; 50 concurrent reservations of 20 in stock: exactly 20, never below 0', async () => {
    const p = await create(20);
    await expect(
      orders.reserveStock({ productId: p.id, quantity: 21, reference: ref(), ttlSeconds: 0 }),
    ).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, details: 'Insufficient stock' });
    expect(await stockOf(p.id)).toBe(20);

    const refs = Array.from({ length: 50 }, () => ref());
    const outcomes = await Promise.allSettled(
      refs.map((reference) =>
        orders.reserveStock({ productId: p.id, quantity: 1, reference, ttlSeconds: 0 }),
      ),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(ok).toHaveLength(20);
    for (const r of refused)
      expect(r.reason).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, details: 'Insufficient stock' });
    for (const o of ok) expect(o.value.product!.stock).toBeGreaterThanOrEqual(0);
    expect(await stockOf(p.id)).toBe(0);
    // A refused reservation stays refused; it holds nothing to release.
    const rejected = refs[outcomes.findIndex((o) => o.status === 'rejected')]!;
    await expect(
      orders.reserveStock({ productId: p.id, quantity: 1, reference: rejected, ttlSeconds: 0 }),
    ).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
    await expect(orders.releaseStock({ reference: rejected })).rejects.toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
    });
    expect(await stockOf(p.id)).toBe(0);
  });
});
