import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ACTIVITY_SUBJECT, CATALOG_SUBJECTS as SUBJECTS } from '@qm/contracts/events';
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

  it('publishes the activity of a change its killed process left pending, exactly once, after its notice', async () => {
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
    // The batch: the product's notice first (it decides whether the change happened), its activity after.
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
    expect(await outbox.countDocuments({ subject: ACTIVITY_SUBJECT, state: 'pending' })).toBe(1);
    doomed.kill('SIGKILL');
    await once(doomed, 'exit');
    expect(await created).toMatchObject({ code: expect.any(Number) }); // the caller saw the crash
    client.close();

    // Nothing reached the stream: the activity exists only in the dead process's outbox.
    const seen: { action: string; details: string }[] = [];
    await bus.consume({
      stream: 'QM_ACTIVITY',
      durable: 'crash-reader',
      filterSubjects: [ACTIVITY_SUBJECT],
      handle: async (event) => {
        const { action, details } = event.data as { action: string; details: string };
        seen.push({ action, details });
      },
    });
    const stream = bus.stream('QM_ACTIVITY');
    expect((await bus.jsm.streams.info(stream)).state.messages).toBe(0);
    const noticed: number[] = [];
    const unlisten = bus.listen(SUBJECTS.created, (event) => noticed.push((event.data as { id: number }).id));
    await bus.nc.flush();

    // 2. The restarted process's relay confirms the change happened (the product exists), sends the
    // notice on core NATS and publishes the activity.
    children.push(await startCatalog(env));
    await eventually(async () => seen.length > 0 && (await outbox.countDocuments()) === 0, 60_000);
    await eventually(async () => {
      const info = await bus.jsm.consumers.info(stream, bus.stream('crash-reader'));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    });
    unlisten();
    expect(seen).toEqual([
      { action: 'product_create', details: expect.stringContaining(`(ID ${product.id})`) },
    ]);
    expect(noticed).toEqual([product.id]);
  }, 120_000);
});
