import { eventually, INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { connectBus, connectMongo, type EventBus } from '../src';

export { eventually, uniqueName };
export const { MONGO_URL, FERRETDB_POSTGRESQL_URL, NATS_URL } = INFRA;
export const log = testLog();

export async function testDb(prefix: string): Promise<Connection> {
  return connectMongo(MONGO_URL, uniqueName(`qm_test_${prefix}`));
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
