import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CATALOG_SUBJECTS as SUBJECTS } from '@qm/contracts/events';
import { catalogV1 } from '@qm/contracts/grpc';
import { eventually, freePort, INFRA, testCallerSigner, uniqueName as unique } from '@qm/testkit';
import { startServiceProcess } from '@qm/testkit/src/process';
import {
  connectBus,
  connectMongo,
  createClient,
  createLogger,
  type EventBus,
  newRequestId,
  runWithContext,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import { callers, INTERNAL_TOKEN } from './harness';

const { MONGO_URL, NATS_URL } = INFRA;

const log = createLogger('crash-test', 'silent');
const startCatalog = (env: Record<string, string>) => startServiceProcess('catalog', env);

describe('catalog killed mid-publish (real process, real NATS and database)', () => {
  const prefix = unique('crash').toLowerCase();
  const db = unique('qm_test_catalog_crash');
  let port: number;
  let env: Record<string, string>;
  let conn: Connection;
  let bus: EventBus;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    port = await freePort();
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      GRPC_PORT: String(port),
      MONGO_URL,
      MONGO_DB: db,
      NATS_URL,
      EVENTS_PREFIX: prefix,
      INTERNAL_TOKEN,
      CATALOG_USER_DELETED_DURABLE: unique('catalog-user-deleted-crash'),
      OUTBOX_RELAY_MS: '200',
    };
    conn = await connectMongo(MONGO_URL, db);
    bus = await connectBus({ servers: NATS_URL, name: 'crash-test', log, prefix });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    const streams = await bus.jsm.streams.names().next();
    for (const name of streams.filter((n) => n.startsWith(`${prefix}_`)))
      await bus.jsm.streams.delete(name).catch(() => undefined);
    await bus.close();
    await conn.dropDatabase();
    await conn.close();
  });

  it('publishes the product.created of a change its killed process left pending, exactly once', async () => {
    // 1. A process that makes the change and then stops before publishing (fault hook), killed there.
    const doomed = await startCatalog({ ...env, QM_FAULT_OUTBOX_STALL: '1' });
    children.push(doomed);
    const client = createClient(catalogV1.CatalogServiceService, `127.0.0.1:${port}`, {
      signer: testCallerSigner,
      defaultDeadlineMs: 60_000,
    });
    const created = runWithContext({ requestId: newRequestId(), caller: callers.maker }, () =>
      client.createProduct({
        name: 'Crash-test Helmet',
        type: catalogV1.ProductType.PRODUCT_TYPE_OTHER,
        description: 'A helmet for the crash test.',
        pricePaise: 500,
        stock: 2,
      }),
    ).catch((err: unknown) => err);
    const outbox = conn.collection<{ _id: string; subject: string; state: string }>('outbox');
    const pending = await eventually(
      () => outbox.findOne({ subject: SUBJECTS.created }).then((d) => d ?? false),
      30_000,
    );
    const products = conn.collection<{ id: number; name: string }>('products');
    const product = await eventually(
      () => products.findOne({ name: 'Crash-test Helmet' }).then((p) => p ?? false),
      30_000,
    );
    expect(pending.state).toBe('pending');
    doomed.kill('SIGKILL');
    await once(doomed, 'exit');
    expect(await created).toMatchObject({ code: expect.any(Number) }); // the caller saw the crash
    client.close();

    // Nothing reached the stream: the event exists only in the dead process's outbox.
    const seen: { id: string; productId: number }[] = [];
    await bus.consume({
      stream: 'QM_CATALOG',
      durable: 'crash-reader',
      filterSubjects: [SUBJECTS.created],
      handle: async (event) => {
        seen.push({ id: event.id, productId: (event.data as { id: number }).id });
      },
    });
    const stream = bus.stream('QM_CATALOG');
    expect((await bus.jsm.streams.info(stream)).state.messages).toBe(0);

    // 2. The restarted process's relay confirms the change happened (the product exists) and publishes.
    children.push(await startCatalog(env));
    await eventually(async () => seen.length > 0 && (await outbox.countDocuments()) === 0, 60_000);
    await eventually(async () => {
      const info = await bus.jsm.consumers.info(stream, bus.stream('crash-reader'));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
    expect(seen).toEqual([{ id: pending._id, productId: product.id }]);
  }, 120_000);
});
