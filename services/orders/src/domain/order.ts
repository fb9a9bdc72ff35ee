import {
  MAX_PAISE,
  ORDER_LIMITS,
  ORDER_MESSAGES as MSG,
  type OrderStatusName,
  type PaymentStatusName,
} from '@qm/contracts/rest';
import { conflict, forbidden, invalid, notFound } from '@qm/platform';

/** An order's rules (docs/product.md §3 orders, §5 order creation and purchase, §6): no I/O, no proto here. */

/**
 * Where an order's saga stands. Forward: reserve → hold (the payment, docs/adr/043) → commit → done;
 * `pay` is where an earlier build waited to post its hold. Any failure before the payment is made
 * turns to compensate (cancel the payment, release the stock) → done, cancelled.
 */
export type SagaStep = 'reserve' | 'hold' | 'pay' | 'commit' | 'compensate' | 'done';

/** What compensation must undo: the steps that may have taken effect before the order was cancelled. */
export interface Undo {
  /** The payment (or an earlier build's hold): cancelled, unless it was made. */
  hold: boolean;
  stock: boolean;
}

export interface OrderParty {
  id: number;
  name: string;
  username: string;
  role: string;
}

export interface BuyerDetails {
  name: string;
  role: string;
  email: string;
  /** Empty when the buyer gave none. */
  phone: string;
}

export interface OrderProduct {
  name: string;
  type: string;
  description: string;
}

/**
 * A refund request's course (docs/adr/028): requested → approving (paying back, returning stock) →
 * approved, or requested → rejected. `settled` once all a decision entails is done.
 */
export type RefundState = 'requested' | 'approving' | 'approved' | 'rejected';

export interface RefundRecord {
  status: RefundState;
  reason: string;
  requestedAt: Date;
  /** Whether the wallet holds the sale's proceeds for it (false: already released); null until asked. */
  held: boolean | null;
  /** Pay-back attempts made: one refused for the seller's balance is spent, the next is new. */
  attempt: number;
  /** Where the money came back from. */
  source?: 'escrow' | 'seller';
  decisionReason?: string;
  decidedAt?: Date;
  /** The administrator who decided (their activity records it). */
  decidedBy?: { userId: number; username: string };
  /**
   * The ids of the events announcing the request and the decision, written with them: the outbox's
   * relay publishes a pending event only when its step names it (a raced or failed step's is dropped).
   */
  requestEvent?: string;
  decisionEvent?: string;
  /** All the decision entails is done: the proceeds let go, or the buyer paid and the stock back. */
  settled: boolean;
}

export interface OrderRecord {
  id: number;
  /** The saga's key in catalog and wallet. */
  reference: string;
  productId: number;
  buyerId: number;
  sellerId: number;
  quantity: number;
  unitPricePaise: number;
  totalPaise: number;
  status: OrderStatusName;
  paymentStatus: PaymentStatusName;
  step: SagaStep;
  cancelReason: string;
  /** Set when the order turns to compensation. */
  undo?: Undo;
  product: OrderProduct;
  buyerDetails: BuyerDetails;
  buyer: OrderParty;
  seller: OrderParty;
  /** After this, a purchase not yet paid is cancelled (its reservation expires too). */
  deadlineAt: Date;
  /**
   * The end of the buyer's refund window, when the seller's proceeds leave escrow (docs/adr/028);
   * absent on orders placed before refunds existed, whose proceeds were paid at once.
   */
  refundableUntil?: Date;
  refund?: RefundRecord;
  createdAt: Date;
  updatedAt: Date;
  /** `<buyer>:<Idempotency-Key>` of the request that placed it, when it had one. */
  requestKey?: string;
  /**
   * The id of the event that announced its end, written with the end: of two drivers that both
   * wrote an end event to the outbox, the relay publishes this one only (docs/adr/025).
   */
  endEvent?: string;
}

/** What the rules need to know of a user (identity's LookupUser). */
export interface UserFacts {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  role: string;
  status: string;
  isAdmin: boolean;
}

/** What the rules need to know of a product (catalog's GetProduct). */
export interface ProductFacts {
  id: number;
  name: string;
  type: string;
  description: string;
  pricePaise: number;
  stock: number;
  manufacturerId: number;
}

export interface PurchaseRequest {
  productId: number;
  quantity: number;
  totalPaise: number;
}

const ADMIN = 'Admin';

export const referenceOf = (id: number) => `order-${id}`;
export const fullName = (u: Pick<UserFacts, 'firstName' | 'lastName'>) =>
  `${u.firstName} ${u.lastName}`.trim();
export const partyOf = (u: UserFacts): OrderParty => ({
  id: u.id,
  name: fullName(u),
  username: u.username,
  role: u.role,
});

