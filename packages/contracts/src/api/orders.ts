import { z } from 'zod';
import { PRODUCT_LIMITS } from './catalog';
import type { ProductTypeName } from './product-types';
import type { UserRole } from './identity';
import { parseRupees } from './money';
import { idParam, NUMBER_LIMITS, pagingQuery } from './numbers';

/**
 * REST shapes of docs/product.md §7 for orders (purchase, purchases, sales, the administrators' list), shared
 * by the gateway (validation, OpenAPI), the orders service (the same rules and messages) and the
 * market and admin remotes. Money travels as a string with two decimals ("2500.00").
 */
/** `refunded`: a completed order whose refund an administrator approved (docs/adr/028). */
export const ORDER_STATUSES = ['pending', 'completed', 'cancelled', 'refunded'] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];
/** `failed`: no money moved (the hold was voided, or never made); `refunded`: paid back to the buyer. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type PaymentStatusName = (typeof PAYMENT_STATUSES)[number];
/** The /admin/orders tabs: every order, buyers with role Army, sellers with role Manufacturer. */
export const ORDER_SCOPES = ['all', 'army', 'manufacturer'] as const;
export type OrderScopeName = (typeof ORDER_SCOPES)[number];

/** A refund request's course: open until an administrator approves or rejects it, for good. */
export const REFUND_STATUSES = ['requested', 'approved', 'rejected'] as const;
export type RefundStatusName = (typeof REFUND_STATUSES)[number];
export const REFUND_DECISIONS = ['approved', 'rejected'] as const;
export type RefundDecisionName = (typeof REFUND_DECISIONS)[number];

export const ORDER_LIMITS = {
  /** A refund request's reason, and an administrator's reason to reject it. */
  refundReasonMaxChars: 500,
  /** A purchase cannot exceed the largest stock a product may have. */
  quantityMax: PRODUCT_LIMITS.stockMax,
  /** At most 99,999,999.99 rupees (decimal 10,2). */
  totalMaxPaise: 9_999_999_999,
  /** Order lists are read in feed buckets: at most this many per page. */
  pageSizeMax: 32,
} as const;

/** The user-facing texts of docs/product.md §5 and §8 for orders; the service answers with the same. */
export const ORDER_MESSAGES = {
  missingData: 'Missing required data',
  productRequired: 'Product id is required',
  quantityRequired: 'Quantity is required',
  quantityMin: 'Quantity must be at least 1',
  quantityInteger: 'Quantity must be a whole number',
  quantityAboveStock: (stock: number) => `Quantity must be at most the available stock (${stock})`,
  totalPriceRequired: 'Total price is required',
  totalPriceFormat: 'Total price must be rupees with two decimals, e.g. "2500.00"',
  totalPriceTooLarge: 'Total price must be at most ₹9,99,99,999.99',
  /** 409 when the total the buyer saw is not price × quantity now: the price changed meanwhile. */
  priceChanged: 'The price of this product has changed. Please review the new total and try again.',
  orderNotFound: 'Order not found',
  insufficientBalance: 'Insufficient wallet balance',
  insufficientBalanceDetail:
    'Your wallet balance is lower than the total amount. Please add money to your wallet.',
  insufficientStock: 'Insufficient stock',
  outOfStock: 'Out of Stock',
  productNotFound: 'Product not found',
  productNotFoundDetail:
    "The product you're looking for may have been removed or is temporarily unavailable.",
  ownProduct: 'You cannot purchase your own product',
  adminCannotPurchase: 'Administrators cannot purchase products',
  notApproved: 'Your account must be approved before you can make purchases',
  salesManufacturersOnly: 'Only manufacturers have sales',
  /** A purchase the saga gave up on: no reply in time from catalog or wallet. */
  timedOut: 'The purchase could not be completed in time. No money was taken.',
  createFailed: 'Failed to create order',
  refundReasonRequired: 'Please give a reason for the refund',
  refundReasonTooLong: 'The reason must be at most 500 characters',
  refundNotCompleted: 'Only a completed order can be refunded',
  refundFreeOrder: 'A free order has nothing to refund',
  refundWindowClosed: (hours: number) => `Refunds can be requested within ${hours} hours of a purchase`,
  refundAlreadyRequested: 'A refund has already been requested for this order',
  refundNotRequested: 'No refund was requested for this order',
  refundAlreadyDecided: 'This refund request has already been decided',
  refundRejectReasonRequired: 'Please give a reason for rejecting the refund',
  refundDecisionInvalid: 'The decision must be approved or rejected',
  refundRequested: 'Refund requested',
  refundApproved: 'Refund approved',
  refundRejected: 'Refund rejected',
  purchaseFailedTitle: 'Purchase failed',
  purchaseSuccessTitle: 'Purchase successful',
  purchaseSuccess: 'Your order has been placed successfully.',
  processing: 'Processing Payment...',
  paymentSuccessful: 'Payment Successful!',
  fetchPurchasedFailed: 'Failed to fetch purchased orders',
  fetchSoldFailed: 'Failed to fetch sold orders',
  noPurchases: 'No Purchases Yet',
  noSales: 'No Sales Yet',
  productDetailsUnavailable: 'Product details not available',
  phoneNotProvided: 'Not provided',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Retry later.',
  idempotencyMismatch: (fields: string[]) =>
    `This Idempotency-Key was already used with a different ${fields.join(', ')}. Use a new key for a new request.`,
} as const;

