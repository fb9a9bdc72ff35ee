import { orderStatuses, type ordersV1, paymentStatuses } from '@qm/contracts/grpc';
import {
  type AdminOrderView,
  type BuyerDetailsView,
  formatMoney,
  ORDER_STATUSES,
  type OrderPartyView,
  type OrderProductView,
  type OrderView,
  PAYMENT_STATUSES,
  PRODUCT_TYPES,
  type ProductTypeName,
  type PurchasedOrderView,
  REFUND_STATUSES,
  type RefundView,
  type SoldOrderView,
  USER_ROLES,
  type UserRole,
} from '@qm/contracts/rest';

import { z } from 'zod';

/**
 * The orders' REST views (packages/contracts/src/api/orders.ts) made from the service's messages:
 * paise become two-decimal rupee strings here and nowhere else. The zod schemas document them in
 * the OpenAPI document and are checked against the contract's types.
 */
const money = (what: string) => z.string().describe(`${what}: rupees with two decimals, e.g. "2500.00"`);

const PartySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  role: z.enum(USER_ROLES),
}) satisfies z.ZodType<OrderPartyView>;

const BuyerDetailsSchema = z.object({
  name: z.string(),
  role: z.enum(USER_ROLES),
  email: z.string(),
  phone: z.string().nullable().describe('null: "Not provided"'),
}) satisfies z.ZodType<BuyerDetailsView>;

const ProductSnapshotSchema = z
  .object({ name: z.string(), type: z.enum(PRODUCT_TYPES), description: z.string() })
  .nullable()
  .describe('The product as it was when the order was placed; null: "Product details not available"');

const RefundSchema = z
  .object({
    status: z.enum(REFUND_STATUSES),
    reason: z.string(),
    requestedAt: z.string(),
    decisionReason: z.string().nullable().describe("An administrator's reason to reject; null otherwise"),
    decidedAt: z.string().nullable(),
    source: z
      .enum(['escrow', 'seller'])
      .nullable()
      .describe("Once approved: paid back from the sale's held proceeds, or from the seller's balance"),
  })
  .nullable()
  .describe('The refund request, if one was made (docs/adr/028)') satisfies z.ZodType<RefundView | null>;

export const OrderViewSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  buyerId: z.number().int(),
  sellerId: z.number().int(),
  quantity: z.number().int(),
  unitPrice: money('Price per unit'),
  totalPrice: money('Price × quantity'),
  status: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  cancelReason: z.string().nullable().describe('Why a cancelled order was cancelled'),
  product: ProductSnapshotSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  refundableUntil: z.string().nullable().describe('Until when its buyer may ask for a refund'),
  refund: RefundSchema,
}) satisfies z.ZodType<OrderView>;

export const PurchasedOrderViewSchema = OrderViewSchema.extend({
  seller: PartySchema,
}) satisfies z.ZodType<PurchasedOrderView>;

export const SoldOrderViewSchema = OrderViewSchema.extend({
  buyer: PartySchema,
  buyerDetails: BuyerDetailsSchema,
}) satisfies z.ZodType<SoldOrderView>;

export const AdminOrderViewSchema = OrderViewSchema.extend({
  buyer: PartySchema,
  seller: PartySchema,
  buyerDetails: BuyerDetailsSchema,
}) satisfies z.ZodType<AdminOrderView>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    orders: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

const isProductType = (t: string): t is ProductTypeName => (PRODUCT_TYPES as readonly string[]).includes(t);
// Roles are snapshots of identity's names; an unknown one (never expected) reads as Army, the default.
const roleOf = (r: string): UserRole =>
  (USER_ROLES as readonly string[]).includes(r) ? (r as UserRole) : 'Army';

function productOf(p: ordersV1.OrderProduct | undefined): OrderProductView | null {
  if (!p || !p.name || !isProductType(p.type)) return null;
  return { name: p.name, type: p.type, description: p.description };
}

const partyOf = (p: ordersV1.OrderParty | undefined): OrderPartyView => ({
  id: p?.id ?? 0,
  name: p?.name ?? '',
  username: p?.username ?? '',
  role: roleOf(p?.role ?? ''),
});

const isRefundStatus = (s: string): s is RefundView['status'] =>
  (REFUND_STATUSES as readonly string[]).includes(s);

function refundOf(r: ordersV1.Refund | undefined): RefundView | null {
  if (!r || !isRefundStatus(r.status)) return null;
  return {
    status: r.status,
    reason: r.reason,
    requestedAt: r.requestedAt,
    decisionReason: r.decisionReason || null,
    decidedAt: r.decidedAt || null,
    source: r.source === 'escrow' || r.source === 'seller' ? r.source : null,
  };
}

const buyerDetailsOf = (b: ordersV1.BuyerDetails | undefined): BuyerDetailsView => ({
  name: b?.name ?? '',
  role: roleOf(b?.role ?? ''),
  email: b?.email ?? '',
  phone: b?.phone || null,
});

export function orderToRest(o: ordersV1.Order): OrderView {
  return {
    id: o.id,
    productId: o.productId,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    quantity: o.quantity,
    unitPrice: formatMoney(o.unitPricePaise),
    totalPrice: formatMoney(o.totalPaise),
    status: orderStatuses.fromProto(o.status) ?? 'pending',
    paymentStatus: paymentStatuses.fromProto(o.paymentStatus) ?? 'pending',
    cancelReason: o.cancelReason || null,
    product: productOf(o.product),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    refundableUntil: o.refundableUntil || null,
    refund: refundOf(o.refund),
  };
}

export const purchasedToRest = (o: ordersV1.Order): PurchasedOrderView => ({
  ...orderToRest(o),
  seller: partyOf(o.seller),
});

export const soldToRest = (o: ordersV1.Order): SoldOrderView => ({
  ...orderToRest(o),
  buyer: partyOf(o.buyer),
  buyerDetails: buyerDetailsOf(o.buyerDetails),
});

export const adminOrderToRest = (o: ordersV1.Order): AdminOrderView => ({
  ...soldToRest(o),
  seller: partyOf(o.seller),
});
