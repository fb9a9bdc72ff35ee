import type { ProductTypeName } from '@qm/contracts/rest';
import { invalid, validPaging } from '@qm/platform';
import { type ProductRecord, searchForm } from './product';

/** How products are listed: filters, paging and chunking. Pure; both read paths share it. */

export interface ListFilter {
  type?: ProductTypeName;
  /** In search form (see `searchForm`); matched as a substring of the name or the description. */
  query?: string;
  manufacturerId?: number;
  ids?: number[];
}

export type Paging =
  { kind: 'page'; page: number; pageSize: number } | { kind: 'chunk'; beforeId: number; size: number };

export interface Listed {
  products: ProductRecord[];
  total: number;
  nextBeforeId: number;
}

export const PAGE_SIZE_DEFAULT = 24;
export const PAGE_SIZE_MAX = 100;
export const CHUNK_SIZE_DEFAULT = 2000;
export const CHUNK_SIZE_MAX = 5000;
/**
 * A chunk stops growing at this estimated encoded size, well under gRPC's 4 MiB default message
 * limit whatever the descriptions' lengths (5,000 characters of up to 3 bytes each).
 */
export const CHUNK_MAX_BYTES = 3 * 1024 * 1024;
export const QUERY_MAX_CHARS = 200;

/** A list request as asked; `type` is null when it names a type this build does not know. */
export interface ListRequest {
  type: ProductTypeName | null | undefined;
  query: string;
  manufacturerId: number;
  ids: number[];
  page: number;
  pageSize: number;
  beforeId: number;
}

export function parseListRequest(req: ListRequest): { filter: ListFilter; paging: Paging } {
  const filter: ListFilter = {};
  if (req.type === null) throw invalid('Unknown product type');
  if (req.type) filter.type = req.type;
  const query = req.query.trim();
  if (query.length > QUERY_MAX_CHARS) throw invalid('Search text must be at most 200 characters');
  if (query) filter.query = searchForm(query);
  if (req.manufacturerId) filter.manufacturerId = req.manufacturerId;
  if (req.ids.length) filter.ids = [...new Set(req.ids)];
  // A page asked (or a bad one): the rules and messages of every list (a page of 24 unless sized).
  if (req.page !== 0) {
    const { page, pageSize } = validPaging(req, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT);
    return { filter, paging: { kind: 'page', page, pageSize } };
  }
  if (req.pageSize < 0) throw invalid('Page size must be positive');
  const size = Math.min(req.pageSize || CHUNK_SIZE_DEFAULT, CHUNK_SIZE_MAX);
  if (req.beforeId < 0) throw invalid('before_id must not be negative');
  return { filter, paging: { kind: 'chunk', beforeId: req.beforeId, size } };
}

/** A product with its name and description in search form. */
export interface Searchable extends ProductRecord {
  nameSearch: string;
  descriptionSearch: string;
}

export function matches(p: Searchable, f: ListFilter, ids?: Set<number>): boolean {
  if (f.type && p.type !== f.type) return false;
  if (f.manufacturerId && p.manufacturerId !== f.manufacturerId) return false;
  if (ids && !ids.has(p.id)) return false;
  if (f.query && !p.nameSearch.includes(f.query) && !p.descriptionSearch.includes(f.query)) return false;
  return true;
}

/** Upper bound of a product's encoded size (UTF-8 is at most 3 bytes per UTF-16 unit). */
export const estimatedBytes = (p: ProductRecord): number => 3 * (p.name.length + p.description.length) + 160;

/** Lists from products already sorted newest first (highest id first). */
export function select(sorted: Iterable<Searchable>, filter: ListFilter, paging: Paging): Listed {
  const ids = filter.ids ? new Set(filter.ids) : undefined;
  const products: ProductRecord[] = [];
  let total = 0;
  let nextBeforeId = 0;
  if (paging.kind === 'page') {
    const from = (paging.page - 1) * paging.pageSize;
    for (const p of sorted) {
      if (!matches(p, filter, ids)) continue;
      if (total >= from && products.length < paging.pageSize) products.push(p);
      total++;
    }
    return { products, total, nextBeforeId };
  }
  let bytes = 0;
  let full = false;
  for (const p of sorted) {
    if (!matches(p, filter, ids)) continue;
    total++;
    if (paging.beforeId && p.id >= paging.beforeId) continue;
    if (full) {
      nextBeforeId = products.at(-1)!.id;
      continue;
    }
    const size = estimatedBytes(p);
    if (products.length && (products.length >= paging.size || bytes + size > CHUNK_MAX_BYTES)) {
      full = true;
      nextBeforeId = products.at(-1)!.id;
      continue;
    }
    products.push(p);
    bytes += size;
  }
  return { products, total, nextBeforeId };
}

/** Trims a chunk read from the database (sorted, one past the size) to the byte budget. */
export function trimChunk(rows: ProductRecord[], size: number): { products: ProductRecord[]; more: boolean } {
  const products: ProductRecord[] = [];
  let bytes = 0;
  for (const p of rows) {
    const est = estimatedBytes(p);
    if (products.length && (products.length >= size || bytes + est > CHUNK_MAX_BYTES))
      return { products, more: true };
    products.push(p);
    bytes += est;
  }
  return { products, more: false };
}