/** The shape of a request, before anything is looked up. */
export function validRequest(req: PurchaseRequest): PurchaseRequest {
  if (!Number.isSafeInteger(req.productId) || req.productId < 1) throw invalid(MSG.productRequired);
  if (!Number.isSafeInteger(req.quantity)) throw invalid(MSG.quantityInteger);
  if (req.quantity < 1) throw invalid(MSG.quantityMin);
  if (!Number.isSafeInteger(req.totalPaise) || req.totalPaise < 0) throw invalid(MSG.totalPriceFormat);
  if (req.totalPaise > MAX_PAISE) throw invalid(MSG.totalPriceTooLarge);
  return req;
}

/** Who may buy at all (docs/product.md §6): an approved user who is not an administrator. */
export function assertMayBuy(buyer: UserFacts | null, roles: string[]): UserFacts {
  if (roles.includes(ADMIN) || buyer?.isAdmin || buyer?.role === ADMIN)
    throw forbidden(MSG.adminCannotPurchase);
  if (!buyer || buyer.status !== 'approved') throw forbidden(MSG.notApproved);
  return buyer;
}

/**
 * This purchase of this product: not one's own, 1 to the stock, and the total the buyer saw equal to
 * price × quantity now (else the price changed: 409). Answers the unit price and total in paise.
 */
export function priceOrder(
  buyer: UserFacts,
  product: ProductFacts,
  req: PurchaseRequest,
): { unitPricePaise: number; totalPaise: number } {
  if (product.manufacturerId === buyer.id) throw forbidden(MSG.ownProduct);
  if (product.stock < 1) throw conflict(MSG.insufficientStock);
  if (req.quantity > product.stock) throw invalid(MSG.quantityAboveStock(product.stock));
  const totalPaise = product.pricePaise * req.quantity;
  if (!Number.isSafeInteger(totalPaise) || totalPaise > MAX_PAISE) throw invalid(MSG.totalPriceTooLarge);
  if (totalPaise !== req.totalPaise) throw conflict(MSG.priceChanged);
  return { unitPricePaise: product.pricePaise, totalPaise };
}

export const productMissing = () => notFound(MSG.productNotFound);

/**
 * What a cancellation at `step` must undo. A reservation catalog refused took no stock; one given up
 * at the deadline may have. A payment is always cancelled: a refusal speaks for one driver only, and
 * a retry or the sweeper may have paid (docs/adr/043).
 */
export function undoFor(o: Pick<OrderRecord, 'step' | 'totalPaise'>, refused: boolean): Undo {
  if (o.step === 'reserve') return { stock: !refused, hold: false };
  return { stock: true, hold: o.totalPaise > 0 };
}

/** Forward steps may be cancelled; once the payment is posted the order can only complete. */
export const isCancellable = (step: SagaStep) => step === 'reserve' || step === 'hold' || step === 'pay';

/** Whether the sweeper must give up on an order that has not been paid by its deadline. */
export const pastDeadline = (o: Pick<OrderRecord, 'step' | 'deadlineAt'>, now: Date) =>
  isCancellable(o.step) && o.deadlineAt.getTime() <= now.getTime();

/** Whether a pending order has been left alone long enough for the sweeper to take it over. */
export const abandoned = (o: Pick<OrderRecord, 'status' | 'updatedAt'>, now: Date, graceMs: number) =>
  o.status === 'pending' && now.getTime() - o.updatedAt.getTime() >= graceMs;

/**
 * Whether the caller may ask for this order's money back now (docs/adr/028): their own completed,
 * paid order, within its refund window, asked once. Someone else's order is not found, as in GetOrder.
 */
export function assertRefundable(
  o: OrderRecord | null,
  callerId: number,
  now: Date,
  windowHours: number,
): OrderRecord {
  if (!o || o.buyerId !== callerId) throw notFound(MSG.orderNotFound);
  if (o.refund) throw conflict(MSG.refundAlreadyRequested);
  if (o.status !== 'completed') throw conflict(MSG.refundNotCompleted);
  if (o.totalPaise === 0) throw conflict(MSG.refundFreeOrder);
  if (!o.refundableUntil || o.refundableUntil.getTime() <= now.getTime())
    throw invalid(MSG.refundWindowClosed(windowHours));
  return o;
}

/** A refund request's reason, or an administrator's reason to reject: 1 to 500 characters. */
export function validRefundReason(reason: string, required: string): string {
  const text = reason.trim();
  if (!text) throw invalid(required);
  if (text.length > ORDER_LIMITS.refundReasonMaxChars) throw invalid(MSG.refundReasonTooLong);
  return text;
}
