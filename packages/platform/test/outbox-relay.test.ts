import type { Connection } from 'mongoose';
import { createLogger, createOutbox, type EventBus, outgoingEvent } from '../src';

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
      await outbox.stop();
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

describe('the outbox run', () => {
  // Removals gathered until the test stops the outbox, however busy the machine.
  const quietOutbox = (conn: Connection, bus: EventBus) =>
    createOutbox({
      conn,
      bus,
      log: createLogger('test', 'silent'),
      confirm: () => Promise.resolve(true),
      removalGatherMs: 60_000,
    });

  /** A collection that records the commands it is sent. */
  function recordingConn() {
    const commands: [string, unknown][] = [];
    const record =
      (name: string) =>
      (...args: unknown[]) => {
        commands.push([name, args[0]]);
        return Promise.resolve({});
      };
    const col = {
      insertMany: record('insertMany'),
      updateMany: record('updateMany'),
      deleteMany: record('deleteMany'),
      deleteOne: record('deleteOne'),
    };
    return { commands, conn: { collection: () => col } as unknown as Connection };
  }

  it('removes the events it published in one command, and leaves an unpublished one to the relay', async () => {
    const { commands, conn } = recordingConn();
    const sent: string[] = [];
    const bus = {
      publish: (subject: string) => {
        if (subject === 'refused') return Promise.reject(new Error('no stream'));
        sent.push(subject);
        return Promise.resolve();
      },
    } as unknown as EventBus;
    const outbox = quietOutbox(conn, bus);
    const events = ['first', 'refused', 'third'].map((s) => outgoingEvent(s, {}));

    await expect(outbox.run(events, () => Promise.resolve('done'))).resolves.toBe('done');
    await outbox.stop();

    expect(sent).toEqual(['first', 'third']);
    // Written pending, then only the one that failed is marked ready for the relay.
    expect(commands.map(([name]) => name)).toEqual(['insertMany', 'updateMany', 'deleteMany']);
    expect(commands[1]![1]).toEqual({ _id: { $in: [events[1]!.event.id] }, state: 'pending' });
    expect(commands[2]![1]).toEqual({ _id: { $in: [events[0]!.event.id, events[2]!.event.id] } });
  });

  it('writes each run when every event is published, and removes the runs of the moment together, after they answered', async () => {
    const { commands, conn } = recordingConn();
    const bus = { publish: () => Promise.resolve() } as unknown as EventBus;
    const outbox = quietOutbox(conn, bus);
    const runs = [0, 1].map(() => ['first', 'second'].map((s) => outgoingEvent(s, {})));
    for (const events of runs) await outbox.run(events, () => Promise.resolve());
    expect(commands.map(([name]) => name)).toEqual(['insertMany', 'insertMany']);
    await outbox.stop();
    expect(commands.map(([name]) => name)).toEqual(['insertMany', 'insertMany', 'deleteMany']);
    expect(commands[2]![1]).toEqual({ _id: { $in: runs.flat().map((e) => e.event.id) } });
  });

  /** A bus that acknowledges every publish, and records the notices sent on core NATS. */
  function noticingBus() {
    const published: string[] = [];
    const notified: string[] = [];
    const bus = {
      publish: (subject: string) => {
        published.push(subject);
        return Promise.resolve();
      },
      notify: (subject: string) => void notified.push(subject),
    } as unknown as EventBus;
    return { bus, published, notified };
  }

  it('writes nothing for a run of notices alone, and sends them on core NATS once its change is done', async () => {
    const { commands, conn } = recordingConn();
    const { bus, published, notified } = noticingBus();
    const outbox = quietOutbox(conn, bus);
    let notifiedDuringChange = -1;
    const change = () => {
      notifiedDuringChange = notified.length;
      return Promise.resolve('moved');
    };
    await expect(outbox.run([outgoingEvent('notice.stock.moved', {})], change)).resolves.toBe('moved');
    expect(notifiedDuringChange).toBe(0);
    expect(notified).toEqual(['notice.stock.moved']);
    expect(published).toEqual([]);
    expect(commands).toEqual([]);
  });

  it('sends no notice of a run whose change failed', async () => {
    const { commands, conn } = recordingConn();
    const { bus, notified } = noticingBus();
    const outbox = quietOutbox(conn, bus);
    const failed = outbox.run([outgoingEvent('notice.stock.moved', {})], () =>
      Promise.reject(new Error('no')),
    );
    await expect(failed).rejects.toThrow('no');
    expect(notified).toEqual([]);
    expect(commands).toEqual([]);
  });

  it('writes a notice with the stream events of its run (the first decides the batch), and sends it on core NATS', async () => {
    const { commands, conn } = recordingConn();
    const { bus, published, notified } = noticingBus();
    const outbox = quietOutbox(conn, bus);
    const events = [outgoingEvent('notice.product.created', {}), outgoingEvent('activity.recorded', {})];
    await outbox.run(events, () => Promise.resolve());
    await outbox.stop();
    expect(notified).toEqual(['notice.product.created']);
    expect(published).toEqual(['activity.recorded']);
    expect(commands.map(([name]) => name)).toEqual(['insertMany', 'deleteMany']);
    expect((commands[0]![1] as { batch: string }[]).map((d) => d.batch)).toEqual([
      events[0]!.event.id,
      events[0]!.event.id,
    ]);
    expect(commands[1]![1]).toEqual({ _id: { $in: events.map((e) => e.event.id) } });
  });

  it('publishes the stream events it is given and sends the notices on core NATS, writing none', async () => {
    const { commands, conn } = recordingConn();
    const { bus, published, notified } = noticingBus();
    const outbox = quietOutbox(conn, bus);
    await outbox.publish([
      outgoingEvent('activity.recorded', {}),
      outgoingEvent('notice.money.received', {}),
    ]);
    expect(published).toEqual(['activity.recorded']);
    expect(notified).toEqual(['notice.money.received']);
    expect(commands).toEqual([]);
  });

  /** A bus that holds every acknowledgement until `ackAll`, counting what was sent before. */
  function heldBus() {
    const sent: string[] = [];
    const held: (() => void)[] = [];
    const bus = {
      publish: (subject: string) => {
        sent.push(subject);
        return new Promise<void>((resolve) => held.push(resolve));
      },
    } as unknown as EventBus;
    return { bus, sent, ackAll: () => held.splice(0).forEach((ack) => ack()) };
  }

  // A transfer announces two events, a top-up three: one round trip to the stream, not one each.
  it.each(['run', 'publish'] as const)(
    'sends every event of a %s before waiting for the first acknowledgement',
    async (how) => {
      const { conn } = recordingConn();
      const { bus, sent, ackAll } = heldBus();
      const outbox = quietOutbox(conn, bus);
      const events = ['first', 'second', 'third'].map((s) => outgoingEvent(s, {}));
      const done = how === 'run' ? outbox.run(events, () => Promise.resolve()) : outbox.publish(events);
      for (let i = 0; i < 20 && sent.length < events.length; i++) await sleep(1);
      expect(sent).toEqual(['first', 'second', 'third']);
      ackAll();
      await done;
    },
  );
});
