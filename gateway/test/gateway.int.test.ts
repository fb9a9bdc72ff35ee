import type { AddressInfo } from 'node:net';
import { catalogV1 } from '@qm/contracts/grpc';
import { Metadata } from '@grpc/grpc-js';
import {
  createGrpcServer,
  DEV_CALLER_VERIFY_KEY,
  MD_CALLER,
  MD_SERVICE,
  MD_SERVICE_PROOF,
  notFound,
  signServiceIdentity,
  type GrpcServer,
  verifyKeyFrom,
} from '@qm/platform';
import { callerAssertion } from '@qm/testkit';
import { headerSessions, json, log, startGateway } from '@qm/testkit/src/gateway';

const army = { userId: 7, username: 'sepoy', roles: ['Army' as const] };
const maker = { userId: 2, username: 'forge', roles: ['Manufacturer' as const] };
const product: catalogV1.Product = {
  id: 1,
  name: 'Night vision goggles',
  type: catalogV1.ProductType.PRODUCT_TYPE_EQUIPMENT,
  pricePaise: 1250050,
  description: 'Gen 3',
  stock: 4,
  manufacturerId: 2,
  status: 'active',
  createdAt: '2026-11-22T00:00:00.000Z',
  updatedAt: '2026-11-22T00:00:00.000Z',
  version: 1,
};

/** The internal services' shared secret (the gateway itself never has it). */
const INTERNAL_TOKEN = 'internal-token-for-gateway-tests-0123456789';

/** A real gRPC catalog server whose answers the tests control. */
async function fakeCatalog(delayMs: () => number) {
  const grpc: GrpcServer = createGrpcServer(log, {
    internalToken: INTERNAL_TOKEN,
    name: 'catalog',
    callerKey: verifyKeyFrom(DEV_CALLER_VERIFY_KEY),
  });
  const seen: { requestId?: string; caller?: unknown; service?: string }[] = [];
  /** recordView of each GetProduct call. */
  const views: boolean[] = [];
  grpc.add('qm.catalog.v1.CatalogService', catalogV1.CatalogServiceService, {
    listProducts: async (_req, ctx) => {
      seen.push(ctx);
      // unref: a call the gateway gave up on keeps no timer alive after the suite.
      await new Promise((r) => setTimeout(r, delayMs()).unref());
      return { products: [product], total: 1, nextBeforeId: 0, etag: '', notModified: false };
    },
    getProduct: async (req) => {
      views.push(req.recordView);
      if (req.id !== 1) throw notFound('Product not found');
      return { product };
    },
    createProduct: async () => {
      await new Promise((r) => setTimeout(r, delayMs()).unref());
      return { product };
    },
    updateProduct: async () => ({ product }),
    deleteProduct: async () => ({}),
    adjustStock: async () => ({ product }),
    reserveStock: async () => ({ product }),
    releaseStock: async () => ({ product }),
    commitStock: async () => ({}),
    returnStock: async () => ({ returned: false, quantity: 0 }),
  });
  const port = await grpc.listen(0, '127.0.0.1');
  grpc.setServing(true);
  return { grpc, port, seen, views };
}

