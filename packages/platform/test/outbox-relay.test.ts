import type { Connection } from 'mongoose';
import { createLogger, createOutbox, type EventBus } from '../src';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The chaos run (docs/adr/015) found it: with the database gone for a moment, the relay's read of
// the outbox rejected inside a timer, nothing handled it, and every service with an outbox exited.
describe('the outbox relay', () => {
  it('survives a pass that cannot read the outbox, and tries again on the next tick', async () => {
    let reads = 0;
    const failingRead = {
      sort: () => failingRead,
      limit: () => failingRead,
      toArray: () => {
        reads++;
        return Promise.reject(new Error('terminating connection due to unexpected postmaster exit'));
      },
    };
    const conn = { collection: () => ({ find: () => failingRead }) } as unknown as Connection;
    const log = createLogger('test', 'silent');
    const warn = jest.spyOn(log, 'warn');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const outbox = createOutbox({
      conn,
      bus: {} as EventBus,
      log,
      confirm: () => Promise.resolve(true),
      intervalMs: 10,
    });
    try {
      outbox.start();
      // Two passes, however busy the machine: the second proves the first's failure left it running.
      for (const until = Date.now() + 5000; reads < 2 && Date.now() < until;) await sleep(10);
    } finally {
      outbox.stop();
      process.off('unhandledRejection', onUnhandled);
    }
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(unhandled).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'outbox relay pass failed; will retry',
    );
  });
});
