import { DUPLICATE_WINDOW_MS, mayRepeat } from '../src/events/bus';

describe('mayRepeat: whether a delivery may repeat an event the consumer already handled', () => {
  const now = Date.parse('2026-12-05T12:00:00Z');
  const madeAgo = (ms: number) => ({ occurredAt: new Date(now - ms).toISOString() });

  it('is false only for a first delivery of an event made well within the duplicate window', () => {
    expect(mayRepeat(madeAgo(0), false, now)).toBe(false);
    expect(mayRepeat(madeAgo(DUPLICATE_WINDOW_MS / 2 - 1), false, now)).toBe(false);
    // A producer's clock a little ahead of ours.
    expect(mayRepeat(madeAgo(-5_000), false, now)).toBe(false);
  });

  it('is true for a redelivery, an event made half a window ago or more, or an unreadable time', () => {
    expect(mayRepeat(madeAgo(0), true, now)).toBe(true);
    expect(mayRepeat(madeAgo(DUPLICATE_WINDOW_MS / 2), false, now)).toBe(true);
    expect(mayRepeat(madeAgo(DUPLICATE_WINDOW_MS * 10), false, now)).toBe(true);
    expect(mayRepeat({ occurredAt: 'yesterday' }, false, now)).toBe(true);
  });
});
