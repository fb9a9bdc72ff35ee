import { createVerifiedPins } from '../src/app/verified-pins';

describe('PINs verified recently (the fast path of a transfer)', () => {
  it('matches only the same user, stored hash and PIN', () => {
    const pins = createVerifiedPins();
    expect(pins.matches(7, 'hash-a', '246810')).toBe(false);
    pins.remember(7, 'hash-a', '246810');
    expect(pins.matches(7, 'hash-a', '246810')).toBe(true);
    expect(pins.matches(7, 'hash-a', '246811')).toBe(false);
    expect(pins.matches(8, 'hash-a', '246810')).toBe(false);
    // A new PIN was activated: its stored hash differs, so the old PIN no longer passes quickly.
    expect(pins.matches(7, 'hash-b', '246810')).toBe(false);
  });

  it('forgets a user on request and every entry after its time to live', async () => {
    const pins = createVerifiedPins({ ttlMs: 50 });
    pins.remember(1, 'h', '111111');
    pins.remember(2, 'h', '222222');
    pins.forget(1);
    expect(pins.matches(1, 'h', '111111')).toBe(false);
    expect(pins.matches(2, 'h', '222222')).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    expect(pins.matches(2, 'h', '222222')).toBe(false);
  });

  it('keeps no more users than it may', () => {
    const pins = createVerifiedPins({ max: 2 });
    pins.remember(1, 'h', '111111');
    pins.remember(2, 'h', '222222');
    pins.remember(3, 'h', '333333');
    expect(pins.matches(1, 'h', '111111')).toBe(false);
    expect(pins.matches(3, 'h', '333333')).toBe(true);
  });
});
