/**
 * What the chat's tools return: the caller's own records, in paise and ISO dates, before any
 * wording. The built-in engine words them (domain/answers.ts); a model gets them as JSON.
 */

export interface UserFact {
  userId: number;
  username: string;
  firstName: string;
  name: string;
  /** Army, Navy, Airforce, Manufacturer or Admin. */
  role: string;
  division: string;
  isAdmin: boolean;
}

/** A refund request on an order (docs/adr/028), as its buyer's Orders page shows it. */
export interface RefundFact {
  /** requested until an administrator decides (an approval under way included), then approved or rejected. */
  status: 'requested' | 'approved' | 'rejected';
  reason: string;
  requestedAt: string;
  /** Why it was rejected; empty otherwise. */
  decisionReason: string;
  /** Empty until decided. */
  decidedAt: string;
}

export interface OrderFact {
  id: number;
  productId: number;
  productName: string;
  productType: string;
  quantity: number;
  totalPaise: number;
  status: string;
  cancelReason: string;
  /** Whether the caller bought it or sold it. */
  side: 'purchase' | 'sale';
  /** The other party: the seller for a purchase, the buyer for a sale. */
  counterparty: string;
  createdAt: string;
  /** Until when its buyer may ask for a refund; empty when it cannot be refunded. */
  refundableUntil: string;
  /** null until a refund is asked for. */
  refund: RefundFact | null;
}

/** The purchase whose refund was asked for last, among the caller's newest `looked` of `total`. */
export interface LatestRefund {
  order: OrderFact | null;
  looked: number;
  total: number;
}

export interface WalletFact {
  balancePaise: number;
  heldPaise: number;
  availablePaise: number;
}

export interface TransactionFact {
  id: number;
  type: string;
  status: string;
  /** Why a failed one failed (a declined card, an expired checkout); empty otherwise. */
  failureReason: string;
  amountPaise: number;
  description: string;
  counterparty: string;
  /** A transfer's reference (its credit reads "Received"); empty for top-ups. */
  transferReference: string;
  createdAt: string;
}

export interface ProductFact {
  id: number;
  name: string;
  type: string;
  pricePaise: number;
  stock: number;
  description: string;
}

export interface ActivityFact {
  action: string;
  details: string;
  createdAt: string;
}

/** An account waiting for an administrator's approval. */
export interface PendingUserFact {
  username: string;
  name: string;
  role: string;
  createdAt: string;
}

/** An administrator's figures for today (India Standard Time) and what waits on them. */
export interface PlatformFacts {
  /** Every account, administrators included, and those approved. */
  totalUsers: number;
  approvedUsers: number;
  pendingApprovals: number;
  ordersToday: number;
  ordersTodayPaise: number;
  pendingOrders: number;
  topUpsToday: number;
  topUpsTodayPaise: number;
  openQueries: number;
}

export interface Listed<T> {
  items: T[];
  total: number;
}

/**
 * The tools, bound to one caller: every call carries the caller's identity to the owning service,
 * which applies its own per-object rules. No method takes a user id.
 */
export interface ChatTools {
  me(): Promise<UserFact>;
  purchases(limit: number): Promise<Listed<OrderFact>>;
  /** Manufacturers only (the orders service refuses anyone else). */
  sales(limit: number): Promise<Listed<OrderFact>>;
  /** null when there is no such order among the caller's (or, for an administrator, at all). */
  order(id: number): Promise<OrderFact | null>;
  /** The caller's latest refund request, looked for among their newest purchases (a request comes soon after one). */
  latestRefund(): Promise<LatestRefund>;
  wallet(): Promise<WalletFact>;
  transactions(limit: number): Promise<Listed<TransactionFact>>;
  products(filter: { query?: string; type?: string; limit: number }): Promise<Listed<ProductFact>>;
  product(id: number): Promise<ProductFact | null>;
  activity(limit: number): Promise<ActivityFact[]>;
  /** Administrators only (each service refuses anyone else). */
  platform(): Promise<PlatformFacts>;
  /** Administrators only (identity refuses anyone else): the accounts awaiting approval, oldest first. */
  pendingUsers(limit: number): Promise<Listed<PendingUserFact>>;
}
