import { context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  headers as natsHeaders,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JSONCodec,
  type MsgHdrs,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { EVENTS_PREFIX_PATTERN } from '../config';
import { runWithContext, newRequestId } from '../context';
import { type Faults, faultDelay } from '../faults';
import type { Logger } from '../logger';
import { endSpan, extractTrace, inSpan, injectTrace, SpanKind, startSpan } from '../tracing/spans';
import { type EventEnvelope, isNotice, NOTICE_PREFIX } from './envelope';
import { redeliveryDelay, RetryLater } from './retry-later';

const codec = JSONCodec<EventEnvelope>();

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** How long events are kept, in days. */
  maxAgeDays?: number;
}

/** How long JetStream drops a second publication of an event id (the dedupe id, see publish). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

/**
 * An event younger than this (by its `occurredAt`) on its first delivery cannot have reached the
 * consumer before: any earlier copy was published less than the duplicate window ago, so JetStream
 * dropped this one. Half the window leaves the rest for the producer's clock against ours.
 */
const FIRST_COPY_AGE_MS = DUPLICATE_WINDOW_MS / 2;

/**
 * Whether an event may have been handled before by this consumer: a redelivery, or an event old
 * enough that the outbox relay may have published it again past JetStream's deduplication (after an
 * outage). A consumer may skip its own duplicate check when this is false.
 */
export function mayRepeat(event: Pick<EventEnvelope, 'occurredAt'>, redelivered: boolean, now = Date.now()) {
  // An unreadable time counts as old (NaN compares false).
  return redelivered || !(now - Date.parse(event.occurredAt) < FIRST_COPY_AGE_MS);
}

/** What the bus knows of one delivery. */
export interface Delivery {
  /** See mayRepeat(); also true when a failed batch hands its events over again one by one. */
  mayRepeat: boolean;
}

export interface ConsumerSpec {
  stream: string;
  durable: string;
  filterSubjects: string[];
  /**
   * Called once per delivery; must be idempotent or wrapped with `idempotent()`. The bus always
   * passes `delivery`; a caller that does not know it (a test) leaves it out, meaning it may repeat.
   */
  handle(event: EventEnvelope, subject: string, delivery?: Delivery): Promise<void>;
  /**
   * Optional group commit: called with every message already waiting (at most maxBatch), for a
   * consumer that can store many events in fewer database writes than one by one. It must have the
   * effect of handle() on each. If it throws, each message of the batch goes through handle() on
   * its own, so one bad event is retried alone and the others are not held back by it.
   */
  handleBatch?(events: ({ event: EventEnvelope; subject: string } & Delivery)[]): Promise<void>;
  /** Largest batch handed to handleBatch (default 64). */
  maxBatch?: number;
  /**
   * How long a batch waits for others to join it once the consumer turns to it (default 0: a lone
   * event goes at once). For a consumer whose events nobody waits on, so that events a few milliseconds
   * apart share one batch's writes instead of one batch each.
   */
  gatherMs?: number;
  maxDeliver?: number;
  /**
   * Where a new durable starts: every event the stream holds (default), or only those published
   * after it is created, for one whose effect must not reach the past (a mail about an old order).
   * Fixed for a durable's life: JetStream refuses to change it.
   */
  startAt?: 'all' | 'new';
}

/**
 * Subjects, streams and durables are declared without the environment prefix; the bus adds it on
 * the way out and strips it on the way in. `nc`, `js` and `jsm` are the raw clients: whoever uses
 * them directly names things with `subject()`, `stream()` and `durable()`.
 */
export interface EventBus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** The environment this bus lives in (EVENTS_PREFIX). */
  readonly prefix: string;
  subject(subject: string): string;
  stream(name: string): string;
  durable(name: string): string;
  /** Publishes and waits for the stream's ack; the event id doubles as the JetStream dedupe id. */
  publish(subject: string, event: EventEnvelope): Promise<void>;
  /**
   * Sends a notice (a `notice.` subject, docs/adr/050) on core NATS: no stream keeps it, nothing
   * acknowledges it, and only processes listening at the moment hear it.
   */
  notify(subject: string, event: EventEnvelope): void;
  /** The product's streams come from the caller (@qm/roster); the platform knows none itself. */
  ensureStreams(streams: readonly StreamSpec[]): Promise<void>;
  consume(spec: ConsumerSpec): Promise<void>;
  /**
   * Every process hears the events on `subject` (wildcards allowed) as they pass, with no
   * durable state: nothing is redelivered, so it suits hints such as cache invalidation only.
   */
  listen(subject: string, handle: (event: EventEnvelope, subject: string) => void): () => void;
  close(): Promise<void>;
}

