import type { UserRole } from '@qm/contracts/rest';
import { connectMongo, ensureCollectionIndexes, openStoreEngine, type StoreEngineChoice } from '@qm/platform';

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
}

export interface SessionStore {
  get(key: string): Promise<SessionDoc | null>;
  insert(doc: SessionDoc): Promise<void>;
  update(key: string, fields: Partial<Omit<SessionDoc, '_id'>>): Promise<void>;
  remove(key: string): Promise<SessionDoc | null>;
  /** Deletes the user's sessions created before `before` (their password changed); answers how many. */
  removeUser(userId: number, before: Date): Promise<number>;
  /** Deletes sessions past either limit; expiry is checked in code, not by a TTL index. */
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
          await ensureCollectionIndexes(c, 'sessions', [{ userId: 1 }, { expiresAt: 1 }]);
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

  return {
    async get(key) {
      return (await sessions()).findOne({ _id: key });
    },
    async insert(doc) {
      await (await sessions()).insertOne(doc);
    },
    async update(key, fields) {
      await (await sessions()).updateOne({ _id: key }, { $set: fields });
    },
    async remove(key) {
      const col = await sessions();
      const doc = await col.findOne({ _id: key });
      if (doc) await col.deleteOne({ _id: key });
      return doc;
    },
    async removeUser(userId, before) {
      const res = await (await sessions()).deleteMany({ userId, createdAt: { $lt: before } });
      return res.deletedCount;
    },
    async sweep(now) {
      const res = await (
        await sessions()
      ).deleteMany({ $or: [{ expiresAt: { $lt: now } }, { refreshExpiresAt: { $lt: now } }] });
      return res.deletedCount;
    },
    async close() {
      if (!connecting) return;
      const c = await connecting.catch(() => undefined);
      connecting = undefined;
      await c?.close();
    },
  };
}
