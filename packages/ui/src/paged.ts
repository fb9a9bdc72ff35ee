import { throwIfNotOk } from './api';

/** One page of a list endpoint that answers an array and the total in `X-Total-Count`. */
export interface Page<T> {
  items: T[];
  /** All matching items (the `X-Total-Count` header); the page length when the header is missing. */
  total: number;
}

/**
 * GET a paged list (`?page=&pageSize=`): sends cookies, throws ApiError for a non-OK response (like
 * apiFetch), and reads the total from `X-Total-Count`.
 */
export async function apiFetchPage<T>(url: string, init: { signal?: AbortSignal } = {}): Promise<Page<T>> {
  const res = await fetch(url, {
    credentials: 'include',
    headers: { Accept: 'application/json' },
    signal: init.signal,
  });
  await throwIfNotOk(res);
  const items = (await res.json()) as T[];
  const header = Number(res.headers.get('X-Total-Count'));
  return { items, total: Number.isFinite(header) && header >= items.length ? header : items.length };
}

/** A query string from the defined, non-empty values: `{ page: 2, q: '' }` → `?page=2`. */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
