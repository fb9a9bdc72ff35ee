import type { QueryFunction } from '@tanstack/react-query';

/** Sent on every state-changing request; the gateway rejects those without it (CSRF defence with SameSite). */
export const CSRF_HEADER = 'X-Requested-With';
export const CSRF_HEADER_VALUE = 'quartermaster';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A non-OK response. `message` is "{status}: {body}" (docs/product.md §7); `serverMessage` is the `message` field of a
 * JSON error body (`{ "message": "..." }`), which is what the UI shows.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  readonly serverMessage: string | undefined;

  constructor(status: number, body: string) {
    super(`${status}: ${body}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.serverMessage = parseServerMessage(body);
  }
}

function parseServerMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** The message to show for a failed call: the server's own message if it sent one, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}

export interface ApiFetchOptions extends Omit<RequestInit, 'body' | 'method'> {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. */
  body?: unknown;
}

/** Throws ApiError for any non-OK response. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new ApiError(res.status, text);
}

/**
 * The generic helper of docs/product.md §7: sends cookies, JSON in and out, throws ApiError ("{status}: {body}") for
 * any non-OK response. Resolves with the parsed JSON body, or undefined when the response has none.
 */
export async function apiFetch<T = unknown>(url: string, options: ApiFetchOptions = {}): Promise<T> {
  const { method = 'GET', body, headers, ...init } = options;
  const finalHeaders = new Headers(headers);
  if (!finalHeaders.has('Accept')) finalHeaders.set('Accept', 'application/json');
  if (body !== undefined) finalHeaders.set('Content-Type', 'application/json');
  if (!SAFE_METHODS.has(method)) finalHeaders.set(CSRF_HEADER, CSRF_HEADER_VALUE);

  const res = await fetch(url, {
    ...init,
    method,
    headers: finalHeaders,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  await throwIfNotOk(res);
  if (res.status === 204 || res.status === 205) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  const type = res.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * Default TanStack Query function: the query key is the URL (`['/api/products']`, or segments joined with
 * "/": `['/api/products', 7]` → `/api/products/7`). On 401 it returns null only when asked to.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKey.map(String).join('/');
    try {
      return await apiFetch<T>(url, { signal });
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };
}
