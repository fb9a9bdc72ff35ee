import type { Connection, Model } from 'mongoose';
import { BUCKET_SIZE, feedCounterId, feedFields } from './feeds';
import { isDuplicateKeyError } from './mongo';

/**
 * A running per-day tally of one owner's feed (feeds.ts): the admin dashboard's money in per day
 * and purchases per day, on a backend that pushes down only equality (docs/adr/004), without reading
 * the window's rows on every request and without touching the code that writes them.
 *
 * One document in `feed_tallies` holds the totals per day and `throughSeq`, the feed number up to
 * which they are summed. A read first brings it up to date: it reads only the documents filed since
 * (whole buckets, one indexed equality read per BUCKET_SIZE documents), adds them up and moves
 * `throughSeq` with a compare-and-set on that one document, so the totals and the cursor change
 * together, a document is counted once, and of two concurrent readers one wins and the other reads
 * the winner's totals. The first read starts at `horizon` (the longest window asked for).
 *
 * The cursor stops before a document that may still change how it counts (`settled`, e.g. an order
 * still pending) and before a missing number that may still be written (a number is taken just before
 * its insert; a gap behind a document older than GAP_GRACE_MS is a crash's, feeds.ts, and is passed).
 */
export const GAP_GRACE_MS = 60_000;
const CONCURRENCY = 4;

export interface DayTally {
  count: number;
  amountPaise: number;
}

interface TallyDoc {
  _id: string;
  throughSeq: number;
  days: Record<string, DayTally>;
  updatedAt: Date;
}

export interface FeedTallyOptions<T> {
  conn: Connection;
  /** The feed's collection. */
  model: Model<T>;
  feed: string;
  owner: string | number;
  /** The tally's document id (unique within the database). */
  id: string;
  dateOf(doc: T): Date;
  /** The day key a document counts on (e.g. its IST calendar day), or null when it does not count. */
  dayOf(doc: T): string | null;
  paiseOf(doc: T): number;
  /** false while the document may still change whether or how it counts. */
  settled(doc: T, now: Date): boolean;
  /** Where a first tally starts, and the oldest day a tally keeps. */
  horizon(now: Date): { since: Date; oldestDay: string };
}

export function feedTally<T>(o: FeedTallyOptions<T>) {
  const tallies = o.conn.collection<TallyDoc>('feed_tallies');
  const counters = o.conn.collection<{ _id: string; seq: number }>('counters');
  const counterId = feedCounterId(o.model.collection.collectionName, o.feed, o.owner);
  const [keyField, seqField] = Object.keys(feedFields(o.feed, o.owner, 0)) as [string, string];
  const bucketKey = (bucket: number) => feedFields(o.feed, o.owner, bucket * BUCKET_SIZE)[keyField];
  const seqOf = (doc: T) => (doc as Record<string, number>)[seqField] ?? 0;

  const readBucket = (bucket: number) =>
    o.model
      .find({ [keyField]: bucketKey(bucket) } as never)
      .lean<T[]>()
      .exec();

  /** The documents numbered after `after` up to `through`, in number order. */
  async function range(after: number, through: number): Promise<T[]> {
    const buckets: number[] = [];
    for (let b = Math.floor((after + 1) / BUCKET_SIZE); b <= Math.floor(through / BUCKET_SIZE); b++)
      buckets.push(b);
    const out: T[] = [];
    for (let i = 0; i < buckets.length; i += CONCURRENCY)
      for (const docs of await Promise.all(buckets.slice(i, i + CONCURRENCY).map(readBucket)))
        out.push(...docs.filter((d) => seqOf(d) > after && seqOf(d) <= through));
    return out.sort((a, b) => seqOf(a) - seqOf(b));
  }

  /** The last number before `since`: walks back from the newest bucket to one entirely older. */
  async function start(newest: number, since: Date): Promise<number> {
    for (let b = Math.floor(newest / BUCKET_SIZE); b >= 0; b--) {
      const docs = await readBucket(b);
      if (docs.length > 0 && docs.every((d) => o.dateOf(d) < since)) return (b + 1) * BUCKET_SIZE - 1;
    }
    return 0;
  }

  async function current(now: Date): Promise<TallyDoc> {
    const found = await tallies.findOne({ _id: o.id });
    if (found) return found;
    const newest = (await counters.findOne({ _id: counterId }))?.seq ?? 0;
    const first = {
      _id: o.id,
      throughSeq: await start(newest, o.horizon(now).since),
      days: {},
      updatedAt: now,
    };
    try {
      await tallies.insertOne(first);
      return first;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await tallies.findOne({ _id: o.id }))!;
    }
  }

  return {
    /** The totals per day key, brought up to date with everything filed and settled. */
    async days(now = new Date()): Promise<Record<string, DayTally>> {
      const tally = await current(now);
      const newest = (await counters.findOne({ _id: counterId }))?.seq ?? 0;
      if (newest <= tally.throughSeq) return tally.days;

      const days = { ...tally.days };
      let through = tally.throughSeq;
      for (const doc of await range(tally.throughSeq, newest)) {
        const gap = seqOf(doc) !== through + 1;
        if (gap && now.getTime() - o.dateOf(doc).getTime() < GAP_GRACE_MS) break;
        if (!o.settled(doc, now)) break;
        const day = o.dayOf(doc);
        if (day) {
          const d = days[day] ?? { count: 0, amountPaise: 0 };
          days[day] = { count: d.count + 1, amountPaise: d.amountPaise + o.paiseOf(doc) };
        }
        through = seqOf(doc);
      }
      if (through === tally.throughSeq) return tally.days;

      const { oldestDay } = o.horizon(now);
      const kept = Object.fromEntries(Object.entries(days).filter(([day]) => day >= oldestDay));
      const moved = await tallies.updateOne(
        { _id: o.id, throughSeq: tally.throughSeq },
        { $set: { throughSeq: through, days: kept, updatedAt: now } },
      );
      if (moved.modifiedCount === 1) return kept;
      // Another reader moved it first: answer its totals (the next read catches up on any difference).
      return (await tallies.findOne({ _id: o.id }))?.days ?? kept;
    },
  };
}

export type FeedTally = ReturnType<typeof feedTally>;
