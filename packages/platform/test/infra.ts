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
