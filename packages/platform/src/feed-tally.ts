import type { Connection, Model } from 'mongoose';
import { BUCKET_SIZE, feedCounterId, feedFields } from './feeds';
import { isDuplicateKeyError } from './mongo';
import { sequencesOf } from './store/engine';

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
/** Buckets read and saved per step of a catch-up. */
const STEP_BUCKETS = 64;

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

/** A feed's running totals per day (feedTally). */
export interface FeedTally {
  /** The totals per day key, brought up to date with everything filed and settled. */
  days(now?: Date): Promise<Record<string, DayTally>>;
}

export function feedTally<T>(o: FeedTallyOptions<T>): FeedTally {
  const tallies = o.conn.collection<TallyDoc>('feed_tallies');
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

  /**
   * The last number before `since`: a binary search for the newest bucket entirely older (a feed
   * is filed in time order), so a first tally of a long feed starts in a few reads, not one per bucket.
   */
  async function start(newest: number, since: Date): Promise<number> {
    // An empty bucket is not older: nothing is filed there yet (a new feed), and starting after it
    // would skip the first entries the feed gets.
    const olderThanSince = async (b: number) => {
      const docs = await readBucket(b);
      return docs.length > 0 && docs.every((d) => o.dateOf(d) < since);
    };
    let lo = -1; // the newest bucket known to be entirely older (-1: none)
    let hi = Math.floor(newest / BUCKET_SIZE) + 1; // the oldest bucket known not to be
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await olderThanSince(mid)) lo = mid;
      else hi = mid;
    }
    return lo < 0 ? 0 : (lo + 1) * BUCKET_SIZE - 1;
  }

  async function current(now: Date): Promise<TallyDoc> {
    const found = await tallies.findOne({ _id: o.id });
    if (found) return found;
    const newest = await sequencesOf(o.conn).current(counterId);
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
    async days(now = new Date()): Promise<Record<string, DayTally>> {
      let tally = await current(now);
      const newest = await sequencesOf(o.conn).current(counterId);
      // In steps of STEP_BUCKETS, each saved: a long catch-up (a first tally of a busy feed) keeps
      // its progress even if the caller gives up waiting, and no step holds much in memory.
      while (newest > tally.throughSeq) {
        const stepEnd = Math.min(
          newest,
          (Math.floor((tally.throughSeq + 1) / BUCKET_SIZE) + STEP_BUCKETS) * BUCKET_SIZE - 1,
        );
        const days = { ...tally.days };
        let through = tally.throughSeq;
        for (const doc of await range(tally.throughSeq, stepEnd)) {
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
        // Another reader moved it first: go on from its totals (they include what we just read).
        const next =
          moved.modifiedCount === 1
            ? { ...tally, throughSeq: through, days: kept }
            : await tallies.findOne({ _id: o.id });
        if (!next) return kept;
        // Stopped early (a pending document or a fresh gap): answer what is settled.
        if (moved.modifiedCount === 1 && through < stepEnd) return kept;
        tally = next;
      }
      return tally.days;
    },
  };
}