describe('gateway → gRPC (real servers on loopback)', () => {
  let delay = 0;
  let catalog: Awaited<ReturnType<typeof fakeCatalog>>;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${gw.url}${path}`, { ...init, headers: { 'x-test-user': 'army', ...(init.headers ?? {}) } });

  beforeAll(async () => {
    catalog = await fakeCatalog(() => delay);
    gw = await startGateway(
      // Long enough for the first call's channel set-up on a busy machine (300 ms was not, under CI load).
      { CATALOG_GRPC_ADDR: `127.0.0.1:${catalog.port}`, GRPC_DEADLINE_MS: '1000' },
      headerSessions({ army }),
    );
  });
  afterAll(async () => {
    await gw.stop();
    await catalog.grpc.close();
  });

  it('reads through gRPC, money as a two-decimal string, with request id and caller carried along', async () => {
    const res = await get('/api/products', { headers: { 'x-request-id': 'req-abcdef123' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-abcdef123');
    const body = await json(res);
    expect(body).toEqual([
      expect.objectContaining({ id: 1, type: 'Equipment', price: '12500.50', stock: 4 }),
    ]);
    expect(catalog.seen.at(-1)).toEqual({
      requestId: 'req-abcdef123',
      caller: army,
      assertion: expect.any(String),
    });
  });

  it('records a product view from its POST only, never from a GET (no state change on GET)', async () => {
    catalog.views.length = 0;
    expect((await get('/api/products/1')).status).toBe(200);
    expect(catalog.views).toEqual([false]);
    const viewed = await get('/api/products/1/views', { method: 'POST' });
    expect(viewed.status).toBe(204);
    expect(catalog.views).toEqual([false, true]);
    expect((await get('/api/products/99/views', { method: 'POST' })).status).toBe(404);
  });

  it('answers 401 without a session, before calling the service', async () => {
    const res = await fetch(`${gw.url}/api/products`);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: 'Not authenticated' });
  });

  it('maps a service NOT_FOUND to 404 with the service message', async () => {
    const res = await get('/api/products/99');
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Product not found' });
  });

  it('refuses bad input with a 400 and a clear message', async () => {
    const res = await get('/api/products/abc');
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/number/);
    const res2 = await get('/api/products?pageSize=1000');
    expect(res2.status).toBe(400);
    expect((await json(res2)).message).toBe('Page size must be between 1 and 100');
  });

  it.each(['/api/products/%zz', '/api/products/%', '/api/check-username/%E0%A4'])(
    'refuses the malformed escape in %s with a 400, not a 500',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: 'Malformed URL: invalid percent-encoding' });
    },
  );

  it('turns a gRPC deadline into a 504 instead of hanging', async () => {
    delay = 5000;
    const started = Date.now();
    const res = await get('/api/products');
    delay = 0;
    expect(res.status).toBe(504);
    expect((await json(res)).message).toMatch(/too long/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('answers unknown API paths with a JSON 404 and malformed JSON with a 400', async () => {
    const res = await get('/api/nope');
    expect(res.status).toBe(404);
    expect((await json(res)).message).toMatch(/No API route/);
    const bad = await get('/api/products', {
      method: 'POST',
      body: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ message: 'Request body is not valid JSON' });
  });

  it.each(['gzip', 'deflate', 'br'])(
    'refuses a body that is not the %s it claims with a 400',
    async (encoding) => {
      const res = await get('/api/products', {
        method: 'POST',
        body: '{"name":"x"}',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({
        message: 'Request body could not be decompressed as its Content-Encoding says',
      });
    },
  );

  it('refuses a cross-site state-changing request', async () => {
    const res = await get('/api/products', { method: 'POST', headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });

  it('never turns browser headers into a service identity or a caller, even correctly signed ones', async () => {
    const signed = signServiceIdentity(new Metadata(), { service: 'orders', token: INTERNAL_TOKEN });
    const admin = { userId: 1, username: 'admin', roles: ['Admin'] };
    const res = await get('/api/products', {
      headers: {
        [MD_SERVICE]: String(signed.get(MD_SERVICE)[0]),
        [MD_SERVICE_PROOF]: String(signed.get(MD_SERVICE_PROOF)[0]),
        [MD_CALLER]: await callerAssertion(admin, 'catalog'),
        'x-user-id': '1',
      },
    });
    expect(res.status).toBe(200);
    expect(catalog.seen.at(-1)).toMatchObject({ caller: army });
    expect(catalog.seen.at(-1)?.service).toBeUndefined();
  });

  it('publishes an OpenAPI 3.1 document generated from the route schemas, and a docs page', async () => {
    const doc = await json(await fetch(`${gw.url}/api/openapi.json`));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/products/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
    // An edit names the version it is based on, and a stale one is a documented 409.
    const patch = doc.paths['/api/products/{id}'].patch;
    expect(patch.requestBody.content['application/json'].schema.required).toEqual(['version']);
    expect(patch.responses['409'].description).toMatch(/changed by someone else/);
    const docs = await fetch(`${gw.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('is healthy, ready while its downstreams serve, and exposes metrics on the private port only', async () => {
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await json(ready)).checks).toEqual({ catalog: 'serving' });
    // The public port (the one the ingress routes) has no metrics.
    for (const accept of ['*/*', 'text/html', 'text/plain'])
      expect((await fetch(`${gw.url}/metrics`, { headers: { accept } })).status).toBe(404);
    expect(await scrape(gw)).toContain('http_request_duration_seconds_bucket');
  });
});