/** Why a purchase quantity is refused against the stock the page shows, or undefined (docs/product.md §5). */
export function quantityProblem(quantity: unknown, stock: number): string | undefined {
  if (quantity === undefined || quantity === null || quantity === '') return ORDER_MESSAGES.quantityRequired;
  const n = typeof quantity === 'string' ? Number(quantity.trim()) : quantity;
  if (typeof n !== 'number' || !Number.isFinite(n)) return ORDER_MESSAGES.quantityInteger;
  if (n < 1) return ORDER_MESSAGES.quantityMin;
  if (!Number.isInteger(n)) return ORDER_MESSAGES.quantityInteger;
  if (n > stock) return ORDER_MESSAGES.quantityAboveStock(stock);
  return undefined;
}

/** Why a totalPrice text is refused, or undefined: rupees, at most two decimals, 0 to 99,999,999.99. */
export function totalPriceProblem(input: unknown): string | undefined {
  const parsed = parseRupees(input);
  if (!parsed.ok && parsed.reason === 'missing') return ORDER_MESSAGES.totalPriceRequired;
  // A string only (docs/product.md §7): a JSON number is refused here, unlike a price.
  if (typeof input !== 'string') return ORDER_MESSAGES.totalPriceFormat;
  if (parsed.ok) return undefined;
  return parsed.reason === 'range' ? ORDER_MESSAGES.totalPriceTooLarge : ORDER_MESSAGES.totalPriceFormat;
}

const productIdField = z
  .number({
    error: (iss) => (iss.input == null ? ORDER_MESSAGES.productRequired : 'Product id must be a number'),
  })
  .min(1, 'Product id must be positive')
  .max(NUMBER_LIMITS.idMax, 'Product id is too large')
  .int('Product id must be a whole number');

const quantityField = z
  .number({
    error: (iss) => (iss.input == null ? ORDER_MESSAGES.quantityRequired : ORDER_MESSAGES.quantityInteger),
  })
  .min(1, ORDER_MESSAGES.quantityMin)
  .int(ORDER_MESSAGES.quantityInteger)
  .max(
    ORDER_LIMITS.quantityMax,
    `Quantity must be at most ${ORDER_LIMITS.quantityMax.toLocaleString('en-US')}`,
  );

