import { catalogV1 } from '@qm/contracts/grpc';
import { type RunningService, startService } from '@qm/platform';
import { eventually, serviceTestEnv, testCallerSigner } from '@qm/testkit';
import { catalogService } from '../src/service';
import { callers, deleteConsumers, settle, json, type Stack, startStack } from './harness';

jest.setTimeout(60_000);

const T = catalogV1.ProductType;

/** name, type, description, manufacturer: regex metacharacters and mixed case on purpose. */
const CATALOGUE: [string, catalogV1.ProductType, string, 'maker' | 'rival'][] = [
  ['M4 (A1) carbine+', T.PRODUCT_TYPE_WEAPON, 'Compact rifle', 'maker'],
  ['Sniper rifle', T.PRODUCT_TYPE_WEAPON, 'Long range, THERMAL scope mount', 'rival'],
  ['Field kit [v2]', T.PRODUCT_TYPE_EQUIPMENT, 'First aid and tools', 'maker'],
  ['Night Vision Goggles', T.PRODUCT_TYPE_EQUIPMENT, 'Gen 3 thermal imaging', 'rival'],
  ['.50 cal rounds', T.PRODUCT_TYPE_AMMUNITION, 'Box of 100', 'maker'],
  ['Armoured truck', T.PRODUCT_TYPE_VEHICLE, 'Six wheels', 'rival'],
  ['ÑANDÚ boots', T.PRODUCT_TYPE_OTHER, 'Desert footwear', 'maker'],
  ['Rations pack', T.PRODUCT_TYPE_OTHER, 'Meals ready to eat', 'rival'],
  ['Signal flare', T.PRODUCT_TYPE_EQUIPMENT, 'Red smoke.*', 'maker'],
  ['Body armour', T.PRODUCT_TYPE_EQUIPMENT, 'Level IV plates', 'rival'],
  ['Jeep', T.PRODUCT_TYPE_VEHICLE, 'Light utility vehicle', 'maker'],
  ['9mm rounds', T.PRODUCT_TYPE_AMMUNITION, 'Box of 50', 'rival'],
];

