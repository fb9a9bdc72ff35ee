export { formatINR, formatRupees } from './money';
export {
  PRODUCTS_KEY,
  PURCHASED_ORDERS_KEY,
  refreshWalletQueries,
  SOLD_ORDERS_KEY,
  TRANSACTIONS_KEY,
  WALLET_KEY,
  WALLET_VIEW_KEY,
  historyPageKey,
} from './queryKeys';
export { StockIndicator } from './StockIndicator';
export { stockLabel, stockLevel, LOW_STOCK_THRESHOLD } from './stock-label';
export type { StockIndicatorProps } from './StockIndicator';
export type { StockLevel } from './stock-label';
export {
  ApiError,
  apiFetch,
  errorMessage,
  getQueryFn,
  throwIfNotOk,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
} from './api';
export type { ApiFetchOptions, UnauthorizedBehavior } from './api';
export {
  CURRENT_USER_QUERY_KEY,
  currentUserQueryOptions,
  fetchCurrentUser,
  useCurrentUser,
  userInitials,
} from './user';
export type { CurrentUser, CurrentUserState, UserRole, UserStatus } from './user';
export { PageLoader } from './components/PageLoader';
export { RefreshingLoader } from './components/RefreshingLoader';
export { RelativeTime } from './components/RelativeTime';
export { MountedFromFirstOpening, useOpenedOnce } from './components/MountedFromFirstOpening';
export type { PageLoaderProps } from './components/PageLoader';
export { EmptyState } from './components/EmptyState';
export { LoadError } from './components/LoadError';
export type { LoadErrorProps } from './components/LoadError';
export type { EmptyStateProps } from './components/EmptyState';
export { PageHeader } from './components/PageHeader';
export { BalanceFigure, WalletActionsPlaceholder, WalletSummary } from './components/WalletSummary';
export {
  HISTORY_FILTER_PROPS,
  HistoryFilterPlaceholder,
  NoTransactions,
  TransactionHistoryCard,
} from './components/TransactionHistoryCard';
export { PAGE_HEADINGS, pageHeadingOf } from './pageHeadings';
export type { PageHeading } from './pageHeadings';
export { ResponsiveTable } from './components/ResponsiveTable';
export type { DataAttributes, ResponsiveColumn, ResponsiveTableProps } from './components/ResponsiveTable';
export type { PageHeaderProps } from './components/PageHeader';
export type { RemoteRoute, RemoteRoutesModule, RemoteHealthModule, RemotePageLocation } from './remote';
export { apiFetchPage, toQueryString } from './paged';
export type { Page } from './paged';
export {
  USER_LOOKUP_STALE_MS,
  fetchUserSummary,
  useUserSummary,
  userDisplayName,
  userSummaryQueryOptions,
} from './userLookup';
export type { UserSummary } from './userLookup';
export { exactDate, fromNow, longDateTime } from './dates';
export { orderStatusColor, statusLabel } from './order-status';
export { OrderStatusBadge } from './OrderStatusBadge';
export type { OrderStatusBadgeProps } from './OrderStatusBadge';
export { IdempotentAttempt, outcomeUnknown, useIdempotentAttempt } from './idempotency';
export { TransactionFailureReason, TransactionStatusBadge, TransactionTypeBadge } from './TransactionStatus';
export { toast, toastCarriesOver } from './toast';
