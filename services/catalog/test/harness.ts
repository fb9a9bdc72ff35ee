import { randomBytes, randomInt } from 'node:crypto';
import { catalogV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  connectBus,
  createClient,
  type EventBus,
  type EventEnvelope,
  newRequestId,
  type RunningService,
  runWithContext,
  type ServiceIdentity,
  startService,
} from '@qm/platform';
import {
  deleteDurables,
  eventually,
  INFRA,
  serviceTestEnv,
  testCallerSigner,
  testLog,
  uniqueName,
} from '@qm/testkit';
import { headerSessions, startGateway } from '@qm/testkit/src/gateway';
import { catalogService } from '../src/service';

/** The internal services' shared secret of the test stack (INTERNAL_TOKEN). */
export const INTERNAL_TOKEN = randomBytes(24).toString('hex');

/** User ids no other test run uses, so identity events of other runs never touch ours. */
const base = 10_000_000 + randomInt(0, 80_000_000);
export const callers = {
  maker: { userId: base + 1, username: 'maker', roles: ['Manufacturer'] },
  rival: { userId: base + 2, username: 'rival', roles: ['Manufacturer'] },
  army: { userId: base + 3, username: 'sepoy', roles: ['Army'] },
  admin: { userId: base + 4, username: 'admin', roles: ['Admin'] },
  doomed: { userId: base + 5, username: 'doomed', roles: ['Manufacturer'] },
} satisfies Record<string, Caller>;
export type Who = keyof typeof callers;

export interface Stack {
  catalog: RunningService<unknown>;
  gatewayUrl: string;
  durable: string;
  db: string;
  /** REST through the real gateway as one of the test callers (or anonymous). */
  http(who: Who | undefined, method: string, path: string, body?: unknown): Promise<Response>;
  /** gRPC straight to the catalog as a caller (bypassing the gateway's own validation). */
  grpc: <K extends keyof typeof catalogV1.CatalogServiceService>(
    who: Who,
    method: K,
    req: Parameters<CatalogClient[K]>[0],
  ) => ReturnType<CatalogClient[K]>;
  /**
   * gRPC straight to the catalog as an internal service (no user), e.g. the orders service with
   * the stack's INTERNAL_TOKEN, or an impostor with another token.
   */
  asService(identity: ServiceIdentity | undefined): CatalogClient;
  stop(): Promise<void>;
}

type CatalogClient = ReturnType<typeof createClient<typeof catalogV1.CatalogServiceService>>;

/** The real catalog service in-process on a fresh database, behind a real in-process gateway. */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const db = uniqueName('qm_test_catalog');
  const durable = uniqueName('catalog-user-deleted-test');
  const catalog = await startService(
    catalogService,
    serviceTestEnv(db, {
      GRPC_PORT: '0',
      INTERNAL_TOKEN,
      CATALOG_USER_DELETED_DURABLE: durable,
      OUTBOX_RELAY_MS: '500',
      ...env,
    }),
  );
  const gw = await startGateway(
    { CATALOG_GRPC_ADDR: `127.0.0.1:${catalog.port}`, GRPC_DEADLINE_MS: '30000' },
    headerSessions(callers),
  );
  const client = createClient(catalogV1.CatalogServiceService, `127.0.0.1:${catalog.port}`, {
    signer: testCallerSigner,
    defaultDeadlineMs: 30000,
  });
  const serviceClients: CatalogClient[] = [];
  return {
    catalog: catalog as RunningService<unknown>,
    gatewayUrl: gw.url,
    durable,
    db,
    http(who, method, path, body) {
      return fetch(`${gw.url}${path}`, {
        method,
        headers: {
          ...(who ? { 'x-test-user': who } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    grpc(who, method, req) {
      const fn = client[method] as (r: unknown) => Promise<unknown>;
      return runWithContext({ requestId: newRequestId(), caller: callers[who] }, () => fn(req)) as never;
    },
    asService(identity) {
      const c = createClient(catalogV1.CatalogServiceService, `127.0.0.1:${catalog.port}`, {
        signer: testCallerSigner,
        defaultDeadlineMs: 30000,
        identity,
      });
      serviceClients.push(c);
      return c;
    },
    async stop() {
      client.close();
      serviceClients.forEach((c) => c.close());
      await gw.stop();
      await settle(catalog, durable);
      await catalog.rt.conn.dropDatabase().catch(() => undefined);
      await catalog.stop();
      await deleteConsumers([durable]);
    },
  };
}

/**
 * Waits until the service's identity consumer has handled everything delivered to it. A fresh test
 * durable replays the stream's history (other runs' identity.user.deleted events); stopping while a
 * delivery is in flight would leave its ack racing the closing connection.
 */
export async function settle(svc: RunningService<unknown>, durable: string): Promise<void> {
  await eventually(async () => {
    const { bus } = svc.rt;
    const info = await bus.jsm.consumers.info(bus.stream('QM_IDENTITY'), bus.durable(durable));
    return (info.num_pending === 0 && info.num_ack_pending === 0) || undefined;
  }, 30_000);
}

/**
 * Removes test durables once their service has stopped (deleting one under a running consumer
 * makes its pull loop fail as the connection closes).
 */
export const deleteConsumers = (durables: string[]) => deleteDurables('QM_IDENTITY', durables);

/** Collects events on core NATS subjects (JetStream messages are delivered there too). */
export async function listen(subjects: string[]) {
  const bus: EventBus = await connectBus({
    servers: INFRA.NATS_URL,
    name: 'catalog-test-listener',
    log: testLog('catalog-test'),
  });
  const seen: { subject: string; event: EventEnvelope }[] = [];
  const ids = new Set<string>();
  // A core subscription sees every publish, also the outbox relay's second one of an event whose
  // direct publish was slow; JetStream (Nats-Msg-Id) and every consumer drop it by event id, so do we.
  for (const s of subjects)
    bus.listen(s, (event, subject) => {
      const e = event as EventEnvelope;
      if (ids.has(e.id)) return;
      ids.add(e.id);
      seen.push({ subject, event: e });
    });
  await bus.nc.flush();
  return { bus, seen, close: () => bus.close() };
}

export { json } from '@qm/testkit/src/gateway';

export const product = (overrides: Record<string, unknown> = {}) => ({
  name: 'Night vision goggles',
  type: 'Equipment',
  price: '1250.00',
  description: 'Gen 3 image intensifier',
  stock: 5,
  ...overrides,
});
