import { longDateTime } from '../src/dates';
import { orderStatusColor, statusLabel } from '../src/order-status';

describe('orderStatusColor (spec §4)', () => {
  it('colours the known statuses', () => {
    expect(orderStatusColor('completed')).toBe('green');
    expect(orderStatusColor('pending')).toBe('yellow');
    expect(orderStatusColor('cancelled')).toBe('red');
  });

  it('shows any other status as neutral, or destructive on the admin page', () => {
    expect(orderStatusColor('refunded')).toBe('gray');
    expect(orderStatusColor('refunded', 'red')).toBe('red');
  });

  it('capitalises the status for the badge', () => {
    expect(statusLabel('cancelled')).toBe('Cancelled');
  });
});

describe('longDateTime', () => {
  it('gives the long date with the time', () => {
    const local = new Date(2026, 10, 23, 14, 5).toISOString();
    expect(longDateTime(local)).toBe('23 November 2026 at 2:05 pm');
  });
});
