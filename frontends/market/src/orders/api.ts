import type {
  CreateOrderBody,
  OrderView,
  OrdersPage,
  PurchasedOrderView,
  RefundRequestBody,
  SoldOrderView,
  WalletView,
} from '@qm/contracts/rest';
import { apiFetch, PURCHASED_ORDERS_KEY, SOLD_ORDERS_KEY, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { PRODUCTS_KEY } from '../api';

// Shared with the shell's live updates, which refresh the orders when one of the user's ends.
export { PURCHASED_ORDERS_KEY as PURCHASED_KEY, SOLD_ORDERS_KEY as SOLD_KEY };
/** The wallet remote's queries start with the same key; this one never records a wallet_view. */
const WALLET_BALANCE_KEY = ['/api/wallet', 'balance'] as const;

/** Order cards per page (the API allows at most 32: one feed bucket). */
export const ORDERS_PAGE_SIZE = 20;

/** GET /api/wallet: the payment page reads the balance, it does not view the wallet (no POST /api/wallet/views). */
export const walletBalanceQuery = () =>
  queryOptions({
    queryKey: WALLET_BALANCE_KEY,
    queryFn: ({ signal }) => apiFetch<WalletView>('/api/wallet', { signal }),
    // A top-up in another tab must count: the balance is read afresh on every visit.
    refetchOnMount: 'always',
  });

/** The /orders tabs: the caller's purchases, or a Manufacturer's sales with the buyers' details. */
export type OrdersTab = 'purchased' | 'sold';
type TabOrder = { purchased: PurchasedOrderView; sold: SoldOrderView };

const TAB_KEYS = { purchased: PURCHASED_ORDERS_KEY, sold: SOLD_ORDERS_KEY } as const;

/** GET /api/orders/purchased or /api/orders/sold, newest first. */
export const ordersQuery = <T extends OrdersTab>(tab: T, page: number) =>
  queryOptions({
    queryKey: [...TAB_KEYS[tab], page] as const,
    queryFn: ({ signal }) =>
      apiFetch<OrdersPage<TabOrder[T]>>(
        `/api/orders/${tab}${toQueryString({ page, pageSize: ORDERS_PAGE_SIZE })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    // Every visit reads afresh (another user's purchase may have landed) and counts as an order_view
    // (the gateway records one per read of the first page, so the list is not polled).
    refetchOnMount: 'always',
  });

/** POST /api/orders; the key makes a retry of the same attempt place one order only. */
export const createOrder = (body: CreateOrderBody, idempotencyKey: string) =>
  apiFetch<OrderView>('/api/orders', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

/**
 * After a purchase attempt the stock, the balance and the purchases may have changed: what the page
 * shows is read again at once, so that after a success it shows the stock and balance left (the
 * payment card keeps what was bought and no low-balance warning) and after a failure a changed price
 * or balance is on screen before the next try.
 */
export function refreshAfterPurchase(queryClient: QueryClient) {
  return Promise.all(
    [PRODUCTS_KEY, WALLET_BALANCE_KEY, PURCHASED_ORDERS_KEY].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, refetchType: 'active' }),
    ),
  );
}

export function useRefreshAfterPurchase() {
  const queryClient = useQueryClient();
  return () => refreshAfterPurchase(queryClient);
}

/** POST /api/orders/{id}/refund-request: the buyer's request, answered with the order. */
export const requestRefund = (orderId: number, body: RefundRequestBody) =>
  apiFetch<PurchasedOrderView>(`/api/orders/${orderId}/refund-request`, { method: 'POST', body });

/** The purchases (and the sales) read again after a refund request. */
export function useRefreshOrders() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [PURCHASED_ORDERS_KEY, SOLD_ORDERS_KEY].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey, refetchType: 'active' }),
      ),
    );
}
