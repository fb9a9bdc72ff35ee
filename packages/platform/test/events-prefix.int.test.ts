import { connectBus, type EventBus, type EventEnvelope, eventsPrefix, makeEvent } from '../src';
import { eventually, log, NATS_URL, uniqueName } from './infra';

describe('environments on one NATS server (EVENTS_PREFIX)', () => {
  // Both environments declare the same stream, subject and durable, as two stacks of the product would.
  const stream = 'QM_PREFIXTEST';
  const subject = 'prefixtest.thing.created';
  const durable = 'prefixtest-reader';
  let a: EventBus;
  let b: EventBus;

  beforeAll(async () => {
    a = await connectBus({ servers: NATS_URL, name: 'env-a', log, prefix: uniqueName('test-a') });
    b = await connectBus({ servers: NATS_URL, name: 'env-b', log, prefix: uniqueName('test-b') });
    for (const bus of [a, b])
      await bus.ensureStreams([{ name: stream, subjects: ['prefixtest.>'], maxAgeDays: 1 }]);
  });

  afterAll(async () => {
    for (const bus of [a, b]) {
      await bus.jsm.streams.delete(bus.stream(stream)).catch(() => undefined);
      await bus.close();
    }
  });

  it("does not deliver one environment's events to the other, durably or as they pass", async () => {
    const seen = { a: [] as string[], b: [] as string[], passing: [] as string[] };
    for (const [bus, into] of [
      [a, seen.a],
      [b, seen.b],
    ] as const)
      await bus.consume({
        stream,
        durable,
        filterSubjects: [subject],
        handle: async (e: EventEnvelope, s) => {
          into.push(`${s} ${(e.data as { n: number }).n}`);
        },
      });
    b.listen('prefixtest.>', (e) => seen.passing.push(String((e.data as { n: number }).n)));
    await b.nc.flush();

    await a.publish(subject, makeEvent(subject, { n: 1 }));
    await b.publish(subject, makeEvent(subject, { n: 2 }));

    // Handlers see the subject as declared, without the prefix.
    await eventually(() => seen.a.length === 1 && seen.b.length === 1);
    await new Promise((r) => setTimeout(r, 300)); // time for a stray delivery to show up
    expect(seen.a).toEqual([`${subject} 1`]);
    expect(seen.b).toEqual([`${subject} 2`]);
    expect(seen.passing).toEqual(['2']);
    expect((await a.jsm.streams.info(a.stream(stream))).state.messages).toBe(1);
  });

  it('names the prefixed stream, subjects and durable after the environment', () => {
    expect(a.stream(stream)).toBe(`${a.prefix}_${stream}`);
    expect(a.subject(subject)).toBe(`${a.prefix}.${subject}`);
    expect(a.durable(durable)).toBe(`${a.prefix}_${durable}`);
  });

  it('defaults to test-<pid> under NODE_ENV=test and dev elsewhere, and refuses a malformed prefix', () => {
    expect(eventsPrefix({ NODE_ENV: 'test' })).toBe(`test-${process.pid}`);
    expect(eventsPrefix({ NODE_ENV: 'development' })).toBe('dev');
    expect(eventsPrefix({ NODE_ENV: 'production', EVENTS_PREFIX: 'staging' })).toBe('staging');
    expect(() => eventsPrefix({ EVENTS_PREFIX: 'dev.x' })).toThrow(/EVENTS_PREFIX/);
  });
});
