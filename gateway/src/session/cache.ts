import type { SessionDoc, SessionStore } from './store';

/**
 * A short-lived, bounded read-through cache in front of the session store. Every API request
 * resolves its session; without this each one costs a database round trip, which on FerretDB
 * dominated the read path (docs/adr/003). Changes made through this gateway update the cache at
 * once; a session ended through another replica stays usable here for at most `ttlMs`.
 */
export function cachedSessionStore(
  inner: SessionStore,
  { ttlMs, maxEntries }: { ttlMs: number; maxEntries: number },
) {
  const entries = new Map<string, { doc: SessionDoc | null; until: number }>();
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

  const store: SessionStore = {
    async get(key) {
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.doc;
      const before = writes;
      const doc = await inner.get(key);
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
