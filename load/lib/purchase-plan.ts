/**
 * The pure parts of load/purchase.js: the catalogue it creates, the totals it sends and what each
 * purchase answer means. k6 runs this TypeScript as it is but resolves no packages, so the order
 * texts below are copies of ORDER_MESSAGES (@qm/contracts/rest); load/test/purchase-plan.test.ts
 * holds them, and the planned products, to the contract.
 */

export const PRODUCT_TYPES = ['Weapon', 'Vehicle', 'Equipment', 'Ammunition', 'Other'] as const;

/** Units of a product no run sells out (50 buyers, a minute, a few units a purchase). */
export const AMPLE_STOCK = 10_000;

export interface PlannedProduct {
  /** Index of the manufacturer that lists it. */
  maker: number;
  name: string;
  type: (typeof PRODUCT_TYPES)[number];
  /** Rupees with two decimals, as POST /api/products takes it. */
  price: string;
  description: string;
  stock: number;
  /** 1 to 3 units: purchases of it soon meet "Insufficient stock". */
  scarce: boolean;
}

/**
 * `products` products spread round-robin over `makers` manufacturers; every `scarceEvery`-th has
 * 1 to 3 units, the rest AMPLE_STOCK. Prices vary from ₹50.00 to ₹999.99 so that totals have paise.
 */
export function catalogPlan(opts: {
  run: string;
  products: number;
  makers: number;
  scarceEvery: number;
}): PlannedProduct[] {
  if (opts.makers < 1 || opts.products < 1 || opts.scarceEvery < 2)
    throw new Error('catalogPlan: at least one maker and one product; scarceEvery at least 2');
  return Array.from({ length: opts.products }, (_, i) => {
    const scarce = i % opts.scarceEvery === opts.scarceEvery - 1;
    const paise = 50_00 + ((i * 7919) % 950_00);
    return {
      maker: i % opts.makers,
      name: `Load ${opts.run} item ${i}`,
      type: PRODUCT_TYPES[i % PRODUCT_TYPES.length]!,
      price: rupees(paise),
      description: scarce ? 'Few left: purchases race for the last units' : 'Plenty in stock',
      stock: scarce ? 1 + (i % 3) : AMPLE_STOCK,
      scarce,
    };
  });
}

const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/**
 * price × quantity as the buyer's page shows it, computed in whole paise: float rupees drift
 * (1.10 × 3 = 3.3000000000000003) and the server would answer 409, the price changed.
 */
export function totalPrice(price: string, quantity: number): string {
  const m = /^(\d+)\.(\d{2})$/.exec(price);
  if (!m || !Number.isSafeInteger(quantity) || quantity < 1)
    throw new Error(`totalPrice: not a price with two decimals and a quantity: ${price} × ${quantity}`);
  return rupees((Number(m[1]) * 100 + Number(m[2])) * quantity);
}

/** ORDER_MESSAGES' refusals that a busy market gives honestly (docs/product.md §5, §8). */
export const EXPECTED_REFUSALS = {
  insufficientStock: 'Insufficient stock',
  insufficientBalance: 'Insufficient wallet balance',
} as const;

/** The gateway's BUSY_MESSAGE (docs/adr/026): a 503 with it was refused before it was sent. */
export const SHED_MESSAGE = 'The service is busy. Please try again in a moment.';

/** ORDER_MESSAGES.quantityAboveStock(n): others bought units since the buyer chose the quantity. */
const ABOVE_STOCK = /^Quantity must be at most the available stock \(\d+\)$/;

export type PurchaseOutcome =
  'completed' | 'pending' | 'out-of-stock' | 'insufficient-balance' | 'shed' | 'unexpected';

/**
 * What the answer to POST /api/orders means: a completed and paid order; a pending one (a step left
 * to the sweeper); a refusal the market gives when stock or money ran out; a purchase the gateway
 * refused unsent because its service was busy, still so after the client's retries (ADR 026: nothing
 * happened, the buyer may try again); or anything else, which is a failure of the run.
 */
export function purchaseOutcome(status: number, body: string | null | undefined): PurchaseOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return 'unexpected';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'unexpected';
  const answer = parsed as { status?: unknown; paymentStatus?: unknown; message?: unknown };
  if (status === 201) {
    if (answer.status === 'completed' && answer.paymentStatus === 'paid') return 'completed';
    return answer.status === 'pending' ? 'pending' : 'unexpected';
  }
  const message = typeof answer.message === 'string' ? answer.message : '';
  if (status === 409 && message === EXPECTED_REFUSALS.insufficientStock) return 'out-of-stock';
  if (status === 400 && ABOVE_STOCK.test(message)) return 'out-of-stock';
  if (status === 409 && message === EXPECTED_REFUSALS.insufficientBalance) return 'insufficient-balance';
  if (status === 503 && message === SHED_MESSAGE) return 'shed';
  return 'unexpected';
}
