import type { UserRole } from '@qm/contracts/rest';
import type { Filter } from 'mongodb';
import {
  connectMongo,
  ensureCollectionIndexes,
  openStoreEngine,
  type StoreEngineChoice,
  windowedSweep,
  windowOf,
} from '@qm/platform';

type Connection = Awaited<ReturnType<typeof connectMongo>>;

/**
 * A session as stored in the gateway's database (qm_gateway.sessions). The key is a keyed hash of
 * the cookie value, so the database never holds a usable session id. Tokens never leave the server.
 */
export interface SessionDoc {
  _id: string;
  userId: number;
  username: string;
  roles: UserRole[];
  clientId: string;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  /** Keycloak's idle limit: past it the refresh token is dead, and so is the session. */
  refreshExpiresAt: Date;
  /** The session's absolute end. */
  expiresAt: Date;
  createdAt: Date;
  userAgent: string;
  /**
   * The window of SESSION_WINDOW_MS in which the session ends (the earlier of its two limits),
   * moved on by each refresh: the sweep deletes a window at a time (docs/adr/042).
   */
  dueWindow?: number;
}

/** Sessions are swept a minute of endings at a time. */
export const SESSION_WINDOW_MS = 60_000;
/** The window a session ends in: the earlier of its limits (a refresh never extends past the absolute one). */
const dueWindowOf = (limits: { expiresAt?: Date; refreshExpiresAt?: Date }): number | undefined => {
  const times = [limits.expiresAt, limits.refreshExpiresAt].filter((d): d is Date => !!d);
  return times.length
    ? windowOf(new Date(Math.min(...times.map((d) => d.getTime()))), SESSION_WINDOW_MS)
    : undefined;
};

export interface SessionStore {
  get(key: string): Promise<SessionDoc | null>;
  insert(doc: SessionDoc): Promise<void>;
  update(key: string, fields: Partial<Omit<SessionDoc, '_id'>>): Promise<void>;
  remove(key: string): Promise<SessionDoc | null>;
  /** Deletes the user's sessions created before `before` (their password changed); answers how many. */
  removeUser(userId: number, before: Date): Promise<number>;
  /**
   * Deletes sessions past either limit; expiry is checked in code, not by a TTL index. A process
   * first catches up with every session (then hourly), then deletes the windows that ended since.
   */
  sweep(now: Date): Promise<number>;
  close(): Promise<void>;
}

export function mongoSessionStore(opts: {
  url: string;
  db: string;
  maxPoolSize?: number;
  /** The store engine of the database (docs/adr/024); the MongoDB API alone when unset. */
  engine?: StoreEngineChoice;
}): SessionStore {
  let connecting: Promise<Connection> | undefined;
  const conn = () => {
    if (!connecting) {
      connecting = (async () => {
        const c = await connectMongo(opts.url, opts.db, { maxPoolSize: opts.maxPoolSize ?? 1 });
        const engine = await openStoreEngine(c, opts.engine ?? { engine: 'mongodb' });
        try {
          await ensureCollectionIndexes(c, 'sessions', [{ userId: 1 }, { expiresAt: 1 }, { dueWindow: 1 }]);
        } finally {
          await engine.close();
        }
        return c;
      })();
      // A failed connection is retried by the next request instead of being remembered.
      connecting.catch(() => {
        connecting = undefined;
      });
    }
    return connecting;
  };
  const sessions = async () => (await conn()).collection<SessionDoc>('sessions');
  const deleted = async (filter: Filter<SessionDoc>) =>
    (await (await sessions()).deleteMany(filter)).deletedCount;
  const ended = (due: Date) => ({ $or: [{ expiresAt: { $lt: due } }, { refreshExpiresAt: { $lt: due } }] });
  const sweepWindows = windowedSweep({
    windowMs: SESSION_WINDOW_MS,
    catchUpEveryMs: 60 * 60_000,
    catchUp: async (due) => ({ handled: await deleted(ended(due)), complete: true }),
    // Every session filed under a window ended within it; the condition keeps one that a write
    // raced to a later limit.
    window: (window) => deleted({ dueWindow: window, ...ended(new Date((window + 1) * SESSION_WINDOW_MS)) }),
  });

  return {
    async get(key) {
      return (await sessions()).findOne({ _id: key });
    },
    async insert(doc) {
      await (await sessions()).insertOne({ ...doc, dueWindow: dueWindowOf(doc) });
    },
    async update(key, fields) {
      const dueWindow = dueWindowOf(fields);
      await (
        await sessions()
      ).updateOne({ _id: key }, { $set: dueWindow === undefined ? fields : { ...fields, dueWindow } });
    },
    async remove(key) {
      const col = await sessions();
      const doc = await col.findOne({ _id: key });
      if (doc) await col.deleteOne({ _id: key });
      return doc;
    },
    removeUser: (userId, before) => deleted({ userId, createdAt: { $lt: before } }),
    sweep: (now) => sweepWindows(now, now),
    async close() {
      if (!connecting) return;
      const c = await connecting.catch(() => undefined);
      connecting = undefined;
      await c?.close();
    },
  };
}
