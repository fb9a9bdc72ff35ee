import { PAGE_DATA_ELEMENT_ID, type PageData } from '@qm/contracts/rest';
import { ApiError, CURRENT_USER_QUERY_KEY, getQueryFn, historyPageKey, WALLET_VIEW_KEY } from '@qm/ui';
import { QueryClient } from '@tanstack/react-query';

/**
 * "One retry" (docs/product.md §9), for failures a retry can fix: network errors and 5xx. A 4xx answer (validation,
 * not found, forbidden, conflict) would only come back the same, and retrying a rejected POST could
 * repeat a side effect, so those are not retried.
 */
export function retryOnce(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/**
 * Server-state defaults (docs/product.md §9): general queries are fresh for 30 s, retry once and do not poll.
 *
 * Window-focus refetching: the product reference gives two readings (refetch on focus / none). General queries take
 * "none": a tab switch must not fire a burst of requests, and the data that has to stay live says so
 * itself (the market list polls every 10 s; the current-user query in @qm/ui opts back in to refetching on
 * focus, as the product reference requires for it).
 *
 * Mutations retry once as well (docs/product.md §9); the services make state-changing calls idempotent on a
 * reference, so a retried request cannot apply twice.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: 30_000,
      retry: retryOnce,
      refetchInterval: false,
      refetchOnWindowFocus: false,
    },
    mutations: {
      retry: retryOnce,
    },
  },
});

/**
 * Nobody is signed in, known without asking GET /api/user: the gateway serves the prerendered landing
 * page only to a request without a session (ADR 018), so the prerender renders a visitor's page and the
 * bundle hydrates it with the same answer (a visitor's first paint has the sign-in links, and the
 * browser logs no 401).
 */
export function startAsVisitor(): void {
  queryClient.setQueryData(CURRENT_USER_QUERY_KEY, null);
}

/**
 * What the gateway sent with the page (docs/adr/031), put into the cache before the first render: who
 * is signed in, or that nobody is (a request without a session), is known without asking GET
 * /api/user, and /wallet's balance and first history page are there for its frame and page (which
 * still loads the wallet again, recording the view). A page without it asks as before. Answers
 * whether it said who is signed in.
 */
export function seedPageData(doc: Pick<Document, 'getElementById'> = document): boolean {
  const json = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!json) return false;
  let data: PageData;
  try {
    data = JSON.parse(json) as PageData;
  } catch {
    return false;
  }
  if (data.user !== undefined) queryClient.setQueryData(CURRENT_USER_QUERY_KEY, data.user);
  if (data.wallet) queryClient.setQueryData(WALLET_VIEW_KEY, data.wallet);
  if (data.transactions) queryClient.setQueryData(historyPageKey(1), data.transactions);
  return Boolean(data.user);
}
