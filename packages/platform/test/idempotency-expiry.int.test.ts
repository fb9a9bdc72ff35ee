import type { Connection } from 'mongoose';
import { createIdempotency, ensureIndexes, type StoreEngine } from '../src';
import { testEngineDb } from './infra';

// Idempotency keys expire a window at a time (src/idempotency.ts, src/windows.ts): asked by a range,
// the local engine would read every key of the last day at every sweep (docs/adr/004).
describe('idempotency keys past their time', () => {
  let db: Connection;
  let engine: StoreEngine;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb('idempotency_expiry'));
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
    await engine.close();
  });

  const messages = { inProgress: 'in progress', mismatch: (f: string[]) => `differs: ${f.join(', ')}` };

  it('are deleted by a range once, then window by window, and a key deleted runs again', async () => {
    const idempotency = createIdempotency({ conn: db, ttlMs: 60_000, messages });
    let runs = 0;
    const run = (key: string) => idempotency.run('user:1:op', key, { amount: 1 }, async () => ++runs);
    expect(await run('a')).toBe(1);
    expect(await run('a')).toBe(1);

    const asked: unknown[] = [];
    db.set('debug', (collection: string, method: string, filter: unknown) => {
      if (collection === 'idempotency_keys' && method === 'deleteMany') asked.push(filter);
    });
    try {
      const t0 = new Date();
      // Catching up: the one range, when nothing has expired yet.
      expect(await idempotency.sweep(t0)).toBe(0);
      expect(await run('b')).toBe(2);
      // Both expired a minute after they were made; three windows of ten minutes later, both gone.
      const later = new Date(t0.getTime() + 60_000 + 30 * 60_000);
      expect(await idempotency.sweep(later)).toBe(2);
      expect(await idempotency.sweep(later)).toBe(0);
      expect(asked[0]).toEqual({ expiresAt: { $lt: t0 } });
      const windows = asked.slice(1);
      expect(windows.length).toBeGreaterThanOrEqual(3);
      expect(windows.every((f) => Object.keys(f as object).join() === 'expiresWindow')).toBe(true);
    } finally {
      db.set('debug', false);
    }
    expect(await run('a')).toBe(3);
    expect(await db.collection('idempotency_keys').countDocuments()).toBe(1);
  });
});
