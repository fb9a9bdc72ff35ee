import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Logger } from '../logger';
import { traceCarrier, withStoredTrace } from '../tracing/spans';
import type { EventBus } from './bus';
import { type EventEnvelope, isNotice, type OutgoingEvent } from './envelope';
import { type WriteBehind, writeBehind } from './write-behind';

interface OutboxDoc {
  _id: string; // event id
  subject: string;
  event: EventEnvelope;
  /** pending: written before the domain change; ready: the change is done; then published and removed. */
  state: 'pending' | 'ready';
  /** The first event of the run() that wrote it: a batch is published or dropped as a whole. */
  batch?: string;
  createdAt: Date;
  attempts: number;
  /** The trace context of the work that wrote it (traceparent): the relay publishes in that trace. */
  trace?: Record<string, string>;
}

export interface OutboxOptions {
  conn: Connection;
  bus: EventBus;
  log: Logger;
  /**
   * For a 'pending' entry whose process died: did the domain change it announces happen?
   * true → publish it, false → drop it. Only consulted after `graceMs`, and only for the first
   * event of a run(): the others written with it (e.g. the activity of that change) follow it.
   */
  confirm(event: EventEnvelope, subject: string): Promise<boolean>;
  graceMs?: number;
  intervalMs?: number;
  /** How long a run's removal waits for others' to join it: 200 ms, at most half of graceMs (docs/adr/052). */
  removalGatherMs?: number;
}

export interface Outbox {
  /**
   * Records the events, runs the domain change, then publishes. If the process dies anywhere in
   * between, the relay finishes the job; if the change fails, its events are dropped. Notices go on
   * core NATS once the change is done; a run of notices alone records nothing (docs/adr/050).
   */
  run<T>(events: OutgoingEvent[], change: () => Promise<T>): Promise<T>;
  /**
   * Events that announce no database change of their own (a view, a sign-in), or whose change keeps
   * them and publishes them again until it is done (a ledger transfer's announcements): published
   * at once with the stream's acknowledgement, and only written to the outbox for the relay when
   * that fails. Either way, once this resolves the event will reach the stream. Notices are sent on
   * core NATS and never written.
   */
  publish(events: OutgoingEvent[]): Promise<void>;
  /** One relay pass: publishes ready entries and settles stale pending ones. Returns how many were published. */
  relayOnce(): Promise<number>;
  start(): void;
  /** Stops the relay and removes what this process published (its removals are gathered, see run). */
  stop(): Promise<void>;
}

/** How long the removal of a run's published entries waits for other runs' to join it (docs/adr/052). */
const REMOVAL_GATHER_MS = 200;

export function createOutbox(opts: OutboxOptions): Outbox {
  const { conn, bus, log } = opts;
  const graceMs = opts.graceMs ?? 10_000;
  const col = conn.collection<OutboxDoc>('outbox');
  let timer: NodeJS.Timeout | undefined;
  let relaying = false;
  // Fault injection for the crash test only (services/catalog/test/crash-restart.int.test.ts): with
  // QM_FAULT_OUTBOX_STALL=1 a run() stops after its change, leaving its events 'pending' for a kill.
  const stall = process.env.QM_FAULT_OUTBOX_STALL === '1';
  const removals = publishedRemovals(
    col,
    opts.removalGatherMs ?? Math.min(REMOVAL_GATHER_MS, graceMs / 2),
    log,
  );

  // Only when tracing is on: the documents stay as they were otherwise.
  const traced = () => {
    const trace = traceCarrier();
    return trace ? { trace } : {};
  };

  const outbox: Outbox = {
    async run(events, change) {
      // No events, or notices alone: nothing durable waits on them, so nothing is written (docs/adr/050).
      // With a stream's events they are written as before, so that a batch's first event still decides it.
      if (events.every((e) => isNotice(e.subject))) {
        const result = await change();
        notifyAll(bus, log, events);
        return result;
      }
      const ids = events.map((e) => e.event.id);
      const trace = traced();
      await col.insertMany(
        events.map((e) => ({
          ...trace,
          _id: e.event.id,
          subject: e.subject,
          event: e.event,
          state: 'pending' as const,
          batch: ids[0],
          createdAt: new Date(),
          attempts: 0,
        })),
      );
      let result;
      try {
        result = await change();
      } catch (err) {
        await col.deleteMany({ _id: { $in: ids } }).catch(() => undefined);
        throw err;
      }
      if (stall) await new Promise(() => undefined);
      await publishRun(col, removals, bus, log, events);
      return result;
    },
    async publish(allEvents) {
      const events = notifyAll(bus, log, allEvents);
      const outcomes = await publishSideBySide(bus, events);
      for (const [i, e] of events.entries()) {
        const outcome = outcomes[i]!;
        if (outcome.status === 'rejected') {
          log.warn({ err: outcome.reason, subject: e.subject }, 'publish deferred to the outbox relay');
          await col.insertOne({
            _id: e.event.id,
            subject: e.subject,
            event: e.event,
            state: 'ready',
            createdAt: new Date(),
            attempts: 0,
            ...traced(),
          });
        }
      }
    },
    async relayOnce() {
      if (relaying) return 0;
      relaying = true;
      let published = 0;
      try {
        await removals.flush();
        const cutoff = new Date(Date.now() - graceMs);
        const due = await col
          .find({ $or: [{ state: 'ready' }, { state: 'pending', createdAt: { $lt: cutoff } }] })
          .sort({ createdAt: 1 })
          .limit(500)
          .toArray();
        const decided = new Map<string, boolean>(); // batch → did its change happen
        const happened = async (doc: OutboxDoc): Promise<boolean> => {
          const key = doc.batch ?? doc._id;
          if (decided.has(key)) return decided.get(key)!;
          let verdict: boolean;
          if (key === doc._id) verdict = await opts.confirm(doc.event, doc.subject);
          else {
            const leader = await col.findOne({ _id: key });
            // No leader: another relay (another replica, docs/adr/025) settled the batch since this
            // one read it. A dropped batch loses its followers before its leader (below), so an
            // entry still here was published with its leader; one gone was dropped with it.
            verdict = leader
              ? await opts.confirm(leader.event, leader.subject)
              : !!(await col.findOne({ _id: doc._id }, { projection: { _id: 1 } }));
          }
          decided.set(key, verdict);
          return verdict;
        };
        for (const doc of due) {
          try {
            if (doc.state === 'pending' && !(await happened(doc))) {
              // Its followers first: a follower left without its leader counts as published.
              if ((doc.batch ?? doc._id) === doc._id)
                await col.deleteMany({ batch: doc._id, _id: { $ne: doc._id }, state: 'pending' });
              await col.deleteOne({ _id: doc._id, state: 'pending' });
              log.info(
                { eventId: doc._id, subject: doc.subject },
                'dropped outbox entry whose change never happened',
              );
              continue;
            }
            await relayEntry(col, bus, doc);
            published++;
          } catch (err) {
            await col.updateOne({ _id: doc._id }, { $inc: { attempts: 1 } }).catch(() => undefined);
            log.warn({ err, eventId: doc._id }, 'outbox relay will retry');
          }
        }
      } finally {
        relaying = false;
      }
      return published;
    },
    start() {
      if (timer) return;
      // A pass that cannot read the outbox (the database restarting) is retried on the next tick; a
      // rejection left unhandled here would end the whole process (the chaos run, docs/adr/015).
      timer = setInterval(
        () =>
          void outbox
            .relayOnce()
            .catch((err: unknown) => log.warn({ err }, 'outbox relay pass failed; will retry')),
        opts.intervalMs ?? 2000,
      );
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await removals.flush();
    },
  };
  return outbox;
}

