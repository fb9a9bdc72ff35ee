import { activityEvent } from '@qm/contracts/events';
import { ORDER_LIMITS, ORDER_MESSAGES as MSG, type OrderScopeName } from '@qm/contracts/rest';
import {
  type Caller,
  forbidden,
  hasRole,
  invalid,
  notFound,
  type Outbox,
  type Paging,
  signedInCaller,
  validPaging,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import type { OrderRecord } from '../domain/order';
import { ALL_ORDERS, type OrderFeed, type OrderStore } from '../store/orders';
import { completedValue } from './stats';

/** The order management page's cards, over every order whatever the tab. */
export interface OrderCounts {
  all: number;
  army: number;
  manufacturer: number;
  /** The value in paise of the completed orders of Army buyers, and of Manufacturer sellers. */
  armyCompletedPaise: number;
  manufacturerCompletedPaise: number;
  completed: number;
  pending: number;
  cancelled: number;
}

const paging = (req: Paging): Paging => validPaging(req, ORDER_LIMITS.pageSizeMax);

/** The administrators' tabs (docs/product.md §2 /admin/orders) as feeds: buyers with role Army, sellers Manufacturer. */
const SCOPES: Record<OrderScopeName, { feed: OrderFeed; owner: string }> = {
  all: { feed: 'all', owner: ALL_ORDERS },
  army: { feed: 'buyerRole', owner: 'Army' },
  manufacturer: { feed: 'sellerRole', owner: 'Manufacturer' },
};

/** Reading orders: one's purchases, a Manufacturer's sales, and every order for administrators. */
export interface OrderLists {
  /** The caller's purchases, newest first; `recordView` logs the visit as activity. */
  purchased(
    caller: Caller | undefined,
    req: Paging & { recordView: boolean },
  ): Promise<{ orders: OrderRecord[]; total: number }>;
  /** A Manufacturer's sales, newest first; `recordView` logs the visit as activity. */
  sold(
    caller: Caller | undefined,
    req: Paging & { recordView: boolean },
  ): Promise<{ orders: OrderRecord[]; total: number }>;
  /** One order for its buyer, its seller or an administrator; anyone else learns nothing of it. */
  one(caller: Caller | undefined, orderId: number): Promise<OrderRecord>;
  /** Administrators only: a page of one tab, with every tab's and status's count for the cards. */
  all(
    caller: Caller | undefined,
    req: Paging & { scope: OrderScopeName },
  ): Promise<{ orders: OrderRecord[]; total: number; counts: OrderCounts }>;
}

export function createOrderLists(d: { conn: Connection; orders: OrderStore; outbox: Outbox }): OrderLists {
  const armyValue = completedValue({ ...d, feed: SCOPES.army.feed, owner: SCOPES.army.owner });
  const manufacturerValue = completedValue({
    ...d,
    feed: SCOPES.manufacturer.feed,
    owner: SCOPES.manufacturer.owner,
  });
  const viewed = async (caller: Caller, recordView: boolean) => {
    if (recordView) await d.outbox.publish([activityEvent(caller, 'order_view', 'Viewed orders')]);
  };

  return {
    async purchased(caller: Caller | undefined, req: Paging & { recordView: boolean }) {
      const who = signedInCaller(caller);
      const { page, pageSize } = paging(req);
      const out = await d.orders.page('buyer', who.userId, page, pageSize);
      await viewed(who, req.recordView);
      return out;
    },

    async sold(caller: Caller | undefined, req: Paging & { recordView: boolean }) {
      const who = signedInCaller(caller);
      if (!hasRole(who, 'Manufacturer')) throw forbidden(MSG.salesManufacturersOnly);
      const { page, pageSize } = paging(req);
      const out = await d.orders.page('seller', who.userId, page, pageSize);
      await viewed(who, req.recordView);
      return out;
    },

    async one(caller: Caller | undefined, orderId: number): Promise<OrderRecord> {
      const who = signedInCaller(caller);
      if (!Number.isSafeInteger(orderId) || orderId < 1) throw invalid('Order id must be positive');
      const order = await d.orders.get(orderId);
      const mine = order && (order.buyerId === who.userId || order.sellerId === who.userId);
      if (!order || !(mine || hasRole(who, 'Admin'))) throw notFound(MSG.orderNotFound);
      return order;
    },

    async all(
      caller: Caller | undefined,
      req: Paging & { scope: OrderScopeName },
    ): Promise<{ orders: OrderRecord[]; total: number; counts: OrderCounts }> {
      const who = signedInCaller(caller);
      if (!hasRole(who, 'Admin')) throw forbidden('Only administrators can list every order');
      const { page, pageSize } = paging(req);
      const scope = SCOPES[req.scope];
      const [pageOut, all, army, manufacturer, completed, pending, cancelled, armyPaise, manufacturerPaise] =
        await Promise.all([
          d.orders.page(scope.feed, scope.owner, page, pageSize),
          d.orders.feedSize('all', ALL_ORDERS),
          d.orders.feedSize(SCOPES.army.feed, SCOPES.army.owner),
          d.orders.feedSize(SCOPES.manufacturer.feed, SCOPES.manufacturer.owner),
          d.orders.countByStatus('completed'),
          d.orders.countByStatus('pending'),
          d.orders.countByStatus('cancelled'),
          armyValue(),
          manufacturerValue(),
        ]);
      return {
        ...pageOut,
        counts: {
          all,
          army,
          manufacturer,
          armyCompletedPaise: armyPaise,
          manufacturerCompletedPaise: manufacturerPaise,
          completed,
          pending,
          cancelled,
        },
      };
    },
  };
}
