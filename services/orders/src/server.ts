import { orderScopes, ordersV1, orderStatuses, paymentStatuses } from '@qm/contracts/grpc';
import { ORDER_LIMITS, REFUND_STATUSES } from '@qm/contracts/rest';
import { type GrpcServer, invalid, type UnaryImpl, validPaging } from '@qm/platform';
import type { OrderLists } from './app/lists';
import type { Purchases } from './app/purchases';
import { type Refunds, refundStatusOf } from './app/refunds';
import type { OrderStats } from './app/stats';
import type { OrderRecord } from './domain/order';

export const ORDERS_SERVICE = 'qm.orders.v1.OrdersService';

// ---- domain → proto ----------------------------------------------------------------------------

export function orderToProto(o: OrderRecord): ordersV1.Order {
  return {
    id: o.id,
    reference: o.reference,
    productId: o.productId,
    buyerId: o.buyerId,
    sellerId: o.sellerId,
    quantity: o.quantity,
    unitPricePaise: o.unitPricePaise,
    totalPaise: o.totalPaise,
    status: orderStatuses.toProto(o.status),
    paymentStatus: paymentStatuses.toProto(o.paymentStatus),
    cancelReason: o.cancelReason,
    product: { ...o.product },
    buyerDetails: { ...o.buyerDetails },
    buyer: { ...o.buyer },
    seller: { ...o.seller },
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    refundableUntil: o.refundableUntil && o.totalPaise > 0 ? o.refundableUntil.toISOString() : '',
    refund: o.refund && {
      status: refundStatusOf(o.refund.status),
      reason: o.refund.reason,
      requestedAt: o.refund.requestedAt.toISOString(),
      decisionReason: o.refund.decisionReason ?? '',
      decidedAt: o.refund.decidedAt?.toISOString() ?? '',
      source: o.refund.source ?? '',
    },
  };
}

/**
 * gRPC handlers: the request arrives decoded and the caller comes from the metadata (the gateway's
 * session); the use cases authorise and apply the rules, and AppErrors become gRPC statuses in
 * @qm/platform's server.
 */
export function ordersHandlers(d: {
  purchases: Purchases;
  refunds: Refunds;
  lists: OrderLists;
  stats: OrderStats;
}): UnaryImpl<typeof ordersV1.OrdersServiceService> {
  return {
    createOrder: async (req, ctx) => ({
      order: orderToProto(
        await d.purchases.create(ctx.caller, {
          productId: req.productId,
          quantity: req.quantity,
          totalPaise: req.totalPaise,
          idempotencyKey: req.idempotencyKey,
        }),
      ),
    }),
    listPurchasedOrders: async (req, ctx) => {
      const { orders, total } = await d.lists.purchased(ctx.caller, req);
      return { orders: orders.map(orderToProto), total };
    },
    listSoldOrders: async (req, ctx) => {
      const { orders, total } = await d.lists.sold(ctx.caller, req);
      return { orders: orders.map(orderToProto), total };
    },
    getOrder: async (req, ctx) => ({ order: orderToProto(await d.lists.one(ctx.caller, req.orderId)) }),
    listOrders: async (req, ctx) => {
      const { orders, total, counts } = await d.lists.all(ctx.caller, {
        page: req.page,
        pageSize: req.pageSize,
        scope: orderScopes.fromProto(req.scope) ?? 'all',
      });
      return {
        orders: orders.map(orderToProto),
        total,
        allCount: counts.all,
        completedCount: counts.completed,
        pendingCount: counts.pending,
        cancelledCount: counts.cancelled,
        armyCount: counts.army,
        manufacturerCount: counts.manufacturer,
        armyCompletedPaise: counts.armyCompletedPaise,
        manufacturerCompletedPaise: counts.manufacturerCompletedPaise,
      };
    },
    getOrderStats: async (req, ctx) => {
      const { days, byStatus, refundedPaise } = await d.stats.get(ctx.caller, req.days);
      return {
        days,
        pendingCount: byStatus.pending,
        completedCount: byStatus.completed,
        cancelledCount: byStatus.cancelled,
        refundedCount: byStatus.refunded,
        refundedPaise,
      };
    },
    requestRefund: async (req, ctx) => ({
      order: orderToProto(await d.refunds.request(ctx.caller, req.orderId, req.reason)),
    }),
    decideRefund: async (req, ctx) => ({
      order: orderToProto(
        await d.refunds.decide(ctx.caller, req.orderId, { approve: req.approve, reason: req.reason }),
      ),
    }),
    listRefunds: async (req, ctx) => {
      const { page, pageSize } = validPaging(req, ORDER_LIMITS.pageSizeMax);
      const status = req.status ? REFUND_STATUSES.find((s) => s === req.status) : undefined;
      if (req.status && !status) throw invalid(`Status must be one of ${REFUND_STATUSES.join(', ')}`);
      const { orders, total } = await d.refunds.list(ctx.caller, {
        page,
        pageSize,
        status,
        search: req.search || undefined,
      });
      return { orders: orders.map(orderToProto), total };
    },
  };
}

export function addOrdersService(grpc: GrpcServer, d: Parameters<typeof ordersHandlers>[0]): void {
  grpc.add(ORDERS_SERVICE, ordersV1.OrdersServiceService, ordersHandlers(d));
}
