import { heldSaleLabel } from '../src/proceeds';

describe('heldSaleLabel', () => {
  it("names an order's proceeds by its number, anything else by its reference", () => {
    expect(heldSaleLabel('order-12')).toBe('Order #12');
    expect(heldSaleLabel('order-12-b')).toBe('order-12-b');
    expect(heldSaleLabel('sale-7')).toBe('sale-7');
  });
});
