import { exactDate, longDateTime, timeOfDay } from '../src/dates';
import { orderStatusColor, statusLabel } from '../src/order-status';

describe('orderStatusColor (docs/product.md §4)', () => {
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
  it("gives the long date with the time, in India Standard Time whatever the viewer's zone, and says so", () => {
    expect(longDateTime('2026-11-23T08:35:00Z')).toBe('23 November 2026 at 2:05 pm IST');
    expect(exactDate('2026-11-23T20:00:00Z')).toBe('24 Nov 2026, 1:30 am IST');
    expect(timeOfDay('2026-11-23T08:35:00Z')).toBe('2:05 pm IST');
  });
});
