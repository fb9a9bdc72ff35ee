import { LRUCache } from 'lru-cache';
import type { OrderRecord } from '../domain/order';

/**
 * The orders this process completed lately, as its own write left them (docs/adr/012, amendment of
 * 2026-12-05). A completed order's mails need what no later change alters (what was sold, to whom,
 * for how much, when), and their consumers usually run in the process that completed it moments
 * before: they take it from here instead of reading it back, twice. Another replica's delivery, or
 * one later than `ttlMs`, reads the order as before. Filled only from our own write, never from an
 * event, so an event naming an order still mails only what the database says happened.
 */
export interface CompletedOrders {
  remember(order: OrderRecord): void;
  /** The order as completed, if this process completed it within `ttlMs`. */
  get(id: number): OrderRecord | undefined;
}

export function createCompletedOrders({ max = 5_000, ttlMs = 60_000 } = {}): CompletedOrders {
  const cache = new LRUCache<number, OrderRecord>({ max, ttl: ttlMs });
  return {
    remember(order) {
      if (order.status === 'completed') cache.set(order.id, order);
    },
    get: (id) => cache.get(id),
  };
}