describe.each(['memory', 'database'])('listing products (read model: %s)', (mode) => {
  let s: Stack;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    s = await startStack({ CATALOG_READ_MODEL: mode });
    for (const [name, type, description, who] of CATALOGUE) {
      const { product } = await s.grpc(who, 'createProduct', {
        name,
        type,
        description,
        pricePaise: 100,
        stock: 1,
      });
      ids[name] = product!.id;
    }
  });
  afterAll(() => s?.stop());

  const get = async (path: string) => {
    const res = await s.http('army', 'GET', path);
    return { status: res.status, total: res.headers.get('x-total-count'), body: await json(res) };
  };
  const names = (body: { name: string }[]) => body.map((p) => p.name);

  it('a plain GET /api/products is the whole list as an array, newest first', async () => {
    const { status, body, total } = await get('/api/products');
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(names(body)).toEqual(CATALOGUE.map(([n]) => n).reverse());
    expect(total).toBe(String(CATALOGUE.length));
    const idList = body.map((p: { id: number }) => p.id);
    expect(idList).toEqual([...idList].sort((a, b) => b - a));
  });

  it('serves the plain list from a cache that any change refreshes at once, with ETag revalidation', async () => {
    const first = await s.http('army', 'GET', '/api/products');
    const etag = first.headers.get('etag');
    const body = await json(first);
    if (mode === 'database') {
      // No catalogue-wide etag without the in-memory read model: every request reads afresh.
      expect(etag).toBeNull();
      return;
    }
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await s.http('army', 'GET', '/api/products');
    expect(await json(again)).toEqual(body);
    const revalidated = await fetch(`${s.gatewayUrl}/api/products`, {
      headers: { 'x-test-user': 'army', 'if-none-match': etag! },
    });
    expect(revalidated.status).toBe(304);
    const gz = await fetch(`${s.gatewayUrl}/api/products`, {
      headers: { 'x-test-user': 'army', 'accept-encoding': 'gzip' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await json(gz)).toEqual(body);

    // A write is visible to the very next request, with a new etag; the old one no longer matches.
    const { product } = await s.grpc('maker', 'createProduct', {
      name: 'Fresh arrival',
      type: T.PRODUCT_TYPE_OTHER,
      pricePaise: 100,
      description: '',
      stock: 1,
    });
    const after = await fetch(`${s.gatewayUrl}/api/products`, {
      headers: { 'x-test-user': 'army', 'if-none-match': etag! },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect((await json(after))[0]).toMatchObject({ id: product!.id, name: 'Fresh arrival' });
    await s.grpc('maker', 'updateProduct', { id: product!.id, stock: 3, version: product!.version });
    expect((await json(await s.http('army', 'GET', '/api/products')))[0].stock).toBe(3);
    await s.grpc('maker', 'deleteProduct', { id: product!.id });
    expect(names(await json(await s.http('army', 'GET', '/api/products')))).toEqual(
      CATALOGUE.map(([n]) => n).reverse(),
    );
  });

  it('filters by type', async () => {
    const { body } = await get('/api/products?type=Weapon');
    expect(names(body).sort()).toEqual(['M4 (A1) carbine+', 'Sniper rifle']);
    expect((await get('/api/products?type=Vehicle')).body).toHaveLength(2);
  });

  it('searches names and descriptions case-insensitively', async () => {
    expect(names((await get('/api/products?q=thermal')).body).sort()).toEqual([
      'Night Vision Goggles',
      'Sniper rifle',
    ]);
    expect(names((await get('/api/products?q=NIGHT%20vision')).body)).toEqual(['Night Vision Goggles']);
    expect(names((await get('/api/products?q=%C3%B1and%C3%BA')).body)).toEqual(['ÑANDÚ boots']);
    expect(names((await get('/api/products?q=%20%20rounds%20')).body).sort()).toEqual([
      '.50 cal rounds',
      '9mm rounds',
    ]);
    expect((await get('/api/products?q=no-such-thing')).body).toEqual([]);
  });

  it('treats search text literally (regex characters are escaped)', async () => {
    expect(names((await get(`/api/products?q=${encodeURIComponent('(A1) carbine+')}`)).body)).toEqual([
      'M4 (A1) carbine+',
    ]);
    expect(names((await get(`/api/products?q=${encodeURIComponent('[v2]')}`)).body)).toEqual([
      'Field kit [v2]',
    ]);
    expect(names((await get(`/api/products?q=${encodeURIComponent('.*')}`)).body)).toEqual(['Signal flare']);
    expect(names((await get(`/api/products?q=${encodeURIComponent('.50')}`)).body)).toEqual([
      '.50 cal rounds',
    ]);
    expect((await get(`/api/products?q=${encodeURIComponent('^$|(')}`)).status).toBe(200);
  });

  it('combines type and search', async () => {
    expect(names((await get('/api/products?type=Equipment&q=thermal')).body)).toEqual([
      'Night Vision Goggles',
    ]);
    expect(names((await get('/api/products?type=Ammunition&q=box%20of%2050')).body)).toEqual(['9mm rounds']);
  });

  it('pages with X-Total-Count, without overlap or gaps', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const { body, total } = await get(`/api/products?page=${page}&pageSize=5`);
      expect(total).toBe(String(CATALOGUE.length));
      expect(body).toHaveLength(page < 3 ? 5 : 2);
      seen.push(...names(body));
    }
    expect(seen).toEqual(CATALOGUE.map(([n]) => n).reverse());
    const beyond = await get('/api/products?page=9&pageSize=5');
    expect([beyond.body, beyond.total]).toEqual([[], String(CATALOGUE.length)]);
    const filtered = await get('/api/products?type=Equipment&pageSize=2');
    expect([filtered.body.length, filtered.total]).toEqual([2, '4']);
  });

  it('refuses bad listing parameters with clear messages', async () => {
    const cases: [string, string][] = [
      ['?type=Tank', 'Type must be one of Weapon, Vehicle, Equipment, Ammunition, Other'],
      [`?q=${'x'.repeat(201)}`, 'Search text must be at most 200 characters'],
      ['?page=0', 'Page must be at least 1'],
      ['?page=x', 'Page must be a whole number'],
      ['?pageSize=101', 'Page size must be between 1 and 100'],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/products${query}`);
      expect([query, res.status, res.body]).toEqual([query, 400, { message }]);
    }
  });

  it('hands out the list in chunks over gRPC, each continuing where the last stopped', async () => {
    const chunks: number[][] = [];
    let beforeId = 0;
    for (;;) {
      const out = await s.grpc(
        'admin',
        'listProducts',
        catalogV1.ListProductsRequest.create({
          type: 0,
          query: '',
          manufacturerId: 0,
          ids: [],
          page: 0,
          pageSize: 5,
          beforeId,
        }),
      );
      expect(out.total).toBe(CATALOGUE.length);
      chunks.push(out.products.map((p) => p.id));
      if (!out.nextBeforeId) break;
      beforeId = out.nextBeforeId;
    }
    expect(chunks.map((c) => c.length)).toEqual([5, 5, 2]);
    expect(chunks.flat()).toEqual(CATALOGUE.map(([n]) => ids[n]).reverse());
    const mine = await s.grpc(
      'maker',
      'listProducts',
      catalogV1.ListProductsRequest.create({
        type: 0,
        query: '',
        manufacturerId: callers.maker.userId,
        ids: [],
        page: 1,
        pageSize: 100,
        beforeId: 0,
      }),
    );
    expect(mine.total).toBe(CATALOGUE.filter(([, , , who]) => who === 'maker').length);
    const some = await s.grpc(
      'maker',
      'listProducts',
      catalogV1.ListProductsRequest.create({
        type: 0,
        query: '',
        manufacturerId: 0,
        ids: [ids['Jeep']!, ids['9mm rounds']!, 987654321],
        page: 0,
        pageSize: 0,
        beforeId: 0,
      }),
    );
    expect(some.products.map((p) => p.name).sort()).toEqual(['9mm rounds', 'Jeep']);
  });
});

describe('in-memory read model across replicas', () => {
  it("a second replica sees the first one's creates, edits and deletes", async () => {
    const a = await startStack();
    const b = await startService(
      catalogService,
      serviceTestEnv(a.db, { GRPC_PORT: '0', CATALOG_USER_DELETED_DURABLE: `${a.durable}-b` }),
    );
    try {
      const { product } = await a.grpc('maker', 'createProduct', {
        name: 'Replicated',
        type: T.PRODUCT_TYPE_OTHER,
        pricePaise: 500,
        description: '',
        stock: 2,
      });
      const id = product!.id;
      const { createClient, runWithContext } = await import('@qm/platform');
      const client = createClient(catalogV1.CatalogServiceService, `127.0.0.1:${b.port}`, {
        signer: testCallerSigner,
      });
      const onB = () =>
        runWithContext({ requestId: 'replica-test', caller: callers.army }, () =>
          client.listProducts(
            catalogV1.ListProductsRequest.create({
              type: 0,
              query: 'replicated',
              manufacturerId: 0,
              ids: [],
              page: 1,
              pageSize: 10,
              beforeId: 0,
            }),
          ),
        );
      await eventually(async () => ((await onB()).products.length === 1 ? true : undefined));
      await a.grpc('maker', 'updateProduct', { id, stock: 7, version: product!.version });
      await eventually(async () => ((await onB()).products[0]?.stock === 7 ? true : undefined));
      await a.grpc('maker', 'deleteProduct', { id });
      await eventually(async () => ((await onB()).products.length === 0 ? true : undefined));
      client.close();
    } finally {
      await settle(b as RunningService<unknown>, `${a.durable}-b`);
      await b.stop();
      await a.stop();
      await deleteConsumers([`${a.durable}-b`]);
    }
  });
});
