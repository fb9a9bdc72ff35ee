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
  const remember = (key: string, doc: SessionDoc | null) => {
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!); // oldest first
    entries.set(key, { doc, until: Date.now() + ttlMs });
  };

  const store: SessionStore = {
    async get(key) {
      const hit = entries.get(key);
      if (hit && hit.until > Date.now()) return hit.doc;
      const doc = await inner.get(key);
      remember(key, doc);
      return doc;
    },
    async insert(doc) {
      await inner.insert(doc);
      remember(doc._id, doc);
    },
    async update(key, fields) {
      entries.delete(key);
      await inner.update(key, fields);
    },
    async remove(key) {
      entries.delete(key);
      return inner.remove(key);
    },
    async sweep(now) {
      entries.clear();
      return inner.sweep(now);
    },
    close: () => inner.close(),
  };
  return store;
}
