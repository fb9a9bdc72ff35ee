import type { SessionDoc, SessionStore } from './store';

/** How long a heard password change keeps filtering this replica's reads (the store is purged well before). */
const REVOKED_KEPT_MS = 60 * 60_000;

export interface CachedSessionStore extends SessionStore {
  /**
   * This replica heard that the user's sessions created before `before` are void: drops them from
   * memory and refuses them from now on, even if a read still finds them in the database.
   */
  forgetUser(userId: number, before: Date): void;
}

/**
 * A short-lived, bounded read-through cache in front of the session store. Every API request
 * resolves its session; without this each one costs a database round trip, which on the local
 * store engine dominated the read path (docs/adr/003). Changes made through this gateway update the cache at
 * once; a session ended through another replica stays usable here for at most `ttlMs`, except
 * sessions voided by a password change, which every replica drops as it hears of it (forgetUser).
 */
export function cachedSessionStore(
  inner: SessionStore,
  { ttlMs, maxEntries }: { ttlMs: number; maxEntries: number },
): CachedSessionStore {
  const entries = new Map<string, { doc: SessionDoc | null; until: number }>();
  const revoked = new Map<number, { before: number; until: number }>(); // userId → cutoff
  const isRevoked = (doc: SessionDoc | null): boolean => {
    if (!doc) return false;
    const r = revoked.get(doc.userId);
    if (r && r.until <= Date.now()) revoked.delete(doc.userId);
    return !!r && r.until > Date.now() && doc.createdAt.getTime() < r.before;
  };
  // Bumped by every write: a read that started before a write finished must not be remembered,
  // or it would put the pre-write session back for ttlMs.
  let writes = 0;
  const forget = (key: string) => {
    writes++;
    entries.delete(key);
  };
  const remember = (key: string, doc: SessionDoc | null) => {
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!); // oldest first
    entries.set(key, { doc, until: Date.now() + ttlMs });
  };

  const forgetUser = (userId: number, before: Date) => {
    writes++;
    const prev = revoked.get(userId)?.before ?? 0;
    revoked.delete(userId);
    if (revoked.size >= maxEntries) revoked.delete(revoked.keys().next().value!);
    revoked.set(userId, { before: Math.max(prev, before.getTime()), until: Date.now() + REVOKED_KEPT_MS });
    for (const [key, e] of entries) if (e.doc?.userId === userId) entries.delete(key);
  };

  const store: CachedSessionStore = {
    async get(key) {
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.doc;
      const before = writes;
      const doc = await inner.get(key);
      if (isRevoked(doc)) return null;
      if (writes === before) remember(key, doc);
      return doc;
    },
    async insert(doc) {
      forget(doc._id);
      await inner.insert(doc);
      remember(doc._id, doc);
    },
    async update(key, fields) {
      forget(key);
      await inner.update(key, fields).finally(() => forget(key));
    },
    async remove(key) {
      forget(key);
      return inner.remove(key).finally(() => forget(key));
    },
    forgetUser,
    async removeUser(userId, before) {
      forgetUser(userId, before);
      return inner.removeUser(userId, before);
    },
    async sweep(now) {
      writes++;
      entries.clear();
      return inner.sweep(now).finally(() => {
        writes++;
        entries.clear();
      });
    },
    close: () => inner.close(),
  };
  return store;
}
