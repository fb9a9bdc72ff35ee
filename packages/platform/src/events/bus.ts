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
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { runWithContext, newRequestId } from '../context';
import type { Logger } from '../logger';
import type { EventEnvelope } from './envelope';

const codec = JSONCodec<EventEnvelope>();

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** How long events are kept, in days. */
  maxAgeDays?: number;
}

export interface ConsumerSpec {
  stream: string;
  durable: string;
  filterSubjects: string[];
  /** Called once per delivery; must be idempotent or wrapped with `idempotent()`. */
  handle(event: EventEnvelope, subject: string): Promise<void>;
  maxDeliver?: number;
}

export interface EventBus {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Publishes and waits for the stream's ack; the event id doubles as the JetStream dedupe id. */
  publish(subject: string, event: EventEnvelope): Promise<void>;
  ensureStreams(streams: StreamSpec[]): Promise<void>;
  consume(spec: ConsumerSpec): Promise<void>;
  close(): Promise<void>;
}

/** The streams of the whole product, one per publishing service plus activity. */
export const STREAMS: StreamSpec[] = [
  'identity',
  'catalog',
  'wallet',
  'orders',
  'support',
  'assistant',
  'activity',
].map((svc) => ({ name: `QM_${svc.toUpperCase()}`, subjects: [`${svc}.>`] }));

export async function connectBus(opts: { servers: string; name: string; log: Logger }): Promise<EventBus> {
  const { log } = opts;
  const nc = await connect({ servers: opts.servers, name: opts.name, maxReconnectAttempts: -1 });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const running: ConsumerMessages[] = [];
  const loops: Promise<void>[] = [];

  const bus: EventBus = {
    nc,
    js,
    jsm,
    async publish(subject, event) {
      const h = natsHeaders();
      if (event.requestId) h.set('x-request-id', event.requestId);
      await js.publish(subject, codec.encode(event), { msgID: event.id, headers: h });
    },
    async ensureStreams(streams) {
      for (const s of streams) {
        const config = {
          name: s.name,
          subjects: s.subjects,
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          max_age: (s.maxAgeDays ?? 30) * 24 * 3600 * 1e9,
          duplicate_window: 2 * 60 * 1e9,
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
    async consume(spec) {
      const config = {
        durable_name: spec.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subjects: spec.filterSubjects,
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
      const messages = await consumer.consume({ max_messages: 64 });
      running.push(messages);
      // Messages are handled one at a time; close() waits for the one in hand before draining.
      loops.push(
        (async () => {
          for await (const msg of messages) await deliver(msg, spec, log);
        })().catch((err: unknown) => log.warn({ err, consumer: spec.durable }, 'consumer stopped')),
      );
    },
    async close() {
      for (const m of running) m.stop();
      await Promise.all(loops);
      if (!nc.isClosed()) await nc.drain();
    },
  };
  return bus;
}

async function deliver(msg: JsMsg, spec: ConsumerSpec, log: Logger): Promise<void> {
  let event: EventEnvelope;
  try {
    event = codec.decode(msg.data);
  } catch {
    log.error({ subject: msg.subject, consumer: spec.durable }, 'undecodable event dropped');
    msg.term();
    return;
  }
  const requestId = msg.headers?.get('x-request-id') || event.requestId || newRequestId();
  await runWithContext({ requestId }, async () => {
    try {
      await spec.handle(event, msg.subject);
      msg.ack();
    } catch (err) {
      const redeliveries = msg.info.redeliveryCount;
      log.error(
        { err, subject: msg.subject, eventId: event.id, redeliveries },
        'event handler failed; will retry',
      );
      msg.nak(Math.min(30_000, 500 * 2 ** Math.min(redeliveries, 6)));
    }
  });
}

function isNotFound(err: unknown): boolean {
  const text = String((err as { message?: string })?.message ?? err);
  return text.includes('not found');
}
