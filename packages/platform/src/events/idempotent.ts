import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Logger } from '../logger';
import { isDuplicateKeyError, onlyDuplicateKeyErrors } from '../mongo';
import type { Delivery } from './bus';
import type { EventEnvelope } from './envelope';
import { RetryLater } from './retry-later';
import { type WriteBehind, writeBehind } from './write-behind';

interface ClaimDoc {
  _id: string;
  state: 'started' | 'done';
  at: Date;
}

/** A claim left 'started' longer than this belongs to a process that died mid-handler. */
const STALE_CLAIM_MS = 60_000;

/** Another live process holds the event's claim: it comes back once that one is done. */
export class EventInProgressError extends RetryLater {
  constructor(id: string) {
    super(`event ${id} is being handled by another process`, 500);
    this.name = 'EventInProgressError';
  }
}

/**
 * Wraps an event handler so each event id takes effect once per consumer although JetStream
 * delivers at least once. The handler runs under a claim: done claims make duplicates no-ops,
 * a claim held by a live process sends the duplicate back for a later retry, and a stale claim
 * (its process died) is taken over, so no event is lost to a crash.
 *
 * A delivery that cannot repeat an earlier one (bus.ts `mayRepeat`: a recent first delivery, whose
 * id JetStream let onto the stream once) has no copy anywhere to race or to find done: it is
 * handled first and recorded done after, one write instead of two, and that write is gathered with
 * the other consumers' of the moment (docs/adr/052): the delivery is acknowledged without waiting
 * for it. Its record serves only a later copy (a redelivery after a lost acknowledgement, a relay's
 * copy past the duplicate window), seconds away at the least. A process that dies before writing it
 * leaves such a copy to run again, as a redelivery runs after taking over a stale claim.
 */
export function idempotent(
  conn: Connection,
  consumer: string,
  log: Pick<Logger, 'warn'>,
  handler: (event: EventEnvelope, subject: string) => Promise<void>,
): (event: EventEnvelope, subject: string, delivery?: Delivery) => Promise<void> {
  const claims = conn.collection<ClaimDoc>('processed_events');
  const done = doneRecords(claims, log);
  return async (event, subject, delivery) => {
    const _id = `${consumer}:${event.id}`;
    if (delivery?.mayRepeat === false) {
      await handler(event, subject);
      done.add({ _id, state: 'done', at: new Date() });
      return;
    }
    if (!(await claim(claims, _id))) return;
    try {
      await handler(event, subject);
    } catch (err) {
      await claims.deleteOne({ _id, state: 'started' });
      throw err;
    }
    await claims.updateOne({ _id }, { $set: { state: 'done', at: new Date() } });
  };
}

/** How long a first delivery's record waits for other consumers' to join it (docs/adr/052). */
const DONE_GATHER_MS = 200;
const recorders = new WeakMap<Collection<ClaimDoc>, WriteBehind<ClaimDoc>>();

/**
 * The records of first deliveries handled, written together, one recorder per database. A record
 * already there is a redelivery's claim that began while this one ran (past the ack wait): it
 * finishes on its own.
 */
function doneRecords(claims: Collection<ClaimDoc>, log: Pick<Logger, 'warn'>): WriteBehind<ClaimDoc> {
  let recorder = recorders.get(claims);
  if (!recorder) {
    recorder = writeBehind<ClaimDoc>(
      (records) =>
        claims.insertMany(records, { ordered: false }).catch((err: unknown) => {
          if (!onlyDuplicateKeyErrors(err)) throw err;
        }),
      {
        gatherMs: DONE_GATHER_MS,
        max: 200,
        failed: (err, records) =>
          log.warn(
            { err, records: records.length },
            'handled events left unrecorded (a later copy runs again)',
          ),
      },
    );
    recorders.set(claims, recorder);
  }
  return recorder;
}

/** Writes the first deliveries' records still waiting on this connection's database (tests; a stop). */
export const recordHandledNow = (conn: Connection): Promise<void> =>
  recorders.get(conn.collection<ClaimDoc>('processed_events'))?.flush() ?? Promise.resolve();

/** true: run the handler; false: already done. Throws while another live process holds it. */
async function claim(claims: Collection<ClaimDoc>, _id: string): Promise<boolean> {
  try {
    await claims.insertOne({ _id, state: 'started', at: new Date() });
    return true;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
  const existing = await claims.findOne({ _id });
  if (existing?.state === 'done') return false;
  const taken = await claims.findOneAndUpdate(
    { _id, state: 'started', at: { $lt: new Date(Date.now() - STALE_CLAIM_MS) } },
    { $set: { at: new Date() } },
  );
  if (taken) return true;
  throw new EventInProgressError(_id);
}
