import type { OwnWalletView, TransactionStatusName } from '@qm/contracts/rest';
import type { QueryClient } from '@tanstack/react-query';
import { apiFetch } from './api';

// The query keys (prefixes) that more than one frontend refreshes: the remotes read with them, and
// the shell's live updates invalidate them (one QueryClient, shared as a Module Federation singleton).

/** Every product query: market pages, single products, the admin table. */
export const PRODUCTS_KEY = ['/api/products'] as const;
/** Every read of the caller's wallet (the wallet page's, which records a view, and plain balance reads). */
export const WALLET_KEY = ['/api/wallet'] as const;
/**
 * The /wallet page's read (POST /api/wallet/views, which records the view); the shell seeds it with the
 * wallet the gateway sent in the page (docs/adr/031), and its frame draws the balance from it.
 */
export const WALLET_VIEW_KEY = [...WALLET_KEY, 'view'] as const;
/** Every page of the caller's transaction history. */
export const TRANSACTIONS_KEY = ['/api/transactions'] as const;
/**
 * One page of the /wallet page's history (all statuses without `status`); the shell seeds the first
 * with the page the gateway sent in the HTML (docs/adr/031).
 */
export const historyPageKey = (page: number, status?: TransactionStatusName) =>
  [...TRANSACTIONS_KEY, { page, status }] as const;
/** The caller's purchases; reading the first page records an order_view. */
export const PURCHASED_ORDERS_KEY = ['/api/orders/purchased'] as const;
/** A Manufacturer's sales. */
export const SOLD_ORDERS_KEY = ['/api/orders/sold'] as const;

/**
 * After money moved: every history page refetches, and the balance is fetched with GET /api/wallet and
 * written into the wallet queries held (refetching the wallet page's query would record another view).
 */
export async function refreshWalletQueries(queryClient: QueryClient): Promise<void> {
  const history = queryClient.invalidateQueries({ queryKey: TRANSACTIONS_KEY });
  if (queryClient.getQueriesData({ queryKey: WALLET_KEY }).length) {
    try {
      queryClient.setQueriesData({ queryKey: WALLET_KEY }, await apiFetch<OwnWalletView>('/api/wallet'));
    } catch {
      // The balance stays as it was; the page's next load fetches it again.
    }
  }
  await history;
}
