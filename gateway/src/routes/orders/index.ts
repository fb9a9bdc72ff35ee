import { orderScopes } from '@qm/contracts/grpc';
import {
  AdminOrdersQuery,
  CreateOrderBody,
  ORDER_MESSAGES as MSG,
  OrdersQuery,
  acceptedPaise,
  formatMoney,
} from '@qm/contracts/rest';

import { z } from 'zod';
import type { GatewayDeps } from '../../deps';
import type { Api } from '../../http/api';
import { IDEMPOTENCY_409, IdempotencyHeaders } from '../wallet/context';
import {
  AdminOrderViewSchema,
  adminOrderToRest,
  OrderViewSchema,
  orderToRest,
  pageOf,
  PurchasedOrderViewSchema,
  purchasedToRest,
  SoldOrderViewSchema,
  soldToRest,
} from './rest';

/**
 * The order calls of docs/product.md §7. Thin: each route validates with the contract's schema, calls the
 * orders service (which holds every rule and runs the purchase saga) and maps the answer to its view.
 */
export function registerOrderRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'post',
    path: '/api/orders',
    tag: 'Orders',
    summary:
      'Buy a product from the wallet: quantity 1 to the stock, totalPrice the price × quantity the buyer ' +
      'saw (rupees, two decimals). Reserves the stock, holds and posts the payment to the manufacturer; ' +
      'answers the completed order (or a pending one the service finishes shortly). Accepts an Idempotency-Key.',
    access: 'user',
    body: CreateOrderBody,
    headers: IdempotencyHeaders,
    response: OrderViewSchema,
    status: 201,
    errors: {
      400: `Invalid input, e.g. "${MSG.quantityMin}", or a quantity above the available stock`,
      403: `"${MSG.ownProduct}", "${MSG.adminCannotPurchase}" or "${MSG.notApproved}"`,
      404: `"${MSG.productNotFound}"`,
      409:
        `"${MSG.priceChanged}" (the total differs from price × quantity now), ` +
        `"${MSG.insufficientBalance}", "${MSG.insufficientStock}", "${MSG.timedOut}"; or: ${IDEMPOTENCY_409}`,
    },
    async handler({ body, headers }) {
      const { order } = await clients.orders.createOrder({
        productId: body.productId,
        quantity: body.quantity,
        totalPaise: acceptedPaise(body.totalPrice),
        idempotencyKey: headers['idempotency-key'] ?? '',
      });
      return orderToRest(order!);
    },
  });

  api.route({
    method: 'get',
    path: '/api/orders/purchased',
    tag: 'Orders',
    summary: "The caller's purchases, newest first, paged (the first page records an order_view activity).",
    access: 'user',
    query: OrdersQuery,
    response: pageOf(PurchasedOrderViewSchema),
    async handler({ query }) {
      const out = await clients.orders.listPurchasedOrders({
        page: query.page,
        pageSize: query.pageSize,
        recordView: query.page === 1,
      });
      return { orders: out.orders.map(purchasedToRest), total: out.total, ...query };
    },
  });

  api.route({
    method: 'get',
    path: '/api/orders/sold',
    tag: 'Orders',
    summary: "The calling Manufacturer's sales with the buyers' details, newest first, paged.",
    access: 'user',
    query: OrdersQuery,
    response: pageOf(SoldOrderViewSchema),
    errors: { 403: `"${MSG.salesManufacturersOnly}"` },
    async handler({ query }) {
      const out = await clients.orders.listSoldOrders({
        page: query.page,
        pageSize: query.pageSize,
        recordView: false,
      });
      return { orders: out.orders.map(soldToRest), total: out.total, ...query };
    },
  });

  api.route({
    method: 'get',
    path: '/api/orders',
    tag: 'Orders',
    summary:
      'Every order (administrators), newest first, paged, in a scope (all; army: buyers with role Army; ' +
      'manufacturer: sellers with role Manufacturer), with the counts of the order management cards.',
    access: 'admin',
    query: AdminOrdersQuery,
    response: pageOf(AdminOrderViewSchema).extend({
      allCount: z.number().int(),
      completedCount: z.number().int(),
      pendingCount: z.number().int(),
      cancelledCount: z.number().int(),
      armyCount: z.number().int(),
      manufacturerCount: z.number().int(),
      armyCompletedAmount: z.string().describe("The value of Army buyers' completed orders"),
      manufacturerCompletedAmount: z.string().describe("The value of Manufacturer sellers' completed orders"),
    }),
    async handler({ query }) {
      const out = await clients.orders.listOrders({
        page: query.page,
        pageSize: query.pageSize,
        scope: orderScopes.toProto(query.scope),
      });
      return {
        orders: out.orders.map(adminOrderToRest),
        total: out.total,
        page: query.page,
        pageSize: query.pageSize,
        allCount: out.allCount,
        completedCount: out.completedCount,
        pendingCount: out.pendingCount,
        cancelledCount: out.cancelledCount,
        armyCount: out.armyCount,
        manufacturerCount: out.manufacturerCount,
        armyCompletedAmount: formatMoney(out.armyCompletedPaise),
        manufacturerCompletedAmount: formatMoney(out.manufacturerCompletedPaise),
      };
    },
  });
}
