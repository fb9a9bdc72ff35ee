import type { Connection } from 'mongoose';
import {
  AppError,
  type Attempt,
  createIdempotency,
  type Idempotency,
  type OwnRecordAttempt,
  ensureIndexes,
  GrpcStatus,
  type StoreEngine,
} from '../src';
import { testEngineDb } from './infra';

// Stripe's semantics for a key (src/idempotency.ts), and what the work is told: whether a run may
// have been under the key before, so that only a rerun looks for an earlier effect. Keys expire a
// window at a time (src/windows.ts): asked by a range, the local engine would read every key of the
// last day at every sweep (docs/adr/004).
describe('an idempotency key', () => {
  let db: Connection;
  let engine: StoreEngine;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb('idempotency'));
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
    await engine.close();
  });

  const messages = { inProgress: 'in progress', mismatch: (f: string[]) => `differs: ${f.join(', ')}` };
  let keys: Idempotency;
  beforeAll(() => {
    keys = createIdempotency({ conn: db, staleMs: 300, messages });
  });
  const failing = (err: Error) => () => Promise.reject(err);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const stateOf = async (key: string) =>
    (await db.collection('idempotency_keys').findOne({ _id: `user:1:op:${key}` as never }))?.state;

  it('runs once, as a first run, and answers its outcome again', async () => {
    const attempts: Attempt[] = [];
    const run = () => keys.run('user:1:op', 'first', { amount: 5 }, async (a) => (attempts.push(a), 7));
    expect(await run()).toBe(7);
    expect(await run()).toBe(7);
    expect(attempts).toEqual([{ rerun: false }]);
  });

  it('after a failure a retry may cure, runs again at once as a rerun, and refuses another request', async () => {
    await expect(
      keys.run('user:1:op', 'cured', { amount: 5 }, failing(new AppError(GrpcStatus.UNAVAILABLE, 'down'))),
    ).rejects.toThrow('down');
    expect(await stateOf('cured')).toBe('retry');
    await expect(keys.run('user:1:op', 'cured', { amount: 6 }, async () => 1)).rejects.toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: 'differs: amount',
    });
    const attempts: Attempt[] = [];
    expect(await keys.run('user:1:op', 'cured', { amount: 5 }, async (a) => (attempts.push(a), 8))).toBe(8);
    expect(attempts).toEqual([{ rerun: true }]);
    expect(await stateOf('cured')).toBe('done');
  });

  it('stores a refusal as the outcome: it is answered again, not run', async () => {
    const refused = new AppError(GrpcStatus.FAILED_PRECONDITION, 'Insufficient balance');
    await expect(keys.run('user:1:op', 'refused', {}, failing(refused))).rejects.toThrow('Insufficient');
    await expect(keys.run('user:1:op', 'refused', {}, async () => 1)).rejects.toThrow('Insufficient');
  });

  it('is in progress while its run lasts, and a stale run is taken over as a rerun', async () => {
    let finish!: () => void;
    const first = keys.run('user:1:op', 'slow', {}, () => new Promise<number>((r) => (finish = () => r(1))));
    await sleep(50);
    await expect(keys.run('user:1:op', 'slow', {}, async () => 2)).rejects.toMatchObject({
      code: GrpcStatus.ABORTED,
    });
    await sleep(350);
    const attempts: Attempt[] = [];
    expect(await keys.run('user:1:op', 'slow', {}, async (a) => (attempts.push(a), 3))).toBe(3);
    expect(attempts).toEqual([{ rerun: true }]);
    finish();
    expect(await first).toBe(1);
  });

  it('a run that failed after another took its stale claim over leaves that claim running', async () => {
    let failFirst!: () => void;
    const first = keys.run(
      'user:1:op',
      'taken',
      {},
      () => new Promise<number>((_, no) => (failFirst = () => no(new Error('lost')))),
    );
    await sleep(400);
    let finishSecond!: () => void;
    const second = keys.run(
      'user:1:op',
      'taken',
      {},
      () => new Promise<number>((r) => (finishSecond = () => r(2))),
    );
    await sleep(50);
    failFirst();
    await expect(first).rejects.toThrow('lost');
    expect(await stateOf('taken')).toBe('running');
    await expect(keys.run('user:1:op', 'taken', {}, async () => 3)).rejects.toMatchObject({
      code: GrpcStatus.ABORTED,
    });
    finishSecond();
    expect(await second).toBe(2);
  });

  it('without a key, just runs, as a first run', async () => {
    const attempts: Attempt[] = [];
    await keys.run('user:1:op', undefined, {}, async (a) => attempts.push(a));
    expect(attempts).toEqual([{ rerun: false }]);
  });

  describe('whose work stores its own record (runOwnRecord, docs/adr/045)', () => {
    const recordOf = (key: string) =>
      db.collection('idempotency_keys').findOne({ _id: `user:1:own:${key}` as never });
    const own = (
      key: string,
      request: Record<string, unknown>,
      fn: (a: OwnRecordAttempt) => Promise<number>,
    ) => keys.runOwnRecord('user:1:own', key, request, fn);

    it('the first run holds the key and stores no answer; the same request again, held or after, runs as a repeat', async () => {
      const attempts: OwnRecordAttempt[] = [];
      let finish!: () => void;
      const first = own('held', { amount: 5 }, (a) => {
        attempts.push(a);
        return new Promise<number>((r) => (finish = () => r(1)));
      });
      await sleep(50);
      expect(await own('held', { amount: 5 }, async (a) => (attempts.push(a), 2))).toBe(2);
      await expect(own('held', { amount: 6 }, async () => 3)).rejects.toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        message: 'differs: amount',
      });
      finish();
      expect(await first).toBe(1);
      expect(await recordOf('held')).toMatchObject({ state: 'running' });
      expect((await recordOf('held'))?.outcome).toBeUndefined();
      expect(await own('held', { amount: 5 }, async (a) => (attempts.push(a), 4))).toBe(4);
      expect(attempts).toEqual([
        { rerun: false, holder: true },
        { rerun: true, holder: false },
        { rerun: true, holder: false },
      ]);
    });

    it('a stale claim, or one left for a retry, is taken over by a holder; a repeat’s failure is not stored', async () => {
      const attempts: OwnRecordAttempt[] = [];
      await expect(
        own('taken', {}, async () => {
          throw new AppError(GrpcStatus.UNAVAILABLE, 'down');
        }),
      ).rejects.toThrow('down');
      expect(await own('taken', {}, async (a) => (attempts.push(a), 1))).toBe(1);
      const repeat = own('taken', {}, async (a) => {
        attempts.push(a);
        throw new AppError(GrpcStatus.ABORTED, messages.inProgress);
      });
      await expect(repeat).rejects.toThrow(messages.inProgress);
      await sleep(350);
      expect(await own('taken', {}, async (a) => (attempts.push(a), 2))).toBe(2);
      expect(attempts).toEqual([
        { rerun: true, holder: true },
        { rerun: true, holder: false },
        { rerun: true, holder: true },
      ]);
    });

    it('the holder’s refusal is stored and answered again, not run', async () => {
      const refused = new AppError(GrpcStatus.FAILED_PRECONDITION, 'Insufficient stock');
      await expect(own('refused', {}, failing(refused))).rejects.toThrow('Insufficient');
      await expect(own('refused', {}, async () => 1)).rejects.toThrow('Insufficient');
    });

    it('a key an earlier build answered (`run`) is run as a repeat, which finds the effect', async () => {
      await keys.run('user:1:own', 'answered', {}, async () => 7);
      const attempts: OwnRecordAttempt[] = [];
      expect(await own('answered', {}, async (a) => (attempts.push(a), 7))).toBe(7);
      expect(attempts).toEqual([{ rerun: true, holder: false }]);
    });
  });

  it('past its time is deleted by a range once, then window by window, and runs again', async () => {
    const idempotency = createIdempotency({ conn: db, ttlMs: 60_000, messages });
    let runs = 0;
    const run = (key: string) => idempotency.run('user:9:op', key, { amount: 1 }, async () => ++runs);
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
      // Both expired a minute after they were made; three windows of ten minutes later, both gone
      // (the other tests' keys live a day).
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
    const mine = await db.collection('idempotency_keys').find({}).toArray();
    expect(mine.map((r) => String(r._id)).filter((id) => id.startsWith('user:9:op:'))).toEqual([
      'user:9:op:a',
    ]);
  });
});
