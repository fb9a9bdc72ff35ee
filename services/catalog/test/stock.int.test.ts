import { CATALOG_SUBJECTS as SUBJECTS, type ProductUpdatedData } from '@qm/contracts/events';
import { GrpcStatus, makeEvent } from '@qm/platform';
import { eventually } from '@qm/testkit';
import { confirmer } from '../src/events/catalog-events';
import { createProductStore } from '../src/store/products';
import { createReservationStore } from '../src/store/reservations';
import { INTERNAL_TOKEN, json, listen, product, type Stack, startStack } from './harness';

/**
 * Stock movements (docs/adr/010) against the real service, database and NATS: the owner sets its
 * stock; only the orders service, proven by its service identity, reserves, releases, commits and
 * returns (a refund's, docs/adr/028).
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
      details: 'Only the orders service can reserve, release, commit or return stock',
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

  // docs/adr/050: only the catalog's replicas and the browsers' live feeds hear a stock movement, as it passes.
  it('a reservation and its release are notices: heard as they pass, written to no outbox, kept by no stream', async () => {
    const heard = await listen([SUBJECTS.updated]);
    const { bus, conn } = s.catalog.rt;
    const p = await create(5);
    // The outbox's own collection object (the connection keeps one per name).
    const written = jest.spyOn(conn.collection('outbox'), 'insertMany');
    try {
      const reference = ref();
      const stream = bus.stream('QM_CATALOG');
      const held = async () => (await bus.jsm.streams.info(stream)).state.messages;
      const before = await held();
      await orders.reserveStock({ productId: p.id, quantity: 2, reference, ttlSeconds: 0 });
      await orders.releaseStock({ reference });
      const moves = () =>
        heard.seen
          .map((e) => e.event.data as ProductUpdatedData)
          .filter((d) => d.reference === reference)
          .map((d) => [d.movement, d.stockDelta]);
      await eventually(() => moves().length === 2);
      expect(moves()).toEqual([
        ['reserve', -2],
        ['release', 2],
      ]);
      expect(await held()).toBe(before);
      expect(written).not.toHaveBeenCalled();
    } finally {
      written.mockRestore();
      await heard.close();
    }
  });

  describe('returns of sold stock (refunds, docs/adr/028)', () => {
    let events: Awaited<ReturnType<typeof listen>>;

    beforeAll(async () => {
      events = await listen([SUBJECTS.updated]);
    });
    afterAll(() => events?.close());

    /** A product of `stock` units, `quantity` of them sold (reserved and committed) under a new reference. */
    async function sold(stock: number, quantity: number) {
      const p = await create(stock);
      const reference = ref();
      await orders.reserveStock({ productId: p.id, quantity, reference, ttlSeconds: 0 });
      await orders.commitStock({ reference });
      return { p, reference };
    }
    const stateOf = async (reference: string) =>
      (await s.catalog.rt.conn
        .collection<{ _id: string; state: string }>('stock_reservations')
        .findOne({ _id: reference }))!.state;
    const returns = (reference: string) =>
      events.seen
        .map((e) => e.event.data as ProductUpdatedData)
        .filter((d) => d.reference === reference && d.movement === 'return');
    /** The event a process that died mid-return may have left pending in its outbox. */
    const pendingReturn = (p: { id: number }, reference: string, quantity: number) =>
      makeEvent(SUBJECTS.updated, {
        id: p.id,
        manufacturerId: 0,
        stockDelta: quantity,
        reference,
        movement: 'return',
        updatedAt: new Date().toISOString(),
      });
    /** The outbox relay's judgement of such an event: did its change happen? */
    function confirm(event: ReturnType<typeof makeEvent>) {
      const { conn } = s.catalog.rt;
      const store = createProductStore(conn);
      return confirmer(store, createReservationStore(conn, store))(event, SUBJECTS.updated);
    }

    it('a sold reservation returned puts its quantity back once, announced once and shown at once', async () => {
      const { p, reference } = await sold(10, 3);
      expect(await stockOf(p.id)).toBe(7);
      const first = await orders.returnStock({ reference });
      expect(first).toMatchObject({ returned: true, quantity: 3 });
      expect(first.reservation).toMatchObject({ reference, productId: p.id, quantity: 3, state: 'returned' });
      expect(await orders.returnStock({ reference })).toEqual(first);
      expect(await stockOf(p.id)).toBe(10);
      // Back on the market pages, and the stock supplied is untouched (nothing was sold in the end).
      expect((await json(await s.http('army', 'GET', `/api/products/${p.id}`))).stock).toBe(10);
      const doc = await s.catalog.rt.conn.collection('products').findOne({ id: p.id });
      expect(doc!.suppliedStock).toBe(10);
      await eventually(() => returns(reference).length > 0);
      expect(returns(reference)).toEqual([expect.objectContaining({ id: p.id, stockDelta: 3 })]);
      // Returned stock is no longer sold: it can neither be committed again nor released.
      await expect(orders.commitStock({ reference })).rejects.toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        details: 'This reservation was returned and can no longer be committed',
      });
      await expect(orders.releaseStock({ reference })).rejects.toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
      });
      expect(await stockOf(p.id)).toBe(10);
    });

    it('10 returns of the same reference at once put the units back once, with one event', async () => {
      const { p, reference } = await sold(10, 4);
      const all = await Promise.all(Array.from({ length: 10 }, () => orders.returnStock({ reference })));
      for (const r of all) expect(r).toMatchObject({ returned: true, quantity: 4 });
      expect(all.every((r) => r.reservation!.state === 'returned')).toBe(true);
      expect(await stockOf(p.id)).toBe(10);
      await eventually(() => returns(reference).length > 0);
      // Past the outbox relay's interval: the calls that moved nothing left nothing to publish.
      await new Promise((r) => setTimeout(r, 1500));
      expect(returns(reference)).toHaveLength(1);
    });

    it('the sale of a product deleted since answers returned=false, puts nothing back and is returned', async () => {
      const { p, reference } = await sold(5, 2);
      expect((await s.http('maker', 'DELETE', `/api/products/${p.id}`)).status).toBe(200);
      const first = await orders.returnStock({ reference });
      expect(first).toMatchObject({ returned: false, quantity: 2, reservation: { state: 'returned' } });
      expect(await orders.returnStock({ reference })).toEqual(first);
      expect(await s.catalog.rt.conn.collection('products').findOne({ id: p.id })).toBeNull();
      expect(await stateOf(reference)).toBe('returned');
    });

    it('only sold stock can be returned: reserved, released or refused is FAILED_PRECONDITION, unknown NOT_FOUND', async () => {
      const p = await create(10);
      const reserved = ref();
      await orders.reserveStock({ productId: p.id, quantity: 2, reference: reserved, ttlSeconds: 0 });
      const released = ref();
      await orders.reserveStock({ productId: p.id, quantity: 3, reference: released, ttlSeconds: 0 });
      await orders.releaseStock({ reference: released });
      const refused = ref();
      await expect(
        orders.reserveStock({ productId: p.id, quantity: 11, reference: refused, ttlSeconds: 0 }),
      ).rejects.toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
      for (const reference of [reserved, released, refused])
        await expect(orders.returnStock({ reference })).rejects.toMatchObject({
          code: GrpcStatus.FAILED_PRECONDITION,
          details: 'Only sold stock can be returned: this reservation was never committed',
        });
      await expect(orders.returnStock({ reference: `never-reserved-${ref()}` })).rejects.toMatchObject({
        code: GrpcStatus.NOT_FOUND,
        details: 'No reservation with this reference',
      });
      await expect(orders.returnStock({ reference: '' })).rejects.toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
      });
      expect(await stockOf(p.id)).toBe(8);
      // Refused, the reservation is as it was: the reserved one can still be sold.
      expect([await stateOf(reserved), await stateOf(released)]).toEqual(['reserved', 'released']);
      expect((await orders.commitStock({ reference: reserved })).reservation!.state).toBe('committed');
    });

    it('a return without the orders identity is PERMISSION_DENIED, and puts nothing back', async () => {
      const { p, reference } = await sold(5, 2);
      const denied = {
        code: GrpcStatus.PERMISSION_DENIED,
        details: 'Only the orders service can reserve, release, commit or return stock',
      };
      for (const who of ['army', 'maker', 'admin'] as const)
        await expect(s.grpc(who, 'returnStock', { reference })).rejects.toMatchObject(denied);
      const impostors = [
        s.asService(undefined),
        s.asService({ service: 'orders', token: 'not-the-internal-token-but-long-enough' }),
        s.asService({ service: 'wallet', token: INTERNAL_TOKEN }),
      ];
      for (const client of impostors)
        await expect(client.returnStock({ reference })).rejects.toMatchObject(denied);
      expect(await stockOf(p.id)).toBe(3);
      expect(await stateOf(reference)).toBe('committed');
    });

    it('a return a process died in the middle of is finished by the next call, the units back once', async () => {
      const reservations = s.catalog.rt.conn.collection<{ _id: string }>('stock_reservations');
      const products = s.catalog.rt.conn.collection<{ id: number; movements: string[] }>('products');
      // Died after recording the return, before the stock moved: its pending event is dropped.
      const early = await sold(10, 3);
      await reservations.updateOne({ _id: early.reference }, { $set: { state: 'returning' } });
      const dropped = pendingReturn(early.p, early.reference, 3);
      expect(await confirm(dropped)).toBe(false);
      expect(await orders.returnStock({ reference: early.reference })).toMatchObject({ returned: true });
      expect([await stockOf(early.p.id), await stateOf(early.reference)]).toEqual([10, 'returned']);
      expect(await confirm(dropped)).toBe(true);

      // Died after the stock moved (the product records the movement's key with it), before the
      // return was recorded as done: the next call completes it without moving the stock again.
      const late = await sold(10, 3);
      await reservations.updateOne({ _id: late.reference }, { $set: { state: 'returning' } });
      await products.updateOne(
        { id: late.p.id },
        { $inc: { stock: 3, version: 1 }, $push: { movements: `return:${late.reference}` } },
      );
      expect(await confirm(pendingReturn(late.p, late.reference, 3))).toBe(true);
      expect(await orders.returnStock({ reference: late.reference })).toMatchObject({
        returned: true,
        quantity: 3,
        reservation: { state: 'returned' },
      });
      expect([await stockOf(late.p.id), await stateOf(late.reference)]).toEqual([10, 'returned']);
    });
  });
});
