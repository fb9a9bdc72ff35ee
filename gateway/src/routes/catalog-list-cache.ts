import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);

/** A whole listing as the browser receives it, valid while the catalogue's etag is unchanged. */
export interface CachedListing {
  etag: string;
  total: number;
  json: Buffer;
  gzipped?: Promise<Buffer>;
}

/**
 * The serialised plain lists (`GET /api/products`, with or without type/q), keyed by their filters.
 * The catalog service names the state of the catalogue with an etag and answers "not modified"
 * while it holds, so an entry is served only while it is exactly what a fresh read would give: a
 * write is visible to the very next request. Serialising 10,000 products (~4 MB of JSON) once per
 * change instead of once per request is what keeps the market's 10-second refetch cheap.
 */
export function createListCache(maxBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, CachedListing>();
  const building = new Map<string, Promise<CachedListing>>();
  let bytes = 0;

  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    bytes -= e.json.length;
    entries.delete(key);
  };

  return {
    get(key: string): CachedListing | undefined {
      const e = entries.get(key);
      if (e) {
        // Most recently used last.
        entries.delete(key);
        entries.set(key, e);
      }
      return e;
    },
    /** Builds the entry for (key, etag) once, however many requests ask for it at the same time. */
    async build(key: string, etag: string, make: () => Promise<CachedListing>): Promise<CachedListing> {
      // Without an etag nothing says two reads see the same state: each request reads for itself.
      if (!etag) return make();
      const id = `${key}\u0000${etag}`;
      let pending = building.get(id);
      if (!pending) {
        pending = make().finally(() => building.delete(id));
        building.set(id, pending);
      }
      const entry = await pending;
      if (entry.etag && entries.get(key) !== entry) {
        drop(key);
        if (entry.json.length <= maxBytes) {
          entries.set(key, entry);
          bytes += entry.json.length;
          for (const k of entries.keys()) {
            if (bytes <= maxBytes) break;
            drop(k);
          }
        }
      }
      return entry;
    },
  };
}

/**
 * Sends a listing: 304 when the browser already has this etag, gzip when it accepts it (compressed
 * once per entry), X-Total-Count as for any list.
 */
export async function sendListing(req: Request, res: Response, entry: CachedListing): Promise<void> {
  res.setHeader('X-Total-Count', String(entry.total));
  if (entry.etag) {
    const tag = `"${entry.etag}"`;
    res.setHeader('ETag', tag);
    // The list is the same for every signed-in user; the browser may keep it and revalidate.
    res.setHeader('Cache-Control', 'private, no-cache');
    if (req.get('if-none-match') === tag) {
      res.status(304).end();
      return;
    }
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Vary', 'Accept-Encoding');
  if (entry.json.length > 1024 && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    entry.gzipped ??= gzipAsync(entry.json);
    const body = await entry.gzipped;
    res.setHeader('Content-Encoding', 'gzip');
    res.status(200).end(body);
    return;
  }
  res.status(200).end(entry.json);
}