/** The relay's publish of one entry, then its removal (a relay pass is seldom and small: not gathered). */
async function relayEntry(col: Collection<OutboxDoc>, bus: EventBus, doc: OutboxDoc): Promise<void> {
  if (isNotice(doc.subject)) bus.notify(doc.subject, doc.event);
  else await withStoredTrace(doc.trace, () => bus.publish(doc.subject, doc.event));
  await col.deleteOne({ _id: doc._id });
}

/**
 * A run's published entries are removed with the other runs' of the moment, in one command
 * (docs/adr/052). Until then they are young and 'pending', which a relay leaves alone for graceMs
 * (this process's relay removes them first); one whose removal is lost is published again.
 */
function publishedRemovals(col: Collection<OutboxDoc>, gatherMs: number, log: Logger): WriteBehind<string> {
  return writeBehind<string>((ids) => col.deleteMany({ _id: { $in: ids } }), {
    gatherMs,
    max: 500,
    failed: (err) => log.warn({ err }, 'published events left to the outbox relay'),
  });
}

/**
 * Sends the notices among `events` on core NATS and answers the rest, the stream's. A notice that
 * cannot be sent (the connection closed) is only logged: nobody waits for it.
 */
function notifyAll(bus: EventBus, log: Logger, events: OutgoingEvent[]): OutgoingEvent[] {
  const streamed: OutgoingEvent[] = [];
  for (const e of events) {
    if (!isNotice(e.subject)) streamed.push(e);
    else
      try {
        bus.notify(e.subject, e.event);
      } catch (err) {
        log.warn({ err, subject: e.subject }, 'notice not sent');
      }
  }
  return streamed;
}

/**
 * Sends every event before waiting for any acknowledgement: the NATS client writes them to the
 * server together, and the caller waits one round trip instead of one per event. Each event's
 * outcome is its own, as when they went one after another. Their order was never a promise: an event
 * left to the relay already reached the stream after later ones.
 */
function publishSideBySide(bus: EventBus, events: OutgoingEvent[]) {
  return Promise.allSettled(events.map((e) => bus.publish(e.subject, e.event)));
}

/**
 * Publishes a run's events, then has those published removed (with other runs', `removals`): on the
 * common path the entries go from written to removed with no update between. One that failed is marked ready, so
 * the relay publishes it on its next pass without asking whether the change happened; if even that
 * fails, or the process dies before publishing, the entry stays pending and the relay asks `confirm`
 * after the grace period. Any left behind by a failed removal is published again (at least once).
 */
async function publishRun(
  col: Collection<OutboxDoc>,
  removals: WriteBehind<string>,
  bus: EventBus,
  log: Logger,
  events: OutgoingEvent[],
): Promise<void> {
  const streamed = notifyAll(bus, log, events);
  const published = events.filter((e) => isNotice(e.subject)).map((e) => e.event.id);
  const deferred: string[] = [];
  const outcomes = await publishSideBySide(bus, streamed);
  for (const [i, e] of streamed.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.status === 'fulfilled') published.push(e.event.id);
    else {
      // A failed publish is not the caller's failure: the change is done and the relay retries.
      log.warn({ err: outcome.reason, subject: e.subject }, 'publish deferred to the outbox relay');
      deferred.push(e.event.id);
    }
  }
  if (deferred.length)
    await col
      .updateMany({ _id: { $in: deferred }, state: 'pending' }, { $set: { state: 'ready' } })
      .catch((err: unknown) => log.warn({ err }, 'deferred events left pending for the outbox relay'));
  removals.add(...published);
}
