import { randomBytes } from 'node:crypto';
import { type RunningService, startService } from '@qm/platform';
import {
  ADMIN_PASSWORD,
  Browser,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';
import { catalogService } from '../src/service';
import { INFRA, uniqueName as unique } from '@qm/testkit';
import { product } from './harness';

const { MONGO_URL, NATS_URL } = INFRA;

/**
 * Who may create and edit products, with real sessions: users registered, approved and signed in
 * through the real identity service and Keycloak, the gateway resolving their session cookies
 * (catalog.int.test.ts covers the rules in detail with header sessions).
 */
jest.setTimeout(90_000);

describe('catalog authorization through a real sign-in', () => {
  let catalog: RunningService<unknown>;
  let stack: Stack;
  const browsers: Record<'maker' | 'rival' | 'army', Browser> = {} as never;

  beforeAll(async () => {
    catalog = (await startService(catalogService, {
      GRPC_PORT: '0',
      MONGO_URL,
      MONGO_DB: unique('qm_test_catalog_signed_in'),
      NATS_URL,
      INTERNAL_TOKEN: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'silent',
      CATALOG_USER_DELETED_DURABLE: unique('catalog-user-deleted-signed-in'),
    })) as RunningService<unknown>;
    stack = await startIdentityStack({ gateway: { CATALOG_GRPC_ADDR: `127.0.0.1:${catalog.port}` } });
    const admin = new Browser(stack.url);
    expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
    for (const [who, role] of [
      ['maker', 'Manufacturer'],
      ['rival', 'Manufacturer'],
      ['army', 'Army'],
    ] as const) {
      const user = await registerUser(stack, `Cat${who}`, role, admin);
      browsers[who] = new Browser(stack.url);
      expect((await browsers[who].login(user.username, user.password)).status).toBe(200);
    }
  });
  afterAll(async () => {
    await stack?.stop();
    await catalog?.rt.conn.dropDatabase().catch(() => undefined);
    await catalog?.stop();
  });

  it('a manufacturer cannot edit or delete another manufacturer’s product; the owner can', async () => {
    const created = await browsers.maker.post('/api/products', product({ stock: 4 }));
    expect(created.status).toBe(201);
    const { id, version } = created.body as { id: number; version: number };

    const edit = await browsers.rival.patch(`/api/products/${id}`, { price: '1.00', stock: 0, version });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ message: 'You can only edit your own products' });
    const del = await browsers.rival.delete(`/api/products/${id}`);
    expect(del.status).toBe(403);
    expect(del.body).toEqual({ message: 'You can only delete your own products' });
    expect((await browsers.rival.get(`/api/products/${id}`)).body).toMatchObject({ stock: 4 });

    const own = await browsers.maker.patch(`/api/products/${id}`, { stock: 3, version });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ stock: 3 });
  });

  it('an Army user cannot create a product', async () => {
    const res = await browsers.army.post('/api/products', product({ name: 'Army-made goggles' }));
    expect(res.status).toBe(403);
    const list = await browsers.army.get('/api/products');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('Army-made goggles');
  });
});
