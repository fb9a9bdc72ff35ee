import type { Connection } from 'mongoose';
import {
  createOutbox,
  type EventBus,
  type EventEnvelope,
  idempotent,
  makeEvent,
  recordHandledNow,
  RetryLater,
} from '../src';
import { madeAgo } from '@qm/testkit';
import { eventually, log, testBus, testDb, testStream } from './infra';

describe('event bus, outbox and idempotent consumers (real NATS + database)', () => {
  let db: Connection;
  let bus: EventBus;
  let stream: string;
  let subjectRoot: string;
  let removeStream: () => Promise<unknown>;

  beforeAll(async () => {
    db = await testDb('events');
    bus = await testBus();
    ({ stream, subjectRoot, remove: removeStream } = await testStream(bus, 'test'));
  });

  afterAll(async () => {
    await removeStream();
    await bus.close();
    await db.dropDatabase();
    await db.close();
  });

  async function collect(durable: string, subject: string) {
    const seen: EventEnvelope[] = [];
    await bus.consume({
      stream,
      durable,
      filterSubjects: [subject],
      handle: async (e) => {
        seen.push(e);
      },
    });
    return seen;
  }

  /** Waits until a consumer has every message delivered and acknowledged: no redelivery can follow. */
  async function allAcked(durable: string) {
    await eventually(async () => {
      const info = await bus.jsm.consumers.info(bus.stream(stream), bus.stream(durable));
      return (info.num_pending === 0 && info.num_ack_pending === 0) || undefined;
    });
  }

  it('creates streams idempotently', async () => {
    await bus.ensureStreams([{ name: stream, subjects: [`${subjectRoot}.>`], maxAgeDays: 1 }]);
    const info = await bus.jsm.streams.info(bus.stream(stream));
    expect(info.config.subjects).toEqual([bus.subject(`${subjectRoot}.>`)]);
  });

  it('delivers the event after a crash between the database write and the publish', async () => {
    const subject = `${subjectRoot}.thing.created`;
    const seen = await collect('crash-reader', subject);
    const things = db.collection('things');
    const event = makeEvent('thing.created', { id: 1 });

    // The first process writes its outbox entry and the change, then dies before publishing:
    // simulated by a bus whose publish never gets through.
    const deadBus = { ...bus, publish: () => Promise.reject(new Error('process died')) } as EventBus;
    const crashed = createOutbox({ conn: db, bus: deadBus, log, confirm: async () => true });
    await crashed.run([{ subject, event }], () => things.insertOne({ _id: 1 as never, name: 'rifle' }));
    expect(seen).toHaveLength(0);

    // The restarted process's relay finds the entry and publishes it.
    const restarted = createOutbox({ conn: db, bus, log, confirm: async () => true });
    expect(await restarted.relayOnce()).toBe(1);
    await eventually(() => seen.length === 1 || undefined);
    expect(seen[0]!.id).toBe(event.id);
    expect(await db.collection('outbox').countDocuments()).toBe(0);
  });

  it('removes the published entries of runs close together in one command, after their runs answered', async () => {
    const subject = `${subjectRoot}.thing.moved`;
    const seen = await collect('removal-reader', subject);
    const entries = db.collection('outbox');
    const removed = jest.spyOn(entries, 'deleteMany');
    try {
      // Gathered for longer than this test takes, however busy the machine: its stop writes them.
      const outbox = createOutbox({ conn: db, bus, log, confirm: async () => true, removalGatherMs: 60_000 });
      const events = [21, 22, 23].map((id) => makeEvent('thing.moved', { id }));
      for (const event of events) await outbox.run([{ subject, event }], async () => undefined);
      await eventually(() => seen.length === 3 || undefined);
      // Published, and left young and pending for a moment: another process's relay leaves them.
      expect(removed).not.toHaveBeenCalled();
      expect(await entries.countDocuments({ _id: { $in: events.map((e) => e.id) as never[] } })).toBe(3);
      await outbox.stop();
      expect(removed).toHaveBeenCalledTimes(1);
      expect(await entries.countDocuments({ _id: { $in: events.map((e) => e.id) as never[] } })).toBe(0);
    } finally {
      removed.mockRestore();
    }
  });

  it('settles entries of a process that died mid-change: publishes confirmed ones, drops the rest', async () => {
    const subject = `${subjectRoot}.thing.updated`;
    const seen = await collect('pending-reader', subject);
    const happened = makeEvent('thing.updated', { id: 10 });
    const neverHappened = makeEvent('thing.updated', { id: 11 });
    // Pending entries (the change's outcome is unknown) from long ago.
    await db.collection('outbox').insertMany(
      [happened, neverHappened].map((event) => ({
        _id: event.id as never,
        subject,
        event,
        state: 'pending',
        createdAt: new Date(Date.now() - 60_000),
        attempts: 0,
      })),
    );
    const relay = createOutbox({
      conn: db,
      bus,
      log,
      graceMs: 1000,
      confirm: async (e) => (e.data as { id: number }).id === 10,
    });
    expect(await relay.relayOnce()).toBe(1);
    await eventually(() => seen.length === 1 || undefined);
    expect(seen.map((e) => e.id)).toEqual([happened.id]);
    expect(await db.collection('outbox').countDocuments()).toBe(0);
  });

  it('publishes change-less events at once, and through the relay when the stream is unreachable', async () => {
    const subject = `${subjectRoot}.thing.viewed`;
    const seen = await collect('view-reader', subject);
    const direct = makeEvent('thing.viewed', { id: 3 });
    await createOutbox({ conn: db, bus, log, confirm: async () => true }).publish([
      { subject, event: direct },
    ]);
    await eventually(() => seen.length === 1 || undefined);
    expect(await db.collection('outbox').countDocuments()).toBe(0);

    const deferred = makeEvent('thing.viewed', { id: 4 });
    const deadBus = { ...bus, publish: () => Promise.reject(new Error('NATS down')) } as EventBus;
    await createOutbox({ conn: db, bus: deadBus, log, confirm: async () => true }).publish([
      { subject, event: deferred },
    ]);
    expect(await db.collection('outbox').countDocuments()).toBe(1);
    expect(await createOutbox({ conn: db, bus, log, confirm: async () => false }).relayOnce()).toBe(1);
    await eventually(() => seen.length === 2 || undefined);
    expect(seen.map((e) => e.id)).toEqual([direct.id, deferred.id]);
  });

  it('settles a batch by its first event: the activity of a change that never happened is dropped too', async () => {
    const subject = `${subjectRoot}.batch.done`;
    const seen = await collect('batch-reader', subject);
    const change = makeEvent('batch.done', { id: 20, happened: false });
    const activity = makeEvent('batch.done', { id: 20, activity: true });
    const kept = makeEvent('batch.done', { id: 21, happened: true });
    const keptActivity = makeEvent('batch.done', { id: 21, activity: true });
    const old = new Date(Date.now() - 60_000);
    await db.collection('outbox').insertMany(
      [
        [change, change.id],
        [activity, change.id],
        [kept, kept.id],
        [keptActivity, kept.id],
      ].map(([event, batch]) => ({
        _id: (event as typeof change).id as never,
        subject,
        event,
        state: 'pending',
        batch,
        createdAt: old,
        attempts: 0,
      })),
    );
    const asked: string[] = [];
    const relay = createOutbox({
      conn: db,
      bus,
      log,
      graceMs: 1000,
      confirm: async (e) => {
        asked.push(e.id);
        return (e.data as { happened?: boolean }).happened === true;
      },
    });
    expect(await relay.relayOnce()).toBe(2);
    await eventually(() => seen.length === 2 || undefined);
    expect(seen.map((e) => e.id).sort()).toEqual([kept.id, keptActivity.id].sort());
    expect(asked.sort()).toEqual([change.id, kept.id].sort());
  });

  it('sends a notice on core NATS, kept by no stream, even one the relay sends for a dead process', async () => {
    const notice = `notice.${subjectRoot}.thing.moved`;
    const heard: string[] = [];
    const unlisten = bus.listen(notice, (e) => heard.push(e.id));
    const follower = `${subjectRoot}.thing.recorded`;
    const seen = await collect('notice-follower-reader', follower);
    const live = makeEvent(notice, { id: 7 });
    const recorded = makeEvent(follower, { id: 7 });
    bus.notify(notice, live);
    // A batch led by a notice, left pending by a process that died after its change.
    const left = makeEvent(notice, { id: 8 });
    const leftFollower = makeEvent(follower, { id: 8 });
    await db.collection('outbox').insertMany(
      [
        { _id: left.id, subject: notice, event: left },
        { _id: leftFollower.id, subject: follower, event: leftFollower },
      ].map((d) => ({
        ...d,
        state: 'pending',
        batch: left.id,
        createdAt: new Date(Date.now() - 60_000),
        attempts: 0,
      })) as never,
    );
    const relay = createOutbox({ conn: db, bus, log, confirm: async () => true });
    expect(await relay.relayOnce()).toBe(2);
    await relay.publish([{ subject: follower, event: recorded }]);
    await eventually(() => (heard.length === 2 && seen.length === 2) || undefined);
    unlisten();
    expect(heard).toEqual([live.id, left.id]);
    expect(seen.map((e) => e.id).sort()).toEqual([leftFollower.id, recorded.id].sort());
    // The stream holds its own subjects' events only.
    const held = await bus.jsm.streams.info(bus.stream(stream), { subjects_filter: '>' });
    expect(Object.keys(held.state.subjects ?? {}).some((s) => s.includes('notice.'))).toBe(false);
    expect(
      await db.collection('outbox').countDocuments({ _id: { $in: [left.id, leftFollower.id] } as never }),
    ).toBe(0);
    expect(() => bus.notify(follower, recorded)).toThrow(/not a notice subject/);
  });

  it('drops the events of a change that failed', async () => {
    const outbox = createOutbox({ conn: db, bus, log, confirm: async () => true });
    const event = makeEvent('thing.deleted', { id: 2 });
    await expect(
      outbox.run([{ subject: `${subjectRoot}.thing.deleted`, event }], () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
    expect(await db.collection('outbox').countDocuments({ _id: event.id as never })).toBe(0);
  });

  it('handles a duplicate event once', async () => {
    const subject = `${subjectRoot}.payment.done`;
    let effects = 0;
    await bus.consume({
      stream,
      durable: 'dup-reader',
      filterSubjects: [subject],
      handle: idempotent(db, 'dup-reader', log, async () => {
        effects++;
      }),
    });
    // Same event published twice past JetStream's own dedupe (different message ids), as a relay
    // retried after the duplicate window would produce: by then the event is minutes old.
    const event = madeAgo(3, makeEvent('payment.done', { amount: 100 }));
    await bus.js.publish(bus.subject(subject), JSON.stringify(event), { msgID: `${event.id}-a` });
    await bus.js.publish(bus.subject(subject), JSON.stringify(event), { msgID: `${event.id}-b` });
    const other = makeEvent('payment.done', { amount: 5 });
    await bus.publish(subject, other);
    await eventually(() => effects === 2 || undefined);
    await allAcked('dup-reader');
    expect(effects).toBe(2);
  });

  describe('an idempotent handler told whether a delivery may repeat', () => {
    const claims = () => db.collection('processed_events');

    it('runs a first delivery before any claim and records it done once it took effect', async () => {
      let effects = 0;
      let claimedWhileRunning: unknown = 'unread';
      const event = makeEvent('payment.done', { amount: 1 });
      const handle = idempotent(db, 'first-copy', log, async () => {
        effects++;
        claimedWhileRunning = await claims().findOne({ _id: `first-copy:${event.id}` as never });
      });
      await handle(event, 'payment.done', { mayRepeat: false });
      expect(claimedWhileRunning).toBeNull();
      await recordHandledNow(db);
      expect(await claims().findOne({ _id: `first-copy:${event.id}` as never })).toMatchObject({
        state: 'done',
      });
      // Its redelivery finds it done.
      await handle(event, 'payment.done', { mayRepeat: true });
      expect(effects).toBe(1);
    });

    it('records the first deliveries of every consumer of the moment in one insert, without waiting for it', async () => {
      const written = jest.spyOn(claims(), 'insertMany');
      try {
        const events = [1, 2, 3].map((n) => makeEvent('payment.done', { amount: 10 + n }));
        const consumers = ['mail-a', 'mail-b'].map((name) =>
          idempotent(db, name, log, async () => undefined),
        );
        for (const event of events)
          for (const handle of consumers) await handle(event, 'payment.done', { mayRepeat: false });
        // Handled and answered (acknowledged) before their record is written.
        expect(written).not.toHaveBeenCalled();
        await recordHandledNow(db);
        expect(written).toHaveBeenCalledTimes(1);
        const ids = events.flatMap((e) => [`mail-a:${e.id}`, `mail-b:${e.id}`]);
        expect(await claims().countDocuments({ _id: { $in: ids as never[] }, state: 'done' })).toBe(6);
        // A later copy of each finds its record.
        let repeated = 0;
        const again = idempotent(db, 'mail-a', log, async () => void repeated++);
        for (const event of events) await again(event, 'payment.done', { mayRepeat: true });
        expect(repeated).toBe(0);
      } finally {
        written.mockRestore();
      }
    });

    it('records nothing for a first delivery that failed: its redelivery runs it under a claim', async () => {
      let calls = 0;
      const event = makeEvent('payment.done', { amount: 2 });
      const handle = idempotent(db, 'first-fails', log, async () => {
        if (++calls === 1) throw new Error('transient');
      });
      await expect(handle(event, 'payment.done', { mayRepeat: false })).rejects.toThrow('transient');
      expect(await claims().countDocuments({ _id: `first-fails:${event.id}` as never })).toBe(0);
      await handle(event, 'payment.done', { mayRepeat: true });
      await handle(event, 'payment.done', { mayRepeat: true });
      expect(calls).toBe(2);
    });

    it('a delivery that may repeat, or one the bus says nothing of, takes the claim first', async () => {
      let claimedWhileRunning: unknown;
      const event = makeEvent('payment.done', { amount: 3 });
      const handle = idempotent(db, 'claimed', log, async () => {
        claimedWhileRunning = await claims().findOne({ _id: `claimed:${event.id}` as never });
      });
      await handle(event, 'payment.done');
      expect(claimedWhileRunning).toMatchObject({ state: 'started' });
    });
  });

  it("starts a durable declared with startAt 'new' after the events already on the stream, and keeps it there", async () => {
    const subject = `${subjectRoot}.order.done`;
    const past = makeEvent('order.done', { n: 1 });
    await bus.publish(subject, past);
    const seen: EventEnvelope[] = [];
    const spec = {
      stream,
      filterSubjects: [subject],
      startAt: 'new' as const,
      handle: async (e: EventEnvelope) => void seen.push(e),
    };
    await bus.consume({ ...spec, durable: 'new-reader' });
    const next = makeEvent('order.done', { n: 2 });
    await bus.publish(subject, next);
    await eventually(() => seen.length === 1 || undefined);
    await allAcked('new-reader');
    // Declared again, as a restarted replica does: the same durable, neither reset nor refused.
    await bus.consume({ ...spec, durable: 'new-reader' });
    await bus.publish(subject, makeEvent('order.done', { n: 3 }));
    await eventually(() => seen.length === 2 || undefined);
    expect(seen.map((e) => e.data)).toEqual([{ n: 2 }, { n: 3 }]);
    // The default still reads the stream from its start.
    expect(
      await collect('all-reader', subject).then(async (all) => {
        await eventually(() => all.length === 3 || undefined);
        return all[0]!.id;
      }),
    ).toBe(past.id);
  });

  it('retries a failing handler until it succeeds', async () => {
    const subject = `${subjectRoot}.retry.me`;
    let calls = 0;
    await bus.consume({
      stream,
      durable: 'retry-reader',
      filterSubjects: [subject],
      handle: idempotent(db, 'retry-reader', log, async () => {
        calls++;
        if (calls < 2) throw new Error('transient');
      }),
    });
    await bus.publish(subject, makeEvent('retry.me', {}));
    await eventually(() => calls === 2 || undefined);
    // Acknowledged, with nothing left to deliver: JetStream will not hand the event out again.
    await allAcked('retry-reader');
    expect(calls).toBe(2);
  });

  it('sends an event that came too early back soon, as a wait and not as a failure', async () => {
    const subject = `${subjectRoot}.early.bird`;
    const error = jest.spyOn(log, 'error');
    const debug = jest.spyOn(log, 'debug');
    const calls: number[] = [];
    try {
      await bus.consume({
        stream,
        durable: 'early-reader',
        filterSubjects: [subject],
        handle: async () => {
          calls.push(Date.now());
          if (calls.length < 3) throw new RetryLater('what it follows is not visible yet', 50);
        },
      });
      await bus.publish(subject, makeEvent('early.bird', {}));
      await eventually(() => calls.length === 3 || undefined);
      await allAcked('early-reader');
      expect(calls).toHaveLength(3);
      // Doubling from the first wait (about 100 ms, then 200 ms): sooner than a failure's second.
      expect(calls[2]! - calls[0]!).toBeLessThan(1000);
      expect(error.mock.calls.filter(([, msg]) => msg === 'event handler failed; will retry')).toEqual([]);
      expect(debug).toHaveBeenCalledWith(
        expect.objectContaining({ reason: 'what it follows is not visible yet' }),
        'event not ready yet; will retry',
      );
    } finally {
      error.mockRestore();
      debug.mockRestore();
    }
  });

  it('tells a consumer whether a delivery may repeat one it already handled', async () => {
    const subject = `${subjectRoot}.repeat.item`;
    const seen: [string, boolean | undefined][] = [];
    const failOnce = new Set<string>();
    await bus.consume({
      stream,
      durable: 'repeat-reader',
      filterSubjects: [subject],
      handle: async (e, _subject, delivery) => {
        seen.push([(e.data as { name: string }).name, delivery?.mayRepeat]);
        if (failOnce.delete(e.id)) throw new Error('fails on its first delivery');
      },
    });
    const error = jest.spyOn(log, 'error').mockImplementation(() => undefined);
    try {
      await bus.publish(subject, makeEvent('repeat.item', { name: 'fresh' }));
      const failing = makeEvent('repeat.item', { name: 'redelivered' });
      failOnce.add(failing.id);
      await bus.publish(subject, failing);
      // Made before the duplicate window: the outbox relay may publish such an event again after it.
      const old = makeEvent('repeat.item', { name: 'old' });
      await bus.publish(subject, madeAgo(5, old));
      await eventually(() => seen.length === 4 || undefined, 20_000);
      await allAcked('repeat-reader');
    } finally {
      error.mockRestore();
    }
    expect(seen.sort()).toEqual(
      [
        ['fresh', false],
        ['old', true],
        ['redelivered', false],
        ['redelivered', true],
      ].sort(),
    );
  });

  it('hands a batch consumer everything waiting, each event once, and one at a time when quiet', async () => {
    const subject = `${subjectRoot}.batch.item`;
    const batches: number[][] = [];
    const single: number[] = [];
    let release!: () => void;
    const firstBusy = new Promise<void>((r) => (release = r));
    await bus.consume({
      stream,
      durable: 'group-commit-reader',
      filterSubjects: [subject],
      handle: async (e) => void single.push((e.data as { n: number }).n),
      handleBatch: async (events) => {
        batches.push(events.map(({ event }) => (event.data as { n: number }).n));
        // The first batch stays busy while the next 40 events arrive.
        if (batches.length === 1) await firstBusy;
      },
    });
    await bus.publish(subject, makeEvent('batch.item', { n: 0 }));
    await eventually(() => batches.length === 1 || undefined);
    for (let n = 1; n <= 40; n++) await bus.publish(subject, makeEvent('batch.item', { n }));
    release();
    await eventually(() => batches.flat().length === 41 || undefined);
    await allAcked('group-commit-reader');
    expect(batches[0]).toEqual([0]);
    // What waited came in far fewer calls than events, in publish order, none twice.
    expect(batches.length).toBeLessThan(10);
    expect(batches.flat()).toEqual(Array.from({ length: 41 }, (_, n) => n));
    expect(single).toEqual([]);
  });

  it('with gatherMs, events a few milliseconds apart share a batch, and a lone event waits no longer than that', async () => {
    const subject = `${subjectRoot}.batch.gathered`;
    const batches: { ns: number[]; at: number }[] = [];
    await bus.consume({
      stream,
      durable: 'gathering-reader',
      filterSubjects: [subject],
      gatherMs: 1_000,
      handle: async () => {
        throw new Error('a gathering consumer is handed batches');
      },
      handleBatch: async (events) =>
        void batches.push({ ns: events.map(({ event }) => (event.data as { n: number }).n), at: Date.now() }),
    });
    // Ten events 15 ms apart: one at a time, each would be a batch of its own. (The wait is long
    // enough for a loaded machine's publishes to fit in one or two.)
    const first = Date.now();
    for (let n = 0; n < 10; n++) {
      await bus.publish(subject, makeEvent('batch.gathered', { n }));
      await new Promise((r) => setTimeout(r, 15));
    }
    await eventually(() => batches.flatMap((b) => b.ns).length === 10 || undefined);
    expect(batches.flatMap((b) => b.ns)).toEqual(Array.from({ length: 10 }, (_, n) => n));
    expect(batches.length).toBeLessThanOrEqual(2);
    expect(batches[0]!.at - first).toBeGreaterThanOrEqual(900);

    const lone = Date.now();
    await bus.publish(subject, makeEvent('batch.gathered', { n: 10 }));
    await eventually(() => batches.at(-1)!.ns.includes(10) || undefined);
    expect(batches.at(-1)!.ns).toEqual([10]);
    expect(batches.at(-1)!.at - lone).toBeLessThan(3_000);
    await allAcked('gathering-reader');
  });

  it('falls back to one event at a time when a batch fails, so one bad event holds back no other', async () => {
    const subject = `${subjectRoot}.batch.poison`;
    const stored: number[] = [];
    let poisonTries = 0;
    let hold!: () => void;
    const held = new Promise<void>((r) => (hold = r));
    let calls = 0;
    /** Each event's `mayRepeat` in the first batch that held it (how the events split into batches varies). */
    const firstBatchRepeats = new Map<number, boolean>();
    const fallbackRepeats: (boolean | undefined)[] = [];
    const handleOne = async (n: number) => {
      if (n === 3 && ++poisonTries < 3) throw new Error('transient failure of event 3');
      if (!stored.includes(n)) stored.push(n);
    };
    await bus.consume({
      stream,
      durable: 'poison-reader',
      filterSubjects: [subject],
      handle: (e, _subject, delivery) => {
        fallbackRepeats.push(delivery?.mayRepeat);
        return handleOne((e.data as { n: number }).n);
      },
      handleBatch: async (events) => {
        if (++calls === 1) await held;
        const ns = events.map(({ event }) => (event.data as { n: number }).n);
        events.forEach((e, i) => firstBatchRepeats.has(ns[i]!) || firstBatchRepeats.set(ns[i]!, e.mayRepeat));
        if (ns.includes(3)) throw new Error('batch with event 3 fails');
        for (const n of ns) await handleOne(n);
      },
    });
    await bus.publish(subject, makeEvent('batch.poison', { n: 0 }));
    await eventually(() => calls === 1 || undefined);
    for (let n = 1; n <= 5; n++) await bus.publish(subject, makeEvent('batch.poison', { n }));
    hold();
    // 1, 2, 4 and 5 are stored at once; 3 alone is retried until it succeeds.
    await eventually(() => [1, 2, 4, 5].every((n) => stored.includes(n)) || undefined);
    await eventually(() => stored.includes(3) || undefined, 20_000);
    await allAcked('poison-reader');
    expect([...stored].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // Every event's first batch was its first delivery; the failed one's events came back as possible repeats.
    expect([...firstBatchRepeats].sort(([a], [b]) => a - b)).toEqual(
      [0, 1, 2, 3, 4, 5].map((n) => [n, false]),
    );
    expect(fallbackRepeats.length).toBeGreaterThan(0);
    expect(fallbackRepeats.every((r) => r === true)).toBe(true);
  });
});
