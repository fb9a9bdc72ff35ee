import {
  ACTIVITY_SUBJECT,
  CATALOG_PRODUCT_NOTICES,
  CATALOG_SUBJECTS as SUBJECTS,
} from '@qm/contracts/events';
import { GrpcStatus, makeEvent } from '@qm/platform';
import { eventually, madeAgo } from '@qm/testkit';
import { callers, json, listen, product, type Stack, startStack } from './harness';

/**
 * The catalog service against the real database and NATS, driven through a real in-process gateway
 * (REST, zod validation, access rules) and straight over gRPC (the service's own checks).
 */
jest.setTimeout(60_000);

describe('catalog service (real database, NATS and gateway)', () => {
  let s: Stack;
  let events: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    events = await listen([CATALOG_PRODUCT_NOTICES, ACTIVITY_SUBJECT]);
    s = await startStack();
  });
  afterAll(async () => {
    await s?.stop();
    await events?.close();
  });

  async function create(body: Record<string, unknown> = {}, who: 'maker' | 'rival' | 'doomed' = 'maker') {
    const res = await s.http(who, 'POST', '/api/products', product(body));
    expect(res.status).toBe(201);
    return json(res);
  }

  /** The stored document itself (read through the service's own connection, in this process). */
  const stored = (id: number) => s.catalog.rt.conn.collection('products').findOne({ id });

  describe('creating', () => {
    it('creates a product owned by the caller, with the product reference shape and defaults', async () => {
      const p = await create({ name: '  Assault rifle  ', type: 'Weapon', price: '1250.5', stock: 12 });
      expect(p).toEqual({
        id: expect.any(Number),
        name: 'Assault rifle',
        type: 'Weapon',
        price: '1250.50',
        description: 'Gen 3 image intensifier',
        stock: 12,
        manufacturerId: callers.maker.userId,
        status: 'active',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        version: 1,
      });
      expect(new Date(p.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      const got = await json(await s.http('army', 'GET', `/api/products/${p.id}`));
      expect(got).toEqual(p);
    });

    it('accepts a JSON number price with up to two decimals, and defaults description and stock', async () => {
      const res = await s.http('maker', 'POST', '/api/products', {
        name: 'Helmet',
        type: 'Equipment',
        price: 99.9,
      });
      expect(res.status).toBe(201);
      expect(await json(res)).toMatchObject({ price: '99.90', stock: 0, description: '' });
    });

    it('gives numeric ids from a sequence', async () => {
      const a = await create({ name: 'First' });
      const b = await create({ name: 'Second' });
      expect(b.id).toBeGreaterThan(a.id);
    });

    it('ignores unknown and server-owned fields and never stores them', async () => {
      const p = await create({
        id: 999999,
        manufacturerId: callers.rival.userId,
        status: 'sold',
        createdAt: '2000-01-01T00:00:00.000Z',
        isAdmin: true,
        $where: 'sleep(1000)',
      });
      expect(p.id).not.toBe(999999);
      expect(p.manufacturerId).toBe(callers.maker.userId);
      expect(p.status).toBe('active');
      expect(p.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      const doc = await stored(p.id);
      expect(Object.keys(doc!).sort()).toEqual(
        [
          '_id',
          'createdAt',
          'description',
          'descriptionSearch',
          'id',
          'manufacturerId',
          'name',
          'nameSearch',
          'pricePaise',
          'status',
          'stock',
          'suppliedStock',
          'type',
          'updatedAt',
          'version',
        ].sort(),
      );
      expect(doc!.pricePaise).toBe(125000);
    });
  });

  describe('bounds, each with a clear message (gateway 400 and the service INVALID_ARGUMENT)', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['empty name', { name: '' }, 'Product name is required'],
      ['blank name', { name: '   ' }, 'Product name is required'],
      ['missing name', { name: undefined }, 'Product name is required'],
      ['201-character name', { name: 'x'.repeat(201) }, 'Product name must be at most 200 characters'],
      ['unknown type', { type: 'Tank' }, 'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other'],
      [
        'lower-case type',
        { type: 'weapon' },
        'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other',
      ],
      [
        'missing type',
        { type: undefined },
        'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other',
      ],
      ['negative price', { price: '-1.00' }, 'Price must be between ₹0 and ₹9,99,99,999.99'],
      ['price above the limit', { price: '100000000.00' }, 'Price must be between ₹0 and ₹9,99,99,999.99'],
      [
        'three decimals',
        { price: '10.999' },
        'Price must be a number with at most two decimals, e.g. 1250.00',
      ],
      [
        'number with three decimals',
        { price: 10.999 },
        'Price must be a number with at most two decimals, e.g. 1250.00',
      ],
      ['text price', { price: 'ten' }, 'Price must be a number with at most two decimals, e.g. 1250.00'],
      ['exponent price', { price: '1e5' }, 'Price must be a number with at most two decimals, e.g. 1250.00'],
      ['missing price', { price: undefined }, 'Price is required'],
      ['negative stock', { stock: -1 }, 'Stock must be between 0 and 1,000,000'],
      ['stock above the limit', { stock: 1_000_001 }, 'Stock must be between 0 and 1,000,000'],
      ['fractional stock', { stock: 1.5 }, 'Stock must be a whole number'],
      ['text stock', { stock: 'many' }, 'Stock must be a whole number'],
      [
        '5,001-character description',
        { description: 'd'.repeat(5001) },
        'Description must be at most 5,000 characters',
      ],
    ];

    it.each(cases)('POST refuses %s', async (_name, body, message) => {
      const res = await s.http('maker', 'POST', '/api/products', product(body));
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message });
    });

    it('accepts the edges of every bound', async () => {
      const p = await create({
        name: 'n'.repeat(200),
        price: '99999999.99',
        stock: 1_000_000,
        description: 'd'.repeat(5000),
      });
      expect(p).toMatchObject({ price: '99999999.99', stock: 1_000_000 });
      expect(p.name).toHaveLength(200);
      expect(p.description).toHaveLength(5000);
      const free = await create({ price: '0', stock: 0 });
      expect(free).toMatchObject({ price: '0.00', stock: 0 });
      // 200 characters, 400 UTF-16 units: characters are what count.
      const emoji = await create({ name: '🚀'.repeat(200) });
      expect([...emoji.name]).toHaveLength(200);
    });

    it('PATCH applies the same bounds, and refuses an empty change', async () => {
      const p = await create();
      for (const [, body, message] of cases.filter(
        ([, b]) => !('type' in b) && Object.values(b)[0] !== undefined,
      )) {
        const res = await s.http('maker', 'PATCH', `/api/products/${p.id}`, { ...body, version: p.version });
        expect([res.status, (await json(res)).message]).toEqual([400, message]);
      }
      const empty = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        type: 'Weapon',
        foo: 1,
        version: p.version,
      });
      expect(empty.status).toBe(400);
      expect(await json(empty)).toEqual({
        message: 'Nothing to update: send name, description, price or stock',
      });
      expect((await json(await s.http('maker', 'GET', `/api/products/${p.id}`))).updatedAt).toBe(p.updatedAt);
    });

    it('the service itself refuses out-of-bounds values that bypass the gateway', async () => {
      const ok = { name: 'Radio', type: 3, pricePaise: 100, description: '', stock: 1 };
      const bad: [Record<string, unknown>, string][] = [
        [{ name: '  ' }, 'Product name is required'],
        [{ name: 'x'.repeat(201) }, 'Product name must be at most 200 characters'],
        [{ type: 0 }, 'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other'],
        [{ type: 9 }, 'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other'],
        [{ pricePaise: -1 }, 'Price must be between ₹0 and ₹9,99,99,999.99'],
        [{ pricePaise: 10_000_000_000 }, 'Price must be between ₹0 and ₹9,99,99,999.99'],
        [{ stock: -1 }, 'Stock must be between 0 and 1,000,000'],
        [{ stock: 1_000_001 }, 'Stock must be between 0 and 1,000,000'],
        [{ description: 'd'.repeat(5001) }, 'Description must be at most 5,000 characters'],
      ];
      for (const [override, message] of bad) {
        await expect(s.grpc('maker', 'createProduct', { ...ok, ...override } as never)).rejects.toMatchObject(
          {
            code: GrpcStatus.INVALID_ARGUMENT,
            details: message,
          },
        );
      }
      const p = await create();
      const { version } = p;
      await expect(s.grpc('maker', 'updateProduct', { id: p.id, stock: -5, version })).rejects.toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
        details: 'Stock must be between 0 and 1,000,000',
      });
      await expect(s.grpc('maker', 'updateProduct', { id: p.id, version })).rejects.toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
      });
      await expect(
        s.grpc('maker', 'updateProduct', { id: p.id, stock: 1, version: 0 }),
      ).rejects.toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
        details: 'Version is required: the version of the product the change is based on',
      });
    });
  });

  describe('who may do what', () => {
    it('anonymous callers get 401 on every product call', async () => {
      const p = await create();
      for (const [method, path, body] of [
        ['GET', '/api/products'],
        ['GET', `/api/products/${p.id}`],
        ['POST', '/api/products', product()],
        ['PATCH', `/api/products/${p.id}`, { stock: 1 }],
        ['DELETE', `/api/products/${p.id}`],
      ] as const) {
        const res = await s.http(undefined, method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 401]);
      }
      await expect(
        s.catalog.rt.conn.collection('products').countDocuments({ id: p.id, stock: p.stock }),
      ).resolves.toBe(1);
    });

    it('an Army user or an admin cannot create (403), in the gateway and in the service', async () => {
      for (const who of ['army', 'admin'] as const) {
        const res = await s.http(who, 'POST', '/api/products', product());
        expect(res.status).toBe(403);
        await expect(
          s.grpc(who, 'createProduct', { name: 'x', type: 1, pricePaise: 1, description: '', stock: 1 }),
        ).rejects.toMatchObject({
          code: GrpcStatus.PERMISSION_DENIED,
          details: 'Only manufacturers can create products',
        });
      }
    });

    it('another manufacturer cannot edit or delete a product (403), nor can an Army user or an admin', async () => {
      const p = await create({ stock: 7 });
      for (const who of ['rival', 'army', 'admin'] as const) {
        const edit = await s.http(who, 'PATCH', `/api/products/${p.id}`, {
          price: '1.00',
          stock: 0,
          version: p.version,
        });
        expect(edit.status).toBe(403);
        expect(await json(edit)).toEqual({ message: 'You can only edit your own products' });
        const del = await s.http(who, 'DELETE', `/api/products/${p.id}`);
        expect(del.status).toBe(403);
        expect(await json(del)).toEqual({ message: 'You can only delete your own products' });
        await expect(s.grpc(who, 'adjustStock', { id: p.id, delta: -1 })).rejects.toMatchObject({
          code: GrpcStatus.PERMISSION_DENIED,
          details: 'You can only change the stock of your own products',
        });
      }
      const after = await json(await s.http('maker', 'GET', `/api/products/${p.id}`));
      expect(after).toMatchObject({ price: '1250.00', stock: 7 });
    });

    it('every signed-in user reads: Army, other manufacturers and admins', async () => {
      const p = await create();
      for (const who of ['army', 'rival', 'admin'] as const) {
        const res = await s.http(who, 'GET', `/api/products/${p.id}`);
        expect(res.status).toBe(200);
        const list = await json(await s.http(who, 'GET', '/api/products'));
        expect(list.map((x: { id: number }) => x.id)).toContain(p.id);
      }
    });

    it('the owner edits (partially) and deletes; a missing product is 404 "Product not found"', async () => {
      const p = await create({ name: 'Old name', description: 'old', price: '10.00', stock: 3 });
      const res = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        name: ' New name ',
        price: 12.5,
        stock: '4',
        manufacturerId: callers.rival.userId,
        type: 'Weapon',
        version: p.version,
      });
      expect(res.status).toBe(200);
      const edited = await json(res);
      expect(edited).toMatchObject({
        id: p.id,
        name: 'New name',
        description: 'old',
        price: '12.50',
        stock: 4,
        type: 'Equipment',
        manufacturerId: callers.maker.userId,
        createdAt: p.createdAt,
        version: p.version + 1,
      });
      expect(edited.updatedAt >= p.updatedAt).toBe(true);
      const onlyDescription = await json(
        await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
          description: 'new',
          version: edited.version,
        }),
      );
      expect(onlyDescription).toMatchObject({
        name: 'New name',
        description: 'new',
        price: '12.50',
        stock: 4,
      });

      const del = await s.http('maker', 'DELETE', `/api/products/${p.id}`);
      expect(del.status).toBe(200);
      expect(await json(del)).toEqual({ message: 'Product deleted' });
      for (const [method, body] of [['GET'], ['PATCH', { stock: 1, version: 3 }], ['DELETE']] as const) {
        const gone = await s.http('maker', method, `/api/products/${p.id}`, body);
        expect(gone.status).toBe(404);
        expect(await json(gone)).toEqual({ message: 'Product not found' });
      }
      expect(await stored(p.id)).toBeNull();
      const list = await json(await s.http('army', 'GET', '/api/products'));
      expect(list.map((x: { id: number }) => x.id)).not.toContain(p.id);
    });
  });

  describe('events', () => {
    it('publishes created, updated and deleted, and records product_create/update/delete/view activity', async () => {
      const p = await create({ name: 'Evented' });
      // A read records nothing; the page records its view with an explicit POST (no writes on GET).
      await s.http('army', 'GET', `/api/products/${p.id}`);
      expect((await s.http('army', 'POST', `/api/products/${p.id}/views`)).status).toBeLessThan(300);
      await s.http('maker', 'PATCH', `/api/products/${p.id}`, { stock: 9, version: p.version });
      await s.http('maker', 'DELETE', `/api/products/${p.id}`);

      const mine = () =>
        events.seen.filter(
          (e) =>
            (e.event.data as { id?: number }).id === p.id ||
            String((e.event.data as { details?: string }).details).includes(`(ID ${p.id})`),
        );
      await eventually(() => mine().length >= 7 || undefined);
      const bySubject = (subject: string) => mine().filter((e) => e.subject === subject);
      expect(bySubject(SUBJECTS.created)[0]!.event).toMatchObject({
        type: SUBJECTS.created,
        id: expect.any(String),
        occurredAt: expect.any(String),
        data: {
          id: p.id,
          name: 'Evented',
          type: 'Equipment',
          pricePaise: 125000,
          manufacturerId: callers.maker.userId,
        },
      });
      expect(bySubject(SUBJECTS.updated)[0]!.event.data).toMatchObject({
        id: p.id,
        manufacturerId: callers.maker.userId,
        changes: { stock: 9 },
      });
      expect(bySubject(SUBJECTS.deleted)[0]!.event.data).toEqual({
        id: p.id,
        manufacturerId: callers.maker.userId,
        name: 'Evented',
        reason: 'owner',
      });
      const activity = bySubject('activity.recorded').map((e) => e.event.data);
      expect(activity).toEqual([
        {
          userId: callers.maker.userId,
          username: 'maker',
          action: 'product_create',
          details: `Created product "Evented" (ID ${p.id})`,
        },
        {
          userId: callers.army.userId,
          username: 'sepoy',
          action: 'product_view',
          details: `Viewed product "Evented" (ID ${p.id})`,
        },
        {
          userId: callers.maker.userId,
          username: 'maker',
          action: 'product_update',
          details: `Updated product "Evented" (ID ${p.id}): stock`,
        },
        {
          userId: callers.maker.userId,
          username: 'maker',
          action: 'product_delete',
          details: `Deleted product "Evented" (ID ${p.id})`,
        },
      ]);
      // Removed shortly after publishing, with the other runs' of the moment (docs/adr/052).
      await eventually(async () =>
        (await s.catalog.rt.conn.collection('outbox').countDocuments()) === 0 ? true : undefined,
      );
    });

    it("deletes a manufacturer's products when identity.user.deleted arrives, once however often delivered", async () => {
      const doomed = await Promise.all([create({ name: 'D1' }, 'doomed'), create({ name: 'D2' }, 'doomed')]);
      const survivor = await create({ name: 'Survivor' }, 'rival');
      // Published again past JetStream's duplicate window (another message id), as a relay retried
      // minutes later would: by then the event is minutes old, and its consumer looks for it.
      const event = madeAgo(
        3,
        makeEvent('identity.user.deleted', {
          userId: callers.doomed.userId,
          username: 'doomed',
          role: 'Manufacturer',
        }),
      );
      await events.bus.publish('identity.user.deleted', event);
      await events.bus.js.publish(events.bus.subject('identity.user.deleted'), JSON.stringify(event), {
        msgID: `${event.id}-again`,
      });

      await eventually(async () => {
        const list = await json(await s.http('army', 'GET', '/api/products'));
        return (
          !list.some((x: { manufacturerId: number }) => x.manufacturerId === callers.doomed.userId) ||
          undefined
        );
      });
      for (const p of doomed) {
        expect((await s.http('army', 'GET', `/api/products/${p.id}`)).status).toBe(404);
        expect(await stored(p.id)).toBeNull();
      }
      expect((await s.http('army', 'GET', `/api/products/${survivor.id}`)).status).toBe(200);
      await eventually(
        () =>
          events.seen.filter(
            (e) =>
              e.subject === SUBJECTS.deleted &&
              (e.event.data as { reason: string; manufacturerId: number }).reason === 'account-deleted' &&
              (e.event.data as { manufacturerId: number }).manufacturerId === callers.doomed.userId,
          ).length === 2 || undefined,
      );
      await eventually(async () =>
        (await s.catalog.rt.conn
          .collection('processed_events')
          .countDocuments({ _id: `${s.durable}:${event.id}` as never, state: 'done' })) === 1
          ? true
          : undefined,
      );
      // A new product of the same (recreated) id after the event stays: the event was handled once.
      const later = await create({ name: 'After' }, 'doomed');
      await new Promise((r) => setTimeout(r, 1000));
      expect((await s.http('army', 'GET', `/api/products/${later.id}`)).status).toBe(200);
    });
  });

  describe('stale edits (an edit never puts back what it read)', () => {
    it('of two edits from the same version only the first applies; the second is 409 / FAILED_PRECONDITION', async () => {
      const p = await create({ price: '10.00', stock: 5 });
      const first = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        price: '11.00',
        version: p.version,
      });
      expect(first.status).toBe(200);
      expect(await json(first)).toMatchObject({ price: '11.00', version: p.version + 1 });
      const second = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        price: '12.00',
        version: p.version,
      });
      expect(second.status).toBe(409);
      expect(await json(second)).toEqual({
        message: 'This product was changed by someone else. Reload it and try again.',
      });
      await expect(
        s.grpc('maker', 'updateProduct', { id: p.id, name: 'Late', version: p.version }),
      ).rejects.toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        details: 'This product was changed by someone else. Reload it and try again.',
      });
      expect(await stored(p.id)).toMatchObject({ pricePaise: 1100, name: p.name, version: p.version + 1 });
    });

    it('a price edit leaves a stock change made meanwhile alone: omitted stock is untouched, a stale one refused', async () => {
      const p = await create({ price: '10.00', stock: 5 });
      // A purchase (the owner's adjustment here) takes 2 while the Edit dialog is open at version 1.
      await s.grpc('maker', 'adjustStock', { id: p.id, delta: -2 });
      // The dialog of before, sending the stock it read: refused instead of putting 5 back.
      const stale = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        price: '9.00',
        stock: 5,
        version: p.version,
      });
      expect(stale.status).toBe(409);
      expect((await stored(p.id))!.stock).toBe(3);
      // Reloaded, sending only the price: the stock moved meanwhile stays as it is.
      const fresh = await json(await s.http('maker', 'GET', `/api/products/${p.id}`));
      expect(fresh).toMatchObject({ stock: 3, version: p.version + 1 });
      const res = await s.http('maker', 'PATCH', `/api/products/${p.id}`, {
        price: '9.00',
        version: fresh.version,
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ price: '9.00', stock: 3 });
      expect(await stored(p.id)).toMatchObject({ pricePaise: 900, stock: 3 });
    });

    it('the version is required: 400 with a clear message', async () => {
      const p = await create();
      for (const version of [undefined, 0, 'x', 1.5]) {
        const res = await s.http('maker', 'PATCH', `/api/products/${p.id}`, { price: '1.00', version });
        expect([res.status, (await json(res)).message]).toEqual([
          400,
          'Version is required: the version of the product the change is based on',
        ]);
      }
    });
  });

  describe('concurrency', () => {
    it('20 concurrent stock adjustments and 5 edits from the same version: no stock change lost, one edit at most', async () => {
      const p = await create({ stock: 100 });
      const adjustments = Array.from({ length: 20 }, (_, i) => (i % 2 ? 3 : -2));
      const edits = Array.from({ length: 5 }, (_, i) => ({
        name: `Renamed ${i}`,
        price: `${100 + i}.00`,
        version: p.version,
      }));
      const results = await Promise.all([
        ...adjustments.map((delta) => s.grpc('maker', 'adjustStock', { id: p.id, delta })),
        ...edits.map((body) => s.http('maker', 'PATCH', `/api/products/${p.id}`, body).then((r) => r.status)),
      ]);
      const statuses = results.slice(20) as number[];
      const applied = statuses.filter((st) => st === 200).length;
      expect(applied).toBeLessThanOrEqual(1);
      expect(statuses.filter((st) => st === 409)).toHaveLength(5 - applied);
      const expected = 100 + adjustments.reduce((a, b) => a + b, 0);
      const after = await json(await s.http('army', 'GET', `/api/products/${p.id}`));
      expect(after.stock).toBe(expected);
      expect((await stored(p.id))!.stock).toBe(expected);
      expect((await stored(p.id))!.version).toBe(1 + 20 + applied);
      // Never above the limit either.
      await expect(s.grpc('maker', 'adjustStock', { id: p.id, delta: 1_000_000 })).rejects.toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        details: 'Stock must be between 0 and 1,000,000',
      });
    });
  });
});
