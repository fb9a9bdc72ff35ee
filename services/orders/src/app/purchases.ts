import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import {
  type Caller,
  conflict,
  forbidden,
  type Idempotency,
  isDuplicateKeyError,
  notFound,
  unauthenticated,
} from '@qm/platform';
import {
  assertMayBuy,
  partyOf,
  fullName,
  type OrderRecord,
  priceOrder,
  productMissing,
  type PurchaseRequest,
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

/** The request's terms an order placed under its key must match, named as the REST body names them. */
function differingTerms(order: OrderRecord, req: PurchaseRequest): string[] {
  const terms: [string, boolean][] = [
    ['productId', order.productId !== req.productId],
    ['quantity', order.quantity !== req.quantity],
    ['totalPrice', order.totalPaise !== req.totalPaise],
  ];
  return terms.filter(([, differs]) => differs).map(([name]) => name);
}

/** POST /api/orders: check the purchase, record the order, run its saga (docs/product.md §5 purchase). */
export interface Purchases {
  /**
   * Places and runs a purchase. Completed (or still pending, when a step must wait for the
   * sweeper) answers the order; cancelled answers its reason as the refusal. With an
   * Idempotency-Key the order is the request's record (docs/adr/045): the same request again drives
   * and answers the same order, and another request under the key is refused.
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
    const now = new Date();
    const deadlineAt = new Date(now.getTime() + d.holdTimeoutSeconds * 1000);
    return d.orders.place({
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

  /**
   * The order placed under the request's key by an earlier (or concurrent) request, if it is this
   * request's; another request's is refused naming the terms that differ.
   */
  async function earlierUnder(requestKey: string, req: PurchaseRequest): Promise<OrderRecord | null> {
    const earlier = await d.orders.byRequestKey(requestKey);
    if (!earlier) return null;
    const differing = differingTerms(earlier, req);
    if (differing.length > 0) throw conflict(MSG.idempotencyMismatch(differing));
    return earlier;
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
      const requestKey = input.idempotencyKey ? `${caller.userId}:${input.idempotencyKey}` : undefined;
      // The key is claimed so that one request places its order; the order, unique by its key, is
      // the record that answers the others (docs/adr/045).
      return d.idempotency.runOwnRecord(
        `${caller.userId}:create-order`,
        input.idempotencyKey || undefined,
        // Named as the REST body, so a mismatch names the fields the client sent.
        { productId: req.productId, quantity: req.quantity, totalPrice: req.totalPaise },
        async ({ rerun, holder }) => {
          // A repeat, a run after an earlier one died or failed, or a key used again: its order is
          // driven on, not a second one placed beside it. A key's first run has none to look for.
          const earlier = rerun && requestKey ? await earlierUnder(requestKey, req) : null;
          if (!earlier && !holder) throw d.idempotency.inProgress();
          const placed =
            earlier ??
            (await place(caller, req, requestKey).catch(async (err: unknown) => {
              // Placed meanwhile by a run that took over the key while this one was slow.
              const other = requestKey && isDuplicateKeyError(err) && (await earlierUnder(requestKey, req));
              if (!other) throw err;
              return other;
            }));
          const order = await d.saga.drive(placed);
          if (order.status === 'cancelled') throw refusal(order.cancelReason);
          return order;
        },
      );
    },
  };
}
