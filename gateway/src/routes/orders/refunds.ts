import {
  AdminRefundsQuery,
  ORDER_MESSAGES as MSG,
  OrderIdParams,
  RefundDecisionBody,
  RefundRequestBody,
} from '@qm/contracts/rest';
import type { GatewayDeps } from '../../deps';
import type { Api } from '../../http/api';
import {
  AdminOrderViewSchema,
  adminOrderToRest,
  pageOf,
  PurchasedOrderViewSchema,
  purchasedToRest,
} from './rest';

/**
 * Refunds (docs/adr/028): the buyer's request and the administrators' decision. The orders service
 * holds every rule (the window, one request per order, a decision once) and moves the money.
 */
export function registerRefundRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'post',
    path: '/api/orders/:id/refund-request',
    tag: 'Orders',
    summary:
      "The buyer asks for a completed order's money back, with a reason, within the refund window " +
      "(REFUND_WINDOW_HOURS after the purchase's deadline). The seller's proceeds stay held until an " +
      'administrator decides. Answers the order with its request.',
    access: 'user',
    params: OrderIdParams,
    body: RefundRequestBody,
    status: 201,
    response: PurchasedOrderViewSchema,
    errors: {
      404: `"${MSG.orderNotFound}" (also for someone else's order)`,
      409: `"${MSG.refundAlreadyRequested}", "${MSG.refundNotCompleted}" or "${MSG.refundFreeOrder}"`,
    },
    async handler({ params, body }) {
      const { order } = await clients.orders.requestRefund({ orderId: params.id, reason: body.reason });
      return purchasedToRest(order!);
    },
  });

  api.route({
    method: 'get',
    path: '/api/admin/refunds',
    tag: 'Orders',
    summary:
      'Orders with a refund request, open requests first and newest first within each; optionally one ' +
      "status, and a part of the buyer's or the seller's username.",
    access: 'admin',
    query: AdminRefundsQuery,
    response: pageOf(AdminOrderViewSchema),
    async handler({ query }) {
      const out = await clients.orders.listRefunds({
        page: query.page,
        pageSize: query.pageSize,
        status: query.status ?? '',
        search: query.search ?? '',
      });
      return {
        orders: out.orders.map(adminOrderToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  });

  api.route({
    method: 'patch',
    path: '/api/admin/refunds/:id',
    tag: 'Orders',
    summary:
      "Decides an order's refund request once: approved pays the buyer back (from the held proceeds, or " +
      "from the seller's balance once released), returns the units to stock and marks the order refunded; " +
      'rejected (a reason required) lets the seller have the proceeds.',
    access: 'admin',
    params: OrderIdParams,
    body: RefundDecisionBody,
    response: AdminOrderViewSchema,
    errors: {
      404: `"${MSG.refundNotRequested}"`,
      409: `"${MSG.refundAlreadyDecided}", or the seller's balance cannot cover a refund after the release`,
    },
    async handler({ params, body }) {
      const { order } = await clients.orders.decideRefund({
        orderId: params.id,
        approve: body.decision === 'approved',
        reason: body.reason ?? '',
      });
      return adminOrderToRest(order!);
    },
  });
}
