import type {
  EligibilityView,
  PaymentOrderView,
  SandboxPaymentView,
  TransactionsPage,
  TransactionStatusName,
  OwnWalletView,
  VerifyPaymentBody,
} from '@qm/contracts/rest';
import { WALLET_LIMITS } from '@qm/contracts/rules';
import {
  apiFetch,
  historyPageKey,
  refreshWalletQueries,
  toQueryString,
  TRANSACTIONS_KEY,
  WALLET_KEY,
  WALLET_VIEW_KEY,
} from '@qm/ui';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';

/** Header of the money-moving calls: a retry with the same key has no second effect (docs/adr/006). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

// Shared with the shell's live updates, which refresh the wallet when money arrives.
export { TRANSACTIONS_KEY, WALLET_KEY };

/** Rows per history page (the API allows at most 32: one feed bucket). */
export const HISTORY_PAGE_SIZE = WALLET_LIMITS.historyPageSize;

// A view is recorded by a POST (never by a GET, which a cross-site link could trigger): the page's
// load is POST /api/wallet/views, which answers the wallet as GET /api/wallet does.
const fetchWallet = (view: boolean, signal?: AbortSignal) =>
  view
    ? apiFetch<OwnWalletView>('/api/wallet/views', { method: 'POST', signal })
    : apiFetch<OwnWalletView>('/api/wallet', { signal });

/**
 * The wallet as the /wallet page loads it: POST /api/wallet/views records wallet_view (docs/product.md §2), and
 * every visit loads it afresh. Refreshes after money moved go through useRefreshWallet (GET), which
 * does not count as a view.
 */
export const walletViewQuery = () =>
  queryOptions({
    queryKey: WALLET_VIEW_KEY,
    queryFn: ({ signal }) => fetchWallet(true, signal),
    refetchOnMount: 'always',
  });

export interface HistoryFilters {
  page: number;
  status?: TransactionStatusName;
}

/** GET /api/transactions: the caller's history, newest first. */
export const transactionsQuery = ({ page, status }: HistoryFilters) =>
  queryOptions({
    queryKey: historyPageKey(page, status),
    queryFn: ({ signal }) =>
      apiFetch<TransactionsPage>(
        `/api/transactions${toQueryString({ page, pageSize: HISTORY_PAGE_SIZE, status })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

export const pinStatusQuery = () =>
  queryOptions({
    queryKey: ['/api/wallet/pin-status'] as const,
    queryFn: ({ signal }) => apiFetch<{ isPinSetup: boolean }>('/api/wallet/pin-status', { signal }),
    // Asked afresh on every Transfer click: the PIN may have been set in another tab.
    staleTime: 0,
    retry: false,
  });

export const eligibilityQuery = (username: string) =>
  queryOptions({
    queryKey: ['/api/check-username-eligibility', username] as const,
    queryFn: ({ signal }) =>
      apiFetch<EligibilityView>(`/api/check-username-eligibility/${encodeURIComponent(username)}`, {
        signal,
      }),
    staleTime: 5_000,
    retry: false,
  });

const withKey = (key: string) => ({ [IDEMPOTENCY_HEADER]: key });

export const createOrder = (amount: string, idempotencyKey: string) =>
  apiFetch<PaymentOrderView>('/api/create-order', {
    method: 'POST',
    body: { amount },
    headers: withKey(idempotencyKey),
  });

export type SandboxCard = {
  cardNumber: string;
  expiry: string;
  cvc: string;
};

export const sandboxPay = (orderId: string, card: SandboxCard) =>
  apiFetch<SandboxPaymentView>('/api/sandbox/pay', { method: 'POST', body: { orderId, ...card } });

export const verifyPayment = (proof: VerifyPaymentBody, idempotencyKey: string) =>
  apiFetch<unknown>('/api/verify-payment', {
    method: 'POST',
    body: proof,
    headers: withKey(idempotencyKey),
  });

export const setupPin = (pin: string, confirmPin: string) =>
  apiFetch('/api/wallet/setup-pin', { method: 'POST', body: { pin, confirmPin } });

export const sendPinOtp = () => apiFetch('/api/wallet/send-otp', { method: 'POST', body: {} });

export const verifyPinOtp = (otp: string) =>
  apiFetch('/api/wallet/verify-otp', { method: 'POST', body: { otp } });

export type TransferRequest = {
  receiverUsername: string;
  amount: string;
  pin: string;
};

export const transfer = (body: TransferRequest, idempotencyKey: string) =>
  apiFetch<{ message?: string }>('/api/wallet/transfer', {
    method: 'POST',
    body,
    headers: withKey(idempotencyKey),
  });

/**
 * After money moved: every history page refetches, and the balance is fetched with GET /api/wallet and
 * written into the page's query (refetching that query would record another view).
 */
export function useRefreshWallet() {
  const queryClient = useQueryClient();
  return () => refreshWalletQueries(queryClient);
}
