import { formatINR } from '../src/money';

describe('formatINR', () => {
  it('formats decimal strings from the API with the rupee sign and two decimals', () => {
    expect(formatINR('1250.00')).toBe('₹1,250.00');
    expect(formatINR('0.5')).toBe('₹0.50');
    expect(formatINR('99999999.99')).toBe('₹9,99,99,999.99');
  });

  it('uses Indian digit grouping (lakh, crore)', () => {
    expect(formatINR(100000)).toBe('₹1,00,000.00');
    expect(formatINR(12345678)).toBe('₹1,23,45,678.00');
  });

  it('formats numbers', () => {
    expect(formatINR(0)).toBe('₹0.00');
    expect(formatINR(100)).toBe('₹100.00');
    expect(formatINR(-250.5)).toBe('-₹250.50');
  });

  it('formats long decimal strings exactly, without going through floating point', () => {
    expect(formatINR('12345678901234567.89')).toBe('₹12,34,56,78,90,12,34,567.89');
  });

  it('shows empty values as zero and non-numbers as a dash', () => {
    expect(formatINR('')).toBe('₹0.00');
    expect(formatINR(null)).toBe('₹0.00');
    expect(formatINR(undefined)).toBe('₹0.00');
    expect(formatINR('abc')).toBe('—');
    expect(formatINR(Number.NaN)).toBe('—');
  });
});
