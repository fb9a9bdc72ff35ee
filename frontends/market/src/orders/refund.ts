import { isNonZeroAmount, type OrderView } from '@qm/contracts/rest';
import { longDateTime } from '@qm/ui';

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
    isNonZeroAmount(order.totalPrice) &&
    !order.refund &&
    !!order.refundableUntil &&
    Date.parse(order.refundableUntil) > now
  );
}

/**
 * What a sale's card tells its seller of the payment (docs/adr/028): held in escrow while its buyer
 * may ask for a refund, and while a request is open; nothing once it has reached their balance or
 * gone back to the buyer. The wallet's "Proceeds on hold" lists the same amounts.
 */
export function proceedsLine(
  order: Pick<OrderView, 'status' | 'totalPrice' | 'refund' | 'refundableUntil'>,
  now: number,
): string | null {
  if (order.status !== 'completed' || !isNonZeroAmount(order.totalPrice)) return null;
  if (order.refund?.status === 'requested') return 'Payment held until the refund request is decided';
  if (order.refundableUntil && Date.parse(order.refundableUntil) > now)
    return `Payment held until ${longDateTime(order.refundableUntil)}`;
  return null;
}
