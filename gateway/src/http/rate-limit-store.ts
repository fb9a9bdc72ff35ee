import { createHash } from 'node:crypto';
import {
  connectMongo,
  ensureCollectionIndexes,
  isDuplicateKeyError,
  openStoreEngine,
  type StoreEngineChoice,
} from '@qm/platform';

type Connection = Awaited<ReturnType<typeof connectMongo>>;

/** A client's hits in the current window, as express-rate-limit's stores answer them. */
export interface WindowHits {
  totalHits: number;
  resetTime: Date;
}

/**
 * Fixed-window hit counters shared by every gateway replica (the rate limits' state). Each key is
 * one document; every change is a single-document conditional update, so replicas racing on the
 * same key never lose a hit.
 */
export interface HitCounter {
  /** Counts a hit; a window past its end starts again with this hit. */
  increment(key: string, windowMs: number): Promise<WindowHits>;
  decrement(key: string): Promise<void>;
  get(key: string): Promise<WindowHits | undefined>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

interface CounterDoc {
  /** A hash of the limiter's name and the client's key (an address, a user id, an account name). */
  _id: string;
  hits: number;
  resetAt: Date;
}

/** The collection, in the gateway's own database (MONGO_DB, next to the sessions). */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

/** How many times an increment retries after losing a race to restart or create a window. */
const MAX_RACES = 5;

/**
 * The counters in the gateway's database. Expired windows are deleted by a periodic sweep, not a
 * TTL index, which the local engine does not honour (docs/adr/024); a window past its end is restarted by
 * compare-and-set whether or not the sweep has run.
 */
export function mongoHitCounter(opts: {
  url: string;
  db: string;
  maxPoolSize?: number;
  /** The store engine of the database (docs/adr/024); the MongoDB API alone when unset. */
  engine?: StoreEngineChoice;
  sweepIntervalMs?: number;
}): HitCounter {
  let connecting: Promise<Connection> | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const conn = () => {
    if (!connecting) {
      connecting = (async () => {
        const c = await connectMongo(opts.url, opts.db, { maxPoolSize: opts.maxPoolSize ?? 2 });
        const engine = await openStoreEngine(c, opts.engine ?? { engine: 'mongodb' });
        try {
          await ensureCollectionIndexes(c, RATE_LIMIT_COLLECTION, [{ resetAt: 1 }]);
        } finally {
          await engine.close();
        }
        sweeper ??= setInterval(() => {
          void c
            .collection(RATE_LIMIT_COLLECTION)
            .deleteMany({ resetAt: { $lt: new Date() } })
            .catch(() => undefined);
        }, opts.sweepIntervalMs ?? 60_000).unref();
        return c;
      })();
      // A failed connection is retried by the next request instead of being remembered.
      connecting.catch(() => {
        connecting = undefined;
      });
    }
    return connecting;
  };
  const counters = async () => (await conn()).collection<CounterDoc>(RATE_LIMIT_COLLECTION);
  const idOf = (key: string) => createHash('sha256').update(key).digest('base64url');
  const hits = (doc: CounterDoc): WindowHits => ({ totalHits: doc.hits, resetTime: doc.resetAt });

  return {
    async increment(key, windowMs) {
      const col = await counters();
      const _id = idOf(key);
      for (let race = 0; race < MAX_RACES; race++) {
        const now = new Date();
        const counted = await col.findOneAndUpdate(
          { _id, resetAt: { $gt: now } },
          { $inc: { hits: 1 } },
          { returnDocument: 'after' },
        );
        if (counted) return hits(counted);
        const resetAt = new Date(now.getTime() + windowMs);
        // The window ended: restart it only if nobody else has since (compare-and-set on resetAt).
        const restarted = await col.findOneAndUpdate(
          { _id, resetAt: { $lte: now } },
          { $set: { hits: 1, resetAt } },
          { returnDocument: 'after' },
        );
        if (restarted) return hits(restarted);
        try {
          await col.insertOne({ _id, hits: 1, resetAt });
          return { totalHits: 1, resetTime: resetAt };
        } catch (err) {
          // Another replica created it first: count on theirs.
          if (!isDuplicateKeyError(err)) throw err;
        }
      }
      throw new Error(`rate limit counter: lost ${MAX_RACES} races in a row`);
    },
    async decrement(key) {
      await (
        await counters()
      ).updateOne({ _id: idOf(key), hits: { $gt: 0 }, resetAt: { $gt: new Date() } }, { $inc: { hits: -1 } });
    },
    async get(key) {
      const doc = await (await counters()).findOne({ _id: idOf(key), resetAt: { $gt: new Date() } });
      return doc ? hits(doc) : undefined;
    },
    async reset(key) {
      await (await counters()).deleteOne({ _id: idOf(key) });
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      if (!connecting) return;
      const c = await connecting.catch(() => undefined);
      connecting = undefined;
      await c?.close();
    },
  };
}
