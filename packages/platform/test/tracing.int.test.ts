import { collectSpans, parentOf } from '@qm/testkit/src/traces';
import type { Connection } from 'mongoose';
import {
  createOutbox,
  type EventBus,
  type EventEnvelope,
  inSpan,
  makeEvent,
  runWithContext,
  SpanKind,
} from '../src';
import { eventually, log, testBus, testDb, testStream, uniqueName } from './infra';

/**
 * The outbox keeps an event's trace context until it is published (docs/adr/016-traces.md): an
 * event the relay publishes long after the request, from another process, still joins that
 * request's trace, and its consumer's span is the publish span's child.
 */
describe('traces through the outbox relay (real NATS + database)', () => {
  let spans: ReturnType<typeof collectSpans>;
  let db: Connection;
  let bus: EventBus;
  let stream: string;
  let subjectRoot: string;
  let removeStream: () => Promise<unknown>;

  beforeAll(async () => {
    spans = collectSpans();
    db = await testDb('tracing');
    bus = await testBus();
    ({ stream, subjectRoot, remove: removeStream } = await testStream(bus, 'trace'));
  });

  afterAll(async () => {
    await spans?.stop();
    await removeStream();
    await bus.close();
    await db.dropDatabase();
    await db.close();
  });

  async function collect(durable: string, subject: string) {
    const seen: EventEnvelope[] = [];
    await bus.consume({ stream, durable, filterSubjects: [subject], handle: async (e) => void seen.push(e) });
    return seen;
  }

  it('publishes a relayed event in the trace of the work that wrote it', async () => {
    const subject = `${subjectRoot}.thing.viewed`;
    const seen = await collect('relay-reader', subject);
    const requestId = uniqueName('outbox-trace', '-');
    const deadBus = { ...bus, publish: () => Promise.reject(new Error('NATS down')) } as EventBus;
    let event!: EventEnvelope;
    // The request's work: its publish fails, so the event waits in the outbox.
    await runWithContext({ requestId }, () =>
      inSpan('the request', SpanKind.SERVER, requestId, {}, async () => {
        event = makeEvent('thing.viewed', { id: 1 });
        await createOutbox({ conn: db, bus: deadBus, log, confirm: async () => true }).publish([
          { subject, event },
        ]);
      }),
    );
    const work = spans.all().find((x) => x.name === 'the request')!;
    const { traceId, spanId } = work.spanContext();
    const stored = await db.collection('outbox').findOne({ _id: event.id as never });
    expect(stored?.trace).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });

    // Later, outside any request: the relay restores the stored context.
    expect(await createOutbox({ conn: db, bus, log, confirm: async () => true }).relayOnce()).toBe(1);
    await eventually(() => seen.length === 1 || undefined);
    const consumed = await eventually(() => spans.all().find((x) => x.name === `process ${subject}`));
    const relayed = spans.all().find((x) => x.name === `publish ${subject}`)!;
    expect(relayed.spanContext().traceId).toBe(traceId);
    expect(parentOf(relayed)).toBe(spanId);
    expect(consumed.spanContext().traceId).toBe(traceId);
    expect(parentOf(consumed)).toBe(relayed.spanContext().spanId);
    for (const x of [relayed, consumed]) expect(x.attributes['qm.request_id']).toBe(requestId);
  });

  it('stores no trace context once tracing is off', async () => {
    await spans.stop();
    const subject = `${subjectRoot}.thing.counted`;
    const seen = await collect('untraced-reader', subject);
    const deadBus = { ...bus, publish: () => Promise.reject(new Error('NATS down')) } as EventBus;
    const event = makeEvent('thing.counted', { id: 2 });
    await createOutbox({ conn: db, bus: deadBus, log, confirm: async () => true }).publish([
      { subject, event },
    ]);
    const stored = await db.collection('outbox').findOne({ _id: event.id as never });
    expect(stored).not.toBeNull();
    expect(stored).not.toHaveProperty('trace');
    expect(await createOutbox({ conn: db, bus, log, confirm: async () => true }).relayOnce()).toBe(1);
    await eventually(() => seen.length === 1 || undefined);
  });
});
