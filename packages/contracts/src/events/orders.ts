/** What the orders service publishes (stream QM_ORDERS) when a purchase ends. */
export const ORDERS_SUBJECTS = {
  completed: 'orders.order.completed',
  cancelled: 'orders.order.cancelled',
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