/**
 * Reconnects for ever. No async traces: each request (a JetStream publish awaits one) would build an
 * Error to keep its caller's stack, a tenth of a millisecond of every publish (docs/adr/051).
 */
const CONNECTION = { maxReconnectAttempts: -1, noAsyncTraces: true } as const;

/**
 * EVENTS_PREFIX, else `test-<pid>` under NODE_ENV=test (a jest worker's services and its own bus
 * share one process, and no other run sees them), else `dev`.
 */
export function eventsPrefix(env: { EVENTS_PREFIX?: string; NODE_ENV?: string } = process.env): string {
  const prefix = env.EVENTS_PREFIX || (env.NODE_ENV === 'test' ? `test-${process.pid}` : 'dev');
  if (!EVENTS_PREFIX_PATTERN.test(prefix))
    throw new Error(`EVENTS_PREFIX: must match ${EVENTS_PREFIX_PATTERN.source} (got "${prefix}")`);
  return prefix;
}

export async function connectBus(opts: {
  servers: string;
  name: string;
  log: Logger;
  /** Defaults to eventsPrefix() of the process environment. */
  prefix?: string;
  /** eventBusDelayMs holds every publish back (docs/FAULTS.md). */
  faults?: Faults;
}): Promise<EventBus> {
  const { log } = opts;
  const prefix = eventsPrefix(opts.prefix ? { EVENTS_PREFIX: opts.prefix } : process.env);
  const subject = (s: string) => `${prefix}.${s}`;
  const stream = (name: string) => `${prefix}_${name}`;
  const unprefixed = (s: string) => (s.startsWith(`${prefix}.`) ? s.slice(prefix.length + 1) : s);
  const nc = await connect({ servers: opts.servers, name: opts.name, ...CONNECTION });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const running: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];

  const bus: EventBus = {
    nc,
    js,
    jsm,
    prefix,
    subject,
    stream,
    durable: stream,
    async publish(to, event) {
      if (opts.faults?.active) await faultDelay(opts.faults, 'eventBusDelayMs');
      const full = subject(to);
      // A producer span whose context travels in the message headers to every consumer.
      await inSpan(
        `publish ${to}`,
        SpanKind.PRODUCER,
        event.requestId,
        messagingAttributes(full, event),
        () => {
          const h = natsHeaders();
          if (event.requestId) h.set('x-request-id', event.requestId);
          injectTrace(h, headersSetter);
          return js.publish(full, codec.encode(event), { msgID: event.id, headers: h });
        },
      );
    },
    notify(to, event) {
      // A stream's subject sent this way would be kept by the stream with nobody told it failed.
      if (!isNotice(to)) throw new Error(`notify: ${to} is not a notice subject (${NOTICE_PREFIX}…)`);
      nc.publish(subject(to), codec.encode(event));
    },
    async ensureStreams(streams) {
      for (const spec of streams) {
        const s = { ...spec, name: stream(spec.name), subjects: spec.subjects.map(subject) };
        const config = {
          name: s.name,
          subjects: s.subjects,
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          max_age: (s.maxAgeDays ?? 30) * 24 * 3600 * 1e9,
          duplicate_window: DUPLICATE_WINDOW_MS * 1e6,
        };
        try {
          await jsm.streams.info(s.name);
          await jsm.streams.update(s.name, config);
        } catch (err) {
          if (!isNotFound(err)) throw err;
          try {
            await jsm.streams.add(config);
          } catch (addErr) {
            // Another process created it between our info and add: that is the state we wanted.
            if (!String(addErr).includes('already in use')) throw addErr;
          }
        }
      }
    },
    async consume(declared) {
      const spec = {
        ...declared,
        stream: stream(declared.stream),
        durable: stream(declared.durable),
        handle: (event: EventEnvelope, s: string, delivery?: Delivery) =>
          declared.handle(event, unprefixed(s), delivery),
        handleBatch:
          declared.handleBatch &&
          ((events: ({ event: EventEnvelope; subject: string } & Delivery)[]) =>
            declared.handleBatch!(events.map((e) => ({ ...e, subject: unprefixed(e.subject) })))),
      };
      const config = {
        durable_name: spec.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: spec.startAt === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
        filter_subjects: spec.filterSubjects.map(subject),
        ack_wait: 30 * 1e9,
        max_deliver: spec.maxDeliver ?? -1,
      };
      try {
        await jsm.consumers.info(spec.stream, spec.durable);
        await jsm.consumers.update(spec.stream, spec.durable, config);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await jsm.consumers.add(spec.stream, config);
      }
      const consumer = await js.consumers.get(spec.stream, spec.durable);
      const maxBatch = spec.maxBatch ?? DEFAULT_MAX_BATCH;
      const messages = await consumer.consume({ max_messages: Math.max(64, maxBatch) });
      running.push(messages);
      // Messages (or batches) are handled one at a time; close() waits for the one in hand before draining.
      loops.push(
        (spec.handleBatch
          ? consumeInBatches(messages, { maxBatch, gatherMs: spec.gatherMs ?? 0 }, (batch) =>
              deliverBatch(batch, spec, log, unprefixed),
            )
          : (async () => {
              for await (const msg of messages) await deliver(msg, spec, log, unprefixed);
            })()
        ).catch((err: unknown) => log.warn({ err, consumer: spec.durable }, 'consumer stopped')),
      );
    },
    listen(to, handle) {
      const sub = nc.subscribe(subject(to), {
        callback: (err, msg) => {
          if (err) return;
          let event: EventEnvelope;
          try {
            event = codec.decode(msg.data);
          } catch {
            return;
          }
          try {
            handle(event, unprefixed(msg.subject));
          } catch (e) {
            log.warn({ err: e, subject: msg.subject }, 'event listener failed');
          }
        },
      });
      return () => sub.unsubscribe();
    },
    async close() {
      for (const m of running) m.stop();
      await Promise.all(loops);
      if (!nc.isClosed()) await nc.drain();
    },
  };
  return bus;
}

