import {
  type AdminOrderView,
  type OrdersPage,
  type RefundDecisionBody,
  type RefundStatusName,
  type RefundView,
} from '@qm/contracts/rest';
import { apiFetch, formatINR, toQueryString } from '@qm/ui';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

/** docs/adr/028: a decision invalidates this list (every page, filter and search). */
export const ADMIN_REFUNDS_KEY = ['/api/admin/refunds'] as const;

/** Rows per page of /admin/refunds (the API allows at most 32). */
export const ADMIN_REFUNDS_PAGE_SIZE = 20;

/** The status filter of /admin/refunds ('' is every status). */
export const REFUND_FILTERS: { value: '' | RefundStatusName; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'requested', label: 'Requested' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

export const REFUND_STATUS_LOOK: Record<RefundStatusName, { label: string; color: string }> = {
  requested: { label: 'Requested', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
};

/**
 * What a refund's status badge is followed by: where an approved refund's money came from, or why it
 * was rejected; nothing while it is open.
 */
export function refundStatusLine(refund: RefundView): string | null {
  if (refund.status === 'approved') {
    if (refund.source === 'escrow') return 'from held proceeds';
    if (refund.source === 'seller') return "from the seller's balance";
    return null;
  }
  if (refund.status === 'rejected') return refund.decisionReason || null;
  return null;
}

/** The Approve refund dialog's sentence: what approving does. */
export function approveRefundText(order: Pick<AdminOrderView, 'totalPrice' | 'quantity'>): string {
  const units = order.quantity === 1 ? 'the 1 unit returns' : `the ${order.quantity} units return`;
  return `The buyer gets ${formatINR(order.totalPrice)} back, and ${units} to stock.`;
}

export interface AdminRefundsFilters {
  page: number;
  pageSize: number;
  status?: RefundStatusName;
  search?: string;
}

/** GET /api/admin/refunds: open requests first, newest first within each. */
export const adminRefundsQuery = (filters: AdminRefundsFilters) =>
  queryOptions({
    queryKey: [...ADMIN_REFUNDS_KEY, filters] as const,
    queryFn: ({ signal }) =>
      apiFetch<OrdersPage<AdminOrderView>>(`/api/admin/refunds${toQueryString({ ...filters })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** PATCH /api/admin/refunds/{orderId}: the decision, once. */
export const decideRefund = (orderId: number, body: RefundDecisionBody) =>
  apiFetch<AdminOrderView>(`/api/admin/refunds/${orderId}`, { method: 'PATCH', body });
