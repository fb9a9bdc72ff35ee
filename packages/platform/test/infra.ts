import { eventually, INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import {
  connectBus,
  connectMongo,
  type EventBus,
  LOCAL_POSTGRESQL_URL,
  openStoreEngine,
  type StoreEngine,
  type StoreEngineChoice,
} from '../src';

export { eventually, uniqueName };
export const { MONGO_URL, NATS_URL } = INFRA;
/** The local engine's PostgreSQL, for the tests of that engine itself (they run on any pass). */
export const FERRETDB_POSTGRESQL_URL = INFRA.STORE_ENGINE.postgresqlUrl ?? LOCAL_POSTGRESQL_URL;
/** The local engine, chosen explicitly. */
export const LOCAL_ENGINE: StoreEngineChoice = {
  engine: 'ferretdb-postgresql',
  postgresqlUrl: FERRETDB_POSTGRESQL_URL,
};
export const log = testLog();

export async function testDb(prefix: string): Promise<Connection> {
  return connectMongo(MONGO_URL, uniqueName(`qm_test_${prefix}`));
}

/** A test database with `choice`'s engine attached (the tests' engine by default). */
export async function testEngineDb(
  prefix: string,
  choice: StoreEngineChoice = INFRA.STORE_ENGINE,
): Promise<{ db: Connection; engine: StoreEngine }> {
  const db = await testDb(prefix);
  return { db, engine: await openStoreEngine(db, choice) };
}

export async function testBus(name = 'test'): Promise<EventBus> {
  return connectBus({ servers: NATS_URL, name, log });
}

/**
 * A stream of this test's own (subjects `<root>.>`, root unique per run); `remove` deletes it.
 */
export async function testStream(bus: EventBus, prefix: string) {
  const subjectRoot = uniqueName(prefix);
  const stream = `QM_${subjectRoot.toUpperCase()}`;
  await bus.ensureStreams([{ name: stream, subjects: [`${subjectRoot}.>`], maxAgeDays: 1 }]);
  return {
    stream,
    subjectRoot,
    remove: () => bus.jsm.streams.delete(bus.stream(stream)).catch(() => undefined),
  };
}