const DEFAULT_MAX_BATCH = 64;

/**
 * Reads messages as they come and hands over everything waiting whenever the previous batch is done:
 * one message at a time when the stream is quiet, larger batches (fewer writes each) under load.
 * With `gatherMs`, a batch not yet full waits that long for more to join when its turn comes; without,
 * no timer delays a lone message. Reading pauses while two batches are already waiting.
 */
async function consumeInBatches(
  messages: ConsumerMessages,
  { maxBatch, gatherMs }: { maxBatch: number; gatherMs: number },
  handle: (batch: JsMsg[]) => Promise<void>,
): Promise<void> {
  const waiting: JsMsg[] = [];
  let ended = false;
  let wakeHandler: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  const reader = (async () => {
    try {
      for await (const msg of messages) {
        waiting.push(msg);
        wakeHandler?.();
        while (waiting.length >= 2 * maxBatch) await new Promise<void>((r) => (wakeReader = r));
      }
    } finally {
      ended = true;
      wakeHandler?.();
    }
  })();
  const full = () => ended || waiting.length >= maxBatch;
  /** Resolves after `gatherMs`, or as soon as the batch is full or the messages end. */
  const gathered = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeHandler = undefined;
        resolve();
      };
      const timer = setTimeout(done, gatherMs);
      wakeHandler = () => {
        if (full()) done();
      };
    });
  for (;;) {
    if (!waiting.length) {
      if (ended) break;
      await new Promise<void>((r) => (wakeHandler = r));
      wakeHandler = undefined;
      continue;
    }
    if (gatherMs > 0 && !full()) await gathered();
    // Let messages the client already holds join this batch.
    else await new Promise((r) => setImmediate(r));
    const batch = waiting.splice(0, maxBatch);
    wakeReader?.();
    await handle(batch);
  }
  await reader;
}

