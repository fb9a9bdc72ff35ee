import type { OrderView } from '@qm/contracts/rest';

/** What an order's card says of its refund, in the buyer's or the seller's words; null: nothing to say. */
export interface RefundLine {
  label: 'Refund requested' | 'Refunded' | 'Refund rejected';
  color: 'yellow' | 'grape' | 'red';
  /** The request's reason, or why it was rejected. */
  detail: string;
}

export function refundLine(order: Pick<OrderView, 'refund'>): RefundLine | null {
  const r = order.refund;
  if (!r) return null;
  switch (r.status) {
    case 'requested':
      return { label: 'Refund requested', color: 'yellow', detail: r.reason };
    case 'approved':
      return { label: 'Refunded', color: 'grape', detail: r.reason };
    case 'rejected':
      return { label: 'Refund rejected', color: 'red', detail: r.decisionReason ?? '' };
  }
}

/**
 * Whether its buyer may still ask for this order's money back (docs/adr/028): completed, not free,
 * never asked, within the window. The server decides again; this only hides a button that would fail.
 */
export function mayRequestRefund(
  order: Pick<OrderView, 'status' | 'totalPrice' | 'refund' | 'refundableUntil'>,
  now: number,
): boolean {
  return (
    order.status === 'completed' &&
    /[1-9]/.test(order.totalPrice) &&
    !order.refund &&
    !!order.refundableUntil &&
    Date.parse(order.refundableUntil) > now
  );
}
