import { formatRupeesIn } from '../src/moneyText';

describe('formatRupeesIn', () => {
  it('writes each rupee amount of a sentence in the Indian format', () => {
    expect(formatRupeesIn('Added ₹100000.00 to wallet via sandbox')).toBe(
      'Added ₹1,00,000.00 to wallet via sandbox',
    );
    expect(formatRupeesIn('Order #4: 2 × Scope for ₹2501.00; Transferred ₹50 to sam')).toBe(
      'Order #4: 2 × Scope for ₹2,501.00; Transferred ₹50.00 to sam',
    );
  });

  it('leaves text without amounts, and amounts already grouped, as they are', () => {
    expect(formatRupeesIn('Viewed orders')).toBe('Viewed orders');
    expect(formatRupeesIn('Paid ₹1,00,000.00')).toBe('Paid ₹1,00,000.00');
  });
});
