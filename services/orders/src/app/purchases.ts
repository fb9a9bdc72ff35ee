import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, conflict, forbidden, type Idempotency, notFound, unauthenticated } from '@qm/platform';
import {
  assertMayBuy,
  partyOf,
  fullName,
  type OrderRecord,
  priceOrder,
  productMissing,
  type PurchaseRequest,
  referenceOf,
  validRequest,
} from '../domain/order';
import type { OrderStore } from '../store/orders';
import type { Partners } from './partners';
import type { Saga } from './saga';

export interface PurchaseDeps {
  orders: OrderStore;
  partners: Partners;
  saga: Saga;
  idempotency: Idempotency;
  holdTimeoutSeconds: number;
  /** REFUND_WINDOW_HOURS in milliseconds. */
  refundWindowMs: number;
}

const ADMIN = 'Admin';

/** How a cancelled purchase answers its buyer: the reason, as a refusal. */
const refusal = (reason: string) => (reason === MSG.productNotFound ? notFound(reason) : conflict(reason));

/** POST /api/orders: check the purchase, record the order, run its saga (docs/product.md §5 purchase). */
export interface Purchases {
  /**
   * Places and runs a purchase. Completed (or still pending, when a step must wait for the
   * sweeper) answers the order; cancelled answers its reason as the refusal. With an
   * Idempotency-Key the same request answers the same order again.
   */
  create(
    caller: Caller | undefined,
    input: PurchaseRequest & { idempotencyKey: string },
  ): Promise<OrderRecord>;
}

export function createPurchases(d: PurchaseDeps): Purchases {
  /** Checks who buys what at which price and records the order (pending, at its first step). */
  async function place(caller: Caller, req: PurchaseRequest, requestKey?: string): Promise<OrderRecord> {
    const [buyerFacts, product] = await Promise.all([
      d.partners.user(caller.userId),
      d.partners.product(req.productId),
    ]);
    const buyer = assertMayBuy(buyerFacts, caller.roles);
    if (!product) throw productMissing();
    const price = priceOrder(buyer, product, req);
    // A product whose manufacturer is gone is gone too (catalog deletes it with them).
    const seller = await d.partners.user(product.manufacturerId);
    if (!seller) throw productMissing();
    const id = await d.orders.nextId();
    const now = new Date();
    const deadlineAt = new Date(now.getTime() + d.holdTimeoutSeconds * 1000);
    return d.orders.insert({
      id,
      reference: referenceOf(id),
      productId: product.id,
      buyerId: buyer.id,
      sellerId: seller.id,
      quantity: req.quantity,
      ...price,
      status: 'pending',
      paymentStatus: 'pending',
      step: 'reserve',
      cancelReason: '',
      product: { name: product.name, type: product.type, description: product.description },
      buyerDetails: {
        name: fullName(buyer),
        role: buyer.role,
        email: buyer.email,
        phone: buyer.phoneNumber.trim(),
      },
      buyer: partyOf(buyer),
      seller: partyOf(seller),
      deadlineAt,
      refundableUntil: new Date(deadlineAt.getTime() + d.refundWindowMs),
      createdAt: now,
      updatedAt: now,
      ...(requestKey ? { requestKey } : {}),
    });
  }

  return {
    async create(
      caller: Caller | undefined,
      input: PurchaseRequest & { idempotencyKey: string },
    ): Promise<OrderRecord> {
      if (!caller) throw unauthenticated();
      if (caller.roles.includes(ADMIN)) throw forbidden(MSG.adminCannotPurchase);
      const req = validRequest({
        productId: input.productId,
        quantity: input.quantity,
        totalPaise: input.totalPaise,
      });
      // The order as this call's saga left it; none when the key answered an earlier call's.
      let driven: OrderRecord | undefined;
      const id = await d.idempotency.run(
        `${caller.userId}:create-order`,
        input.idempotencyKey || undefined,
        // Named as the REST body, so a mismatch names the fields the client sent.
        { productId: req.productId, quantity: req.quantity, totalPrice: req.totalPaise },
        async ({ rerun }) => {
          // The idempotency record reruns a key whose earlier run died or failed mid-purchase: that
          // run's order is driven on, not a second one placed beside it. A key's first run has none.
          const requestKey = input.idempotencyKey ? `${caller.userId}:${input.idempotencyKey}` : undefined;
          const placed =
            (rerun && requestKey && (await d.orders.byRequestKey(requestKey))) ||
            (await place(caller, req, requestKey));
          const order = await d.saga.drive(placed);
          if (order.status === 'cancelled') throw refusal(order.cancelReason);
          driven = order;
          return order.id;
        },
      );
      // A replayed key answers the order as it is now: read again.
      const order = driven ?? (await d.orders.get(id));
      if (!order) throw new Error(`order ${id} not found after placing it`);
      return order;
    },
  };
}
