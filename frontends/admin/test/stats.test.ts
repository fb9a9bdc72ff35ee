import { compactINR, dayLabel, dayPoints, ORDER_STATUS_LEGEND, slices, windowTotal } from '../src/stats';

describe('dashboard chart data', () => {
  it('labels an IST day key as the axis shows it, whatever the browser time zone', () => {
    expect(dayLabel('2026-11-23')).toBe('23 Nov');
    expect(dayLabel('2026-12-01')).toBe('1 Dec');
  });

  it('turns per-day paise into points in rupees, and sums the window', () => {
    const days = [
      { day: '2026-11-22', count: 0, amountPaise: 0 },
      { day: '2026-11-23', count: 2, amountPaise: 1_250_050 },
    ];
    expect(dayPoints(days)).toEqual([
      { day: '2026-11-22', label: '22 Nov', count: 0, rupees: 0 },
      { day: '2026-11-23', label: '23 Nov', count: 2, rupees: 12_500.5 },
    ]);
    expect(windowTotal(days)).toEqual({ count: 2, amountPaise: 1_250_050 });
    expect(windowTotal([])).toEqual({ count: 0, amountPaise: 0 });
  });

  it('writes axis amounts in Indian compact notation', () => {
    expect(compactINR(0)).toBe('₹0');
    expect(compactINR(1_500)).toBe('₹1.5K');
    expect(compactINR(250_000)).toBe('₹2.5L');
    expect(compactINR(12_000_000)).toBe('₹1.2Cr');
  });

  it('gives a donut its slices in the legend order, or none when every count is zero (the empty state)', () => {
    expect(slices({ pending: 1, completed: 4, cancelled: 0, refunded: 2 }, ORDER_STATUS_LEGEND)).toEqual([
      { name: 'Completed', value: 4, color: 'green.6' },
      { name: 'Pending', value: 1, color: 'yellow.6' },
      { name: 'Cancelled', value: 0, color: 'red.6' },
      { name: 'Refunded', value: 2, color: 'grape.6' },
    ]);
    expect(slices({ pending: 0, completed: 0, cancelled: 0, refunded: 0 }, ORDER_STATUS_LEGEND)).toEqual([]);
  });
});
