import type { Connection } from 'mongoose';
import { nanos } from 'nats';
import {
  connectMongo,
  createOutbox,
  type EventBus,
  type EventEnvelope,
  idempotent,
  makeEvent,
  type Outbox,
  type OutgoingEvent,
} from '../src';
import { madeAgo } from '@qm/testkit';
import { eventually, log, MONGO_URL, testBus, testDb, testStream } from './infra';

/**
 * docs/adr/025: every replica of a service runs an outbox relay over the same outbox, and nothing
 * stops two of them publishing the same entry. What the code guarantees, and what this proves:
 * every event whose change happened is published (at least once, by whichever relay gets there);
 * within the stream's duplicate window JetStream keeps one message per event id (it is the message
 * id); after the window a second copy can reach the stream, and consumers, each event under an
 * `idempotent()` claim on its id, let it take effect once.
 */
jest.setTimeout(120_000);

type Data = { n: number };

describe('two replicas relaying the same outbox at once', () => {
  let one: Connection;
  let two: Connection;
  let busOne: EventBus;
  let busTwo: EventBus;
  let stream: string;
  let root: string;
  let removeStream: () => Promise<unknown>;

  beforeAll(async () => {
    one = await testDb('outbox_replicas');
    // The second replica: its own connection to the same database and its own NATS connection.
    two = await connectMongo(MONGO_URL, one.name);
    busOne = await testBus('relay-one');
    busTwo = await testBus('relay-two');
    ({ stream, subjectRoot: root, remove: removeStream } = await testStream(busOne, 'relays'));
  });

  afterAll(async () => {
    await removeStream?.();
    await busOne?.close();
    await busTwo?.close();
    await one?.dropDatabase();
    await one?.close();
    await two?.close();
  });

  /** The domain change each event announces: a thing numbered n exists. */
  const things = (conn: Connection) => conn.collection<{ _id: number }>('things');
  const made = (n: number, follower = false): OutgoingEvent => ({
    subject: `${root}.thing.${follower ? 'noted' : 'made'}`,
    event: makeEvent<Data>(`thing.${follower ? 'noted' : 'made'}`, { n }),
  });
  const change = (conn: Connection, n: number) => () => things(conn).insertOne({ _id: n });

  /** A replica's relay: its connection and bus, the confirm a service gives, every publish counted. */
  function relay(conn: Connection, bus: EventBus, published: string[]): Outbox {
    const counting = {
      ...bus,
      publish: async (subject: string, event: EventEnvelope) => {
        await bus.publish(subject, event);
        published.push(event.id);
      },
    } as EventBus;
    return createOutbox({
      conn,
      bus: counting,
      log,
      graceMs: 0,
      // As the services answer: the change decides a batch's first event; a follower (their
      // activity) is taken to follow whatever event it was written with.
      confirm: async (event) =>
        event.type === 'thing.noted' || !!(await things(conn).findOne({ _id: (event.data as Data).n })),
    });
  }

  /** Both replicas' relays pass at once, again and again, until the outbox is empty. */
  async function race(a: Outbox, b: Outbox): Promise<void> {
    for (let round = 0; round < 10 && (await one.collection('outbox').countDocuments()) > 0; round++)
      await Promise.all([a.relayOnce(), b.relayOnce()]);
  }

  const inStream = async () =>
    (await streamEvents()).reduce((m, e) => m.set(e.id, (m.get(e.id) ?? 0) + 1), new Map<string, number>());
  async function streamEvents(): Promise<EventEnvelope[]> {
    const name = busOne.stream(stream);
    const info = await busOne.jsm.streams.info(name);
    const out: EventEnvelope[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages; seq++)
      out.push((await busOne.jsm.streams.getMessage(name, { seq })).json<EventEnvelope>());
    return out;
  }

  it('publishes every event whose change happened, each once in the stream, and drops the rest', async () => {
    const expected: string[] = [];
    const dropped: string[] = [];
    // NATS was down when these changes were made: their entries wait 'ready' for a relay.
    const noNats = { ...busOne, publish: () => Promise.reject(new Error('NATS down')) } as EventBus;
    const writer = createOutbox({ conn: one, bus: noNats, log, confirm: async () => true });
    for (let n = 1; n <= 12; n++) {
      const e = made(n);
      expected.push(e.event.id);
      await writer.run([e], change(one, n));
    }
    // Processes that died after their change (two events in one batch each), and ones that died
    // during it (never made): their entries are left 'pending' for a relay to settle.
    process.env.QM_FAULT_OUTBOX_STALL = '1';
    const stalled = createOutbox({ conn: one, bus: busOne, log, confirm: async () => true });
    delete process.env.QM_FAULT_OUTBOX_STALL;
    for (let n = 101; n <= 106; n++) {
      const batch = [made(n), made(n, true)];
      expected.push(...batch.map((e) => e.event.id));
      let changed!: () => void;
      const done = new Promise<void>((r) => (changed = r));
      void stalled.run(batch, async () => {
        await change(one, n)();
        changed();
      });
      await done;
    }
    for (let n = 201; n <= 230; n++) {
      const batch = [made(n), made(n, true)];
      dropped.push(...batch.map((e) => e.event.id));
      void writer.run(batch, () => new Promise(() => undefined));
    }
    await eventually(async () => (await one.collection('outbox').countDocuments()) === 84);

    const publishedOne: string[] = [];
    const publishedTwo: string[] = [];
    await race(relay(one, busOne, publishedOne), relay(two, busTwo, publishedTwo));

    expect(await one.collection('outbox').countDocuments()).toBe(0);
    const counts = await inStream();
    expect(expected.filter((id) => counts.get(id) !== 1)).toEqual([]);
    expect(dropped.filter((id) => counts.has(id))).toEqual([]);
    expect(counts.size).toBe(expected.length);
    // Both relays did publish some of the same events: the stream's deduplication, not luck, kept one.
    const both = publishedOne.filter((id) => publishedTwo.includes(id));
    expect(both.length).toBeGreaterThan(0);
  });

  it("after the duplicate window a second copy reaches the stream, and consumers' claims apply each event once", async () => {
    // A short window stands for the two minutes having passed, and the events are as old as that
    // (consumers tell a copy that may repeat by its age, bus.ts mayRepeat).
    const name = busOne.stream(stream);
    const { config } = await busOne.jsm.streams.info(name);
    await busOne.jsm.streams.update(name, { ...config, duplicate_window: nanos(1000) });

    // A relay published these and died before removing them from the outbox (its deleteOne never ran).
    const noNats = { ...busOne, publish: () => Promise.reject(new Error('NATS down')) } as EventBus;
    const writer = createOutbox({ conn: one, bus: noNats, log, confirm: async () => true });
    const again: string[] = [];
    for (let n = 301; n <= 305; n++) {
      const fresh = made(n);
      const e = { ...fresh, event: madeAgo(3, fresh.event) };
      again.push(e.event.id);
      await writer.run([e], change(one, n));
    }
    const diesAfterPublishing = {
      ...busOne,
      publish: async (subject: string, event: EventEnvelope) => {
        await busOne.publish(subject, event);
        throw new Error('process died');
      },
    } as EventBus;
    const dying = createOutbox({ conn: one, bus: diesAfterPublishing, log, confirm: async () => true });
    await dying.relayOnce();
    expect(await one.collection('outbox').countDocuments()).toBe(5);
    await new Promise((r) => setTimeout(r, 1500));
    await race(relay(one, busOne, []), relay(two, busTwo, []));
    expect(await one.collection('outbox').countDocuments()).toBe(0);
    const counts = await inStream();
    expect(again.map((id) => counts.get(id))).toEqual([2, 2, 2, 2, 2]);

    // Two replicas of a consumer share one durable; each counts the things it is told of.
    const effects = (conn: Connection) => conn.collection<{ _id: number; times: number }>('effects');
    const durable = `effects_${root}`;
    for (const [conn, bus] of [
      [one, busOne],
      [two, busTwo],
    ] as const)
      await bus.consume({
        stream,
        durable,
        filterSubjects: [`${root}.thing.made`],
        handle: idempotent(conn, 'effects', log, async (event) => {
          await effects(conn).updateOne(
            { _id: (event.data as Data).n },
            { $inc: { times: 1 } },
            { upsert: true },
          );
        }),
      });
    const delivered = (await streamEvents()).filter((e) => e.type === 'thing.made');
    const distinct = new Set(delivered.map((e) => (e.data as Data).n));
    expect(delivered.length).toBe(distinct.size + 5);
    await eventually(async () => {
      const info = await busOne.jsm.consumers.info(name, busOne.stream(durable));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 60_000);
    const applied = await effects(one).find({}).toArray();
    expect(applied.length).toBe(distinct.size);
    expect(applied.filter((e) => e.times !== 1)).toEqual([]);
  });
});
