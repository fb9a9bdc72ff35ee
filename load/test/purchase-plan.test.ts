import {
  CreateProductBody,
  ORDER_MESSAGES,
  PRODUCT_TYPES as CONTRACT_PRODUCT_TYPES,
} from '@qm/contracts/rest';
import {
  AMPLE_STOCK,
  catalogPlan,
  EXPECTED_REFUSALS,
  PRODUCT_TYPES,
  purchaseOutcome,
  SHED_MESSAGE,
  totalPrice,
} from '../lib/purchase-plan';
import { BUSY_MESSAGE } from '../../gateway/src/admission';

/** load/lib/purchase-plan.ts, which load/purchase.js (k6) runs: it copies the contract's texts. */
describe('load/purchase.js: the plan and the answers', () => {
  it("copies the contract's refusals and product types word for word", () => {
    expect(EXPECTED_REFUSALS.insufficientStock).toBe(ORDER_MESSAGES.insufficientStock);
    expect(EXPECTED_REFUSALS.insufficientBalance).toBe(ORDER_MESSAGES.insufficientBalance);
    expect(SHED_MESSAGE).toBe(BUSY_MESSAGE);
    expect(PRODUCT_TYPES).toEqual(CONTRACT_PRODUCT_TYPES);
    expect(purchaseOutcome(400, JSON.stringify({ message: ORDER_MESSAGES.quantityAboveStock(2) }))).toBe(
      'out-of-stock',
    );
  });

  it('plans products POST /api/products accepts, over every maker, some scarce', () => {
    const plan = catalogPlan({ run: 'r1', products: 40, makers: 3, scarceEvery: 20 });
    for (const p of plan) {
      const { maker: _maker, scarce: _scarce, ...body } = p;
      expect(CreateProductBody.safeParse(body).error).toBeUndefined();
    }
    expect(new Set(plan.map((p) => p.maker))).toEqual(new Set([0, 1, 2]));
    expect(new Set(plan.map((p) => p.name)).size).toBe(40);
    const scarce = plan.filter((p) => p.scarce);
    expect(scarce.map((p) => p.stock)).toEqual([2, 1]);
    expect(plan.filter((p) => !p.scarce).every((p) => p.stock === AMPLE_STOCK)).toBe(true);
  });

  it('computes totals in whole paise, as the server does', () => {
    expect(totalPrice('1.10', 3)).toBe('3.30'); // 1.1 * 3 is 3.3000000000000003 in floats
    expect(totalPrice('0.10', 3)).toBe('0.30');
    expect(totalPrice('19.99', 3)).toBe('59.97');
    expect(totalPrice('999.99', 1)).toBe('999.99');
    expect(totalPrice('50.05', 20)).toBe('1001.00');
    expect(() => totalPrice('19.9', 1)).toThrow(/two decimals/);
    expect(() => totalPrice('19.90', 0)).toThrow(/two decimals/);
  });

  it('tells completed, pending and honest refusals from failures', () => {
    const json = (v: unknown) => JSON.stringify(v);
    expect(purchaseOutcome(201, json({ status: 'completed', paymentStatus: 'paid' }))).toBe('completed');
    expect(purchaseOutcome(201, json({ status: 'pending', paymentStatus: 'pending' }))).toBe('pending');
    expect(purchaseOutcome(409, json({ message: ORDER_MESSAGES.insufficientStock }))).toBe('out-of-stock');
    expect(purchaseOutcome(409, json({ message: ORDER_MESSAGES.insufficientBalance }))).toBe(
      'insufficient-balance',
    );
    expect(purchaseOutcome(503, json({ message: BUSY_MESSAGE }))).toBe('shed');
    // A cancelled order answered as created, a changed price, a timeout, a 5xx, a 400 of another kind
    // and a body that is not JSON are failures of the run.
    for (const [status, body] of [
      [201, json({ status: 'cancelled', paymentStatus: 'failed' })],
      [409, json({ message: ORDER_MESSAGES.priceChanged })],
      [409, json({ message: ORDER_MESSAGES.timedOut })],
      [502, json({ message: 'Bad gateway' })],
      [503, json({ message: 'Service Unavailable' })],
      [400, json({ message: ORDER_MESSAGES.quantityMin })],
      [409, '<html>busy</html>'],
      [201, null],
    ] as const)
      expect(purchaseOutcome(status, body)).toBe('unexpected');
  });
});