function decode(msg: JsMsg, spec: ConsumerSpec, log: Logger): EventEnvelope | undefined {
  try {
    return codec.decode(msg.data);
  } catch {
    log.error({ subject: msg.subject, consumer: spec.durable }, 'undecodable event dropped');
    msg.term();
    return undefined;
  }
}

/** Each message keeps its own consumer span (a child of its publisher's), open while its batch runs. */
function consumerSpan(
  msg: JsMsg,
  event: EventEnvelope,
  spec: ConsumerSpec,
  unprefixed: (s: string) => string,
) {
  const requestId = msg.headers?.get('x-request-id') || event.requestId || newRequestId();
  const { span, ctx } = startSpan(
    `process ${unprefixed(msg.subject)}`,
    SpanKind.CONSUMER,
    requestId,
    {
      ...messagingAttributes(msg.subject, event),
      'messaging.consumer.group.name': spec.durable,
      'messaging.operation.type': 'process',
      'qm.redeliveries': msg.info.redeliveryCount,
    },
    extractTrace(msg.headers, headersGetter),
  );
  return { requestId, span, ctx };
}

async function deliverBatch(
  msgs: JsMsg[],
  spec: ConsumerSpec,
  log: Logger,
  unprefixed: (subject: string) => string,
): Promise<void> {
  const batch = msgs.flatMap((msg) => {
    const event = decode(msg, spec, log);
    return event ? [{ msg, event, ...consumerSpan(msg, event, spec, unprefixed) }] : [];
  });
  if (!batch.length) return;
  const [first] = batch;
  try {
    await context.with(first!.ctx, () =>
      runWithContext({ requestId: first!.requestId }, () =>
        spec.handleBatch!(
          batch.map(({ msg, event }) => ({
            event,
            subject: msg.subject,
            mayRepeat: mayRepeat(event, msg.redelivered),
          })),
        ),
      ),
    );
  } catch (err) {
    for (const { span } of batch) endSpan(span, err);
    log.warn(
      { err, consumer: spec.durable, size: batch.length },
      'event batch failed; handling its events one by one',
    );
    // Part of the batch may have taken effect before it failed.
    for (const { msg } of batch) await deliver(msg, spec, log, unprefixed, true);
    return;
  }
  for (const { msg, span } of batch) {
    msg.ack();
    endSpan(span);
  }
}

async function deliver(
  msg: JsMsg,
  spec: ConsumerSpec,
  log: Logger,
  unprefixed: (subject: string) => string,
  again = false,
): Promise<void> {
  const event = decode(msg, spec, log);
  if (!event) return;
  // A child of the publisher's span (its traceparent in the headers), not of the consumer loop.
  const { requestId, span, ctx } = consumerSpan(msg, event, spec, unprefixed);
  await context.with(ctx, () =>
    runWithContext({ requestId }, async () => {
      try {
        await spec.handle(event, msg.subject, { mayRepeat: again || mayRepeat(event, msg.redelivered) });
        msg.ack();
        endSpan(span);
      } catch (err) {
        const redeliveries = msg.info.redeliveryCount;
        if (err instanceof RetryLater) {
          endSpan(span);
          log.debug(
            { subject: msg.subject, eventId: event.id, redeliveries, reason: err.message },
            'event not ready yet; will retry',
          );
          msg.nak(redeliveryDelay(err.firstDelayMs, redeliveries));
          return;
        }
        endSpan(span, err);
        log.error(
          { err, subject: msg.subject, eventId: event.id, redeliveries },
          'event handler failed; will retry',
        );
        msg.nak(redeliveryDelay(500, redeliveries));
      }
    }),
  );
}

/** Trace context (traceparent) in NATS message headers. */
const headersSetter: TextMapSetter<MsgHdrs> = { set: (h, key, value) => h.set(key, value) };
const headersGetter: TextMapGetter<MsgHdrs | undefined> = {
  get: (h, key) => (h?.has(key) ? h.get(key) : undefined),
  keys: (h) => (h ? h.keys() : []),
};

function messagingAttributes(subject: string, event: EventEnvelope) {
  return {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
    'messaging.message.id': event.id,
    'qm.event.type': event.type,
  };
}

function isNotFound(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return text.includes('not found');
}
