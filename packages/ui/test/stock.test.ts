import { LOW_STOCK_THRESHOLD, stockLabel, stockLevel } from '../src/stock-label';

describe('stock indicator labels', () => {
  it('reads "Out of Stock" at 0 (and below)', () => {
    expect(stockLabel(0)).toBe('Out of Stock');
    expect(stockLabel(-1)).toBe('Out of Stock');
    expect(stockLevel(0)).toBe('out');
  });

  it('reads "Selling Quickly! Only {n} left" from 1 to 5', () => {
    expect(LOW_STOCK_THRESHOLD).toBe(5);
    for (let n = 1; n <= 5; n++) {
      expect(stockLabel(n)).toBe(`Selling Quickly! Only ${n} left`);
      expect(stockLevel(n)).toBe('low');
    }
  });

  it('reads "In Stock" above 5', () => {
    expect(stockLabel(6)).toBe('In Stock');
    expect(stockLabel(1000)).toBe('In Stock');
    expect(stockLevel(6)).toBe('in');
  });
});