const totalPriceField = z
  .string({
    error: (iss) => (iss.input == null ? ORDER_MESSAGES.totalPriceRequired : ORDER_MESSAGES.totalPriceFormat),
  })
  .superRefine((v, ctx) => {
    const problem = totalPriceProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  // The rule above, stated in the OpenAPI document.
  .meta({ pattern: '^\\s*0*\\d{1,8}(\\.\\d{1,2})?\\s*$' })
  .describe('price × quantity as the buyer saw it: rupees with two decimals, e.g. "2500.00"');

/**
 * POST /api/orders. The buyer is the caller (docs/product.md §5's buyerId is never taken from the body); the
 * server recomputes price × quantity and answers 409 with ORDER_MESSAGES.priceChanged when the
 * totalPrice differs.
 */
export const CreateOrderBody = z.object({
  productId: productIdField,
  quantity: quantityField,
  totalPrice: totalPriceField,
});
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;
export type CreateOrderInput = z.input<typeof CreateOrderBody>;

/** GET /api/orders/purchased and GET /api/orders/sold. */
export const OrdersQuery = z.object(pagingQuery(ORDER_LIMITS.pageSizeMax));
export type OrdersQuery = z.infer<typeof OrdersQuery>;

/** GET /api/orders (administrators). */
export const AdminOrdersQuery = OrdersQuery.extend({
  scope: z.enum(ORDER_SCOPES, { error: `Scope must be one of ${ORDER_SCOPES.join(', ')}` }).default('all'),
});
export type AdminOrdersQuery = z.infer<typeof AdminOrdersQuery>;

const refundReason = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(ORDER_LIMITS.refundReasonMaxChars, ORDER_MESSAGES.refundReasonTooLong);

/** POST /api/orders/{id}/refund-request. */
export const RefundRequestBody = z.object({ reason: refundReason(ORDER_MESSAGES.refundReasonRequired) });
export type RefundRequestBody = z.infer<typeof RefundRequestBody>;

/** PATCH /api/admin/refunds/{id}: a reason is required to reject. */
export const RefundDecisionBody = z
  .object({
    decision: z.enum(REFUND_DECISIONS, { error: ORDER_MESSAGES.refundDecisionInvalid }),
    reason: refundReason(ORDER_MESSAGES.refundRejectReasonRequired).optional(),
  })
  .refine((b) => b.decision === 'approved' || !!b.reason, {
    message: ORDER_MESSAGES.refundRejectReasonRequired,
    path: ['reason'],
  });
export type RefundDecisionBody = z.infer<typeof RefundDecisionBody>;

/** GET /api/admin/refunds: open requests first, newest first within each. */
export const AdminRefundsQuery = OrdersQuery.extend({
  status: z
    .enum(REFUND_STATUSES, { error: `Status must be one of ${REFUND_STATUSES.join(', ')}` })
    .optional(),
  search: z
    .string()
    .trim()
    .max(100, 'Search must be at most 100 characters')
    .optional()
    .describe("Part of the buyer's or the seller's username"),
});
export type AdminRefundsQuery = z.infer<typeof AdminRefundsQuery>;

/** An order id in a path. */
export const OrderIdParams = z.object({ id: idParam('Order id') });

// ---- responses -------------------------------------------------------------------------------------

/** What was bought, as it was when the order was placed; null when not known. */
export interface OrderProductView {
  name: string;
  type: ProductTypeName;
  description: string;
}

/** The buyer as the seller sees them (docs/product.md §3 buyerDetails), as they were at the purchase. */
export interface BuyerDetailsView {
  name: string;
  role: UserRole;
  email: string;
  /** null: "Not provided". */
  phone: string | null;
}

export interface OrderPartyView {
  id: number;
  name: string;
  username: string;
  role: UserRole;
}

/** A refund request as its order shows it. */
export interface RefundView {
  status: RefundStatusName;
  reason: string;
  requestedAt: string;
  /** An administrator's reason to reject; null otherwise. */
  decisionReason: string | null;
  decidedAt: string | null;
  /** Where the money came back from once approved: the sale's escrow, or the seller's balance. */
  source: 'escrow' | 'seller' | null;
}

/** An order as its buyer sees it; the answer of POST /api/orders. */
export interface OrderView {
  id: number;
  productId: number;
  buyerId: number;
  sellerId: number;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  status: OrderStatusName;
  paymentStatus: PaymentStatusName;
  /** Why a cancelled order was cancelled; null otherwise. */
  cancelReason: string | null;
  /** null: "Product details not available". */
  product: OrderProductView | null;
  createdAt: string;
  updatedAt: string;
  /** Until when its buyer may ask for a refund; null for orders that cannot be refunded. */
  refundableUntil: string | null;
  /** The refund request, if one was made. */
  refund: RefundView | null;
}

/** GET /api/orders/purchased: the caller's purchases with who sold them. */
export interface PurchasedOrderView extends OrderView {
  seller: OrderPartyView;
}

/** GET /api/orders/sold: the Manufacturer's sales with the buyer's details. */
export interface SoldOrderView extends OrderView {
  buyer: OrderPartyView;
  buyerDetails: BuyerDetailsView;
}

/** GET /api/orders: every field. */
export interface AdminOrderView extends OrderView {
  buyer: OrderPartyView;
  seller: OrderPartyView;
  buyerDetails: BuyerDetailsView;
}

export interface OrdersPage<T extends OrderView> {
  orders: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/orders: the page in its scope and the counts of the page's cards over every order. */
export interface AdminOrdersPage extends OrdersPage<AdminOrderView> {
  allCount: number;
  completedCount: number;
  pendingCount: number;
  cancelledCount: number;
  armyCount: number;
  manufacturerCount: number;
  /** The value of the completed orders of Army buyers (money string, as every amount). */
  armyCompletedAmount: string;
  /** The value of the completed orders of Manufacturer sellers: what the manufacturers have sold. */
  manufacturerCompletedAmount: string;
}
