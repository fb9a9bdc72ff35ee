import { randomBytes } from 'node:crypto';
import { connectBus, createLogger, connectMongo, type EventBus } from '../src';
import type { Connection } from 'mongoose';

/** The real local infrastructure the integration tests talk to (make test starts it). */
export const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
// The PostgreSQL database behind the local FerretDB (scripts/stack/postgres.mjs).
export const FERRETDB_POSTGRESQL_URL =
  process.env.FERRETDB_POSTGRESQL_URL ?? 'postgres://postgres@127.0.0.1:5433/postgres';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const log = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export async function testDb(prefix: string): Promise<Connection> {
  return connectMongo(MONGO_URL, uniqueName(`qm_test_${prefix}`));
}

export async function testBus(name = 'test'): Promise<EventBus> {
  return connectBus({ servers: NATS_URL, name, log });
}

export async function eventually<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
