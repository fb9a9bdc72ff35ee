import { randomBytes } from 'node:crypto';
import { type ListFilter, type Listed, type Paging, type Searchable, select } from '../domain/listing';
import type { ProductStore } from './products';

/** Where reads are answered from: the in-memory read model, or the database itself. */
export interface ProductReader {
  get(id: number): Promise<Searchable | null>;
  list(filter: ListFilter, paging: Paging): Promise<Listed>;
  /** A change this process made (or learnt of): keeps the read side current. */
  saved(product: Searchable): void;
  removed(id: number): void;
  /** Re-reads one product from the database (a change made elsewhere). */
  refresh(id: number): Promise<void>;
  /** Re-reads everything (safety net for missed notifications). */
  resync(): Promise<void>;
  /**
   * Names the current state of the whole catalogue: any change gives a new one, so a listing
   * cached under it is still exact while it is current. Empty when unknown.
   */
  etag(): string;
  readonly size: number;
}

/**
 * An in-memory copy of the catalogue, newest first, kept current by this process's own writes and
 * by change notifications from other replicas. Reads never touch the database, so listing and
 * searching 10,000 products costs a scan of memory instead of a collection scan: the local engine runs
 * every filter, sort and limit in its own process, outside SQLite's indexes (services/catalog/README.md).
 *
 * Each product carries a version incremented by every change; an older copy never replaces a
 * newer one, and a deleted id (ids are never reused) never comes back.
 */
export function memoryReader(store: ProductStore): ProductReader {
  const byId = new Map<number, Searchable>();
  /** Ids, highest (newest) first. */
  let order: number[] = [];
  const deleted = new Set<number>();
  /** This replica (each holds its own copy) and how many changes its copy has seen. */
  const instance = randomBytes(6).toString('base64url');
  let changes = 0;

  /** Index of the first id lower than or equal to `id` in the descending order. */
  function position(id: number): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order[mid]! > id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function put(p: Searchable): void {
    if (deleted.has(p.id)) return;
    const current = byId.get(p.id);
    if (current && current.version > p.version) return;
    if (current === p) return;
    byId.set(p.id, p);
    changes++;
    if (!current) {
      if (!order.length || p.id > order[0]!) order.unshift(p.id);
      else order.splice(position(p.id), 0, p.id);
    }
  }

  function drop(id: number): void {
    deleted.add(id);
    if (!byId.delete(id)) return;
    changes++;
    const i = position(id);
    if (order[i] === id) order.splice(i, 1);
  }

  function* sorted(): Iterable<Searchable> {
    for (const id of order) {
      const p = byId.get(id);
      if (p) yield p;
    }
  }

  return {
    async get(id) {
      const cached = byId.get(id);
      if (cached) return cached;
      if (deleted.has(id)) return null;
      // Created by another replica a moment ago, before its notification arrived.
      const fresh = await store.findById(id);
      if (fresh) put(fresh);
      return fresh;
    },
    async list(filter, paging) {
      return select(sorted(), filter, paging);
    },
    saved: put,
    removed: drop,
    async refresh(id) {
      const fresh = await store.findById(id);
      if (fresh) put(fresh);
      else drop(id);
    },
    async resync() {
      const started = new Map(byId);
      const all = await store.all();
      const seen = new Set<number>();
      for (const p of all) {
        seen.add(p.id);
        put(p);
      }
      // Gone from the database: drop, unless it appeared in memory after the read began.
      for (const [id, p] of started) if (!seen.has(id) && byId.get(id) === p) drop(id);
      order = order.filter((id) => byId.has(id));
    },
    etag: () => `${instance}-${changes}`,
    get size() {
      return byId.size;
    },
  };
}

/** Reads straight from the database's indexes (real MongoDB, many replicas, huge catalogues). */
export function databaseReader(store: ProductStore): ProductReader {
  return {
    get: (id) => store.findById(id),
    list: (filter, paging) => store.list(filter, paging),
    saved: () => undefined,
    removed: () => undefined,
    refresh: async () => undefined,
    resync: async () => undefined,
    etag: () => '',
    size: 0,
  };
}
