import { formatINR, PRODUCTS_KEY, PURCHASED_ORDERS_KEY, refreshWalletQueries, SOLD_ORDERS_KEY } from '@qm/ui';
import type { QueryClient } from '@tanstack/react-query';

/** The events GET /api/live sends (gateway/src/live/events.ts), as the browser reads them. */
export interface TransferEvent {
  receiverId: number;
  senderUsername: string;
  amountPaise: number;
  reference: string;
}
export interface OrderEvent {
  id: number;
  status: 'completed' | 'cancelled';
  buyerId: number;
  sellerId: number;
}
export interface RefundEvent {
  id: number;
  status: 'requested' | 'approved' | 'rejected';
  totalPaise: number;
  buyerId: number;
  sellerId: number;
}
export interface QueryReplyEvent {
  id: number;
  status: 'in-progress' | 'resolved';
  subject: string;
  userId: number;
}
/** `reset`: the gateway could not replay what was missed (another replica, too long away). */
export const LIVE_EVENT_TYPES = ['product', 'order', 'refund', 'transfer', 'query', 'reset'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export interface Toast {
  title: string;
  message: string;
}

export interface LiveContext {
  queryClient: QueryClient;
  userId: number;
  notify(toast: Toast): void;
  /** Product queries refresh through this (coalesced: a busy market sends many stock events). */
  refreshProducts(): void;
}

const rupees = (paise: number) => formatINR((paise / 100).toFixed(2));

export function transferToast(e: TransferEvent): Toast {
  return { title: 'Money received', message: `${rupees(e.amountPaise)} from ${e.senderUsername}` };
}

/** Only the seller is told of an order by a toast: the buyer placed it on this very screen. */
export function orderToast(e: OrderEvent, userId: number): Toast | undefined {
  if (e.sellerId !== userId || e.status !== 'completed') return undefined;
  return { title: 'New sale', message: `Order #${e.id} ${e.status}` };
}

/**
 * The buyer hears the decision; the seller hears the request (its proceeds are held from now on).
 * Neither hears their own step: the buyer asked on this screen, and an administrator decides elsewhere.
 */
export function refundToast(e: RefundEvent, userId: number): Toast | undefined {
  if (e.buyerId === userId && e.status === 'approved')
    return {
      title: 'Refund approved',
      message: `${rupees(e.totalPaise)} for order #${e.id} is back in your wallet`,
    };
  if (e.buyerId === userId && e.status === 'rejected')
    return { title: 'Refund rejected', message: `Order #${e.id}: the reason is on the order` };
  if (e.sellerId === userId && e.status === 'requested')
    return {
      title: 'Refund requested',
      message: `Order #${e.id}: its proceeds are held until it is decided`,
    };
  return undefined;
}

/** The reply itself goes by mail (docs/product.md §4): the toast says where to read it. */
export function queryReplyToast(e: QueryReplyEvent): Toast {
  const state = e.status === 'resolved' ? 'resolved' : 'in progress';
  return {
    title: 'Your query was answered',
    message: `"${e.subject}" is ${state}. The reply is in your email.`,
  };
}

export const invalidateProducts = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });

/**
 * Reading the first page of purchases records an order_view: a new order marks them stale, read on
 * the next visit; a refund's decision is read at once by a buyer looking at them (`purchasesNow`).
 */
function refreshOrders(queryClient: QueryClient, purchasesNow = false) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: SOLD_ORDERS_KEY }),
    queryClient.invalidateQueries({
      queryKey: PURCHASED_ORDERS_KEY,
      refetchType: purchasesNow ? 'active' : 'none',
    }),
  ]);
}

/**
 * What the shell does with a live event: the queries of the remotes (one QueryClient, shared) are
 * refreshed by their key prefixes from @qm/ui, and money received, a sale or a reply to the user's
 * query is a toast.
 */
export async function applyLiveEvent(type: LiveEventType, data: unknown, ctx: LiveContext): Promise<void> {
  const { queryClient } = ctx;
  switch (type) {
    case 'product':
      ctx.refreshProducts();
      return;
    case 'transfer': {
      const e = data as TransferEvent;
      if (e.receiverId !== ctx.userId) return;
      ctx.notify(transferToast(e));
      await refreshWalletQueries(queryClient);
      return;
    }
    case 'order': {
      const e = data as OrderEvent;
      if (e.buyerId !== ctx.userId && e.sellerId !== ctx.userId) return;
      const toast = orderToast(e, ctx.userId);
      if (toast) ctx.notify(toast);
      // A completed order moved money: the buyer's balance and the seller's.
      await Promise.all([
        refreshOrders(queryClient),
        e.status === 'completed' ? refreshWalletQueries(queryClient) : undefined,
      ]);
      return;
    }
    case 'refund': {
      const e = data as RefundEvent;
      if (e.buyerId !== ctx.userId && e.sellerId !== ctx.userId) return;
      const toast = refundToast(e, ctx.userId);
      if (toast) ctx.notify(toast);
      // Every step changes the seller's held proceeds; a decision the buyer's order and balance.
      await Promise.all([
        refreshOrders(queryClient, e.buyerId === ctx.userId && e.status !== 'requested'),
        refreshWalletQueries(queryClient),
      ]);
      return;
    }
    case 'query': {
      const e = data as QueryReplyEvent;
      if (e.userId === ctx.userId) ctx.notify(queryReplyToast(e));
      return;
    }
    case 'reset':
      ctx.refreshProducts();
      await Promise.all([refreshOrders(queryClient), refreshWalletQueries(queryClient)]);
      return;
  }
}
