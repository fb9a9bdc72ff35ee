/** What the orders service publishes (stream QM_ORDERS): a purchase's end and its refund's steps. */
export const ORDERS_SUBJECTS = {
  completed: 'orders.order.completed',
  cancelled: 'orders.order.cancelled',
  /** A buyer asked for a refund (its proceeds are held until it is decided). */
  refundRequested: 'orders.refund.requested',
  /** The buyer was paid back and the units returned. */
  refundApproved: 'orders.refund.approved',
  /** An administrator rejected the request (final; the proceeds are let go). */
  refundRejected: 'orders.refund.rejected',
} as const;

export interface OrderEndedData {
  id: number;
  reference: string;
  productId: number;
  buyerId: number;
  sellerId: number;
  quantity: number;
  totalPaise: number;
  status: 'completed' | 'cancelled';
  /** Why a cancelled order was cancelled; empty for a completed one. */
  cancelReason: string;
  updatedAt: string;
}

/** A refund's step (docs/adr/028): the order it concerns and where the refund now stands. */
export interface RefundEventData {
  /** The order's id. */
  id: number;
  reference: string;
  buyerId: number;
  sellerId: number;
  totalPaise: number;
  status: 'requested' | 'approved' | 'rejected';
  /** The buyer's reason for asking. */
  reason: string;
  /** The administrator's reason to reject; empty otherwise. */
  decisionReason: string;
  at: string;
}