/** The gateway's private metrics app, served for one GET /metrics. */
async function scrape(gw: Awaited<ReturnType<typeof startGateway>>) {
  const server = gw.metrics.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    return await res.text();
  } finally {
    await new Promise((r) => server.close(r));
  }
}

/**
 * A gateway before a catalog whose calls take 300 ms, admitting one call at a time to it and none
 * waiting (in each of its lines), for `test`; both are stopped afterwards.
 */
async function withOneCallAtATime(
  test: (
    gw: Awaited<ReturnType<typeof startGateway>>,
    catalog: Awaited<ReturnType<typeof fakeCatalog>>,
  ) => Promise<void>,
) {
  const catalog = await fakeCatalog(() => 300);
  const gw = await startGateway(
    {
      CATALOG_GRPC_ADDR: `127.0.0.1:${catalog.port}`,
      ADMISSION_MAX_IN_FLIGHT: '1',
      ADMISSION_MAX_WAITING: '0',
    },
    headerSessions({ army, maker }),
  );
  try {
    await test(gw, catalog);
  } finally {
    await gw.stop();
    await catalog.grpc.close();
  }
}

describe('gateway admission control (docs/adr/026)', () => {
  it('refuses a call past the limit at once with 503 and Retry-After, without sending it', () =>
    withOneCallAtATime(async (gw, catalog) => {
      const get = () => fetch(`${gw.url}/api/products`, { headers: { 'x-test-user': 'army' } });
      const first = get();
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      const refused = await get();
      expect(Date.now() - started).toBeLessThan(250);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await json(refused)).toEqual({ message: 'The service is busy. Please try again in a moment.' });
      expect((await first).status).toBe(200);
      expect(catalog.seen).toHaveLength(1);
      // Its slot is free again.
      expect((await get()).status).toBe(200);
      // Operators see the refusal, the waits and the calls themselves on /metrics.
      const metrics = await scrape(gw);
      expect(metrics).toContain(
        'gateway_admission_refused_total{service="catalog",line="reads",reason="line-full"} 1',
      );
      expect(metrics).toContain('gateway_admission_wait_seconds_count{service="catalog",line="reads"} 2');
      expect(metrics).toMatch(
        /gateway_upstream_call_seconds_bucket\{le="0\.5",service="catalog",method="listProducts"\} 2/,
      );
      expect(metrics).toMatch(
        /gateway_upstream_call_seconds_bucket\{le="0\.25",service="catalog",method="listProducts"\} 0/,
      );
    }));
});

describe('gateway admission control: reads and changes each in their own line (docs/adr/041)', () => {
  it('serves a read while the changes to the same service fill their slots, and sheds the change past them', () =>
    withOneCallAtATime(async (gw) => {
      const create = () =>
        fetch(`${gw.url}/api/products`, {
          method: 'POST',
          headers: { 'x-test-user': 'maker', 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Field radio', type: 'Equipment', price: '100.00', stock: 1 }),
        });
      const first = create();
      await new Promise((r) => setTimeout(r, 50));
      expect((await create()).status).toBe(503);
      const read = await fetch(`${gw.url}/api/products/1`, { headers: { 'x-test-user': 'army' } });
      expect(read.status).toBe(200);
      expect((await first).status).toBe(201);
    }));
});

describe('gateway with a service that is down', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    // Nothing listens on this port.
    gw = await startGateway(
      { CATALOG_GRPC_ADDR: '127.0.0.1:1', GRPC_DEADLINE_MS: '2000' },
      headerSessions({ army }),
    );
  });
  afterAll(() => gw.stop());

  it('answers 503 JSON promptly, and is not ready', async () => {
    const res = await fetch(`${gw.url}/api/products`, { headers: { 'x-test-user': 'army' } });
    expect(res.status).toBe(503);
    expect((await json(res)).message).toMatch(/unavailable/);
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(503);
    expect((await json(ready)).checks).toEqual({ catalog: 'unavailable' });
  });

  it('answers 503 for a service that is not configured at all', async () => {
    const other = await startGateway({}, headerSessions({ army }));
    const res = await fetch(`${other.url}/api/products`, { headers: { 'x-test-user': 'army' } });
    await other.stop();
    expect(res.status).toBe(503);
  });
});
