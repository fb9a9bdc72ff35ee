import { checkoutExpiryNote } from '../src/checkout/expiry';

describe('checkoutExpiryNote', () => {
  const now = Date.parse('2026-11-28T09:45:00Z'); // 3:15 pm IST

  it('names the time of day in India Standard Time', () => {
    expect(checkoutExpiryNote('2026-11-28T10:15:00Z', now)).toBe(
      'This checkout expires at 3:45 pm IST if it is not paid.',
    );
  });

  it('names the date too when the expiry is further off', () => {
    expect(checkoutExpiryNote('2026-11-30T10:15:00Z', now)).toBe(
      'This checkout expires at 30 Nov 2026, 3:45 pm IST if it is not paid.',
    );
  });
});
