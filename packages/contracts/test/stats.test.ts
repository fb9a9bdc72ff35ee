import { statsDay, statsDayStart, StatsDaysQuery, statsWindow, windowTotals } from '../src/api/stats';

describe('dashboard day buckets (India Standard Time, UTC+05:30)', () => {
  it('puts an instant on its IST calendar day, which starts at 18:30 UTC the day before', () => {
    expect(statsDay(new Date('2026-11-22T18:29:59.999Z'))).toBe('2026-11-22');
    expect(statsDay(new Date('2026-11-22T18:30:00.000Z'))).toBe('2026-11-23');
    expect(statsDay(new Date('2026-11-23T18:29:59.999Z'))).toBe('2026-11-23');
    expect(statsDayStart('2026-11-23').toISOString()).toBe('2026-11-22T18:30:00.000Z');
  });

  it('windows the last N IST days up to today, oldest first, across a month end', () => {
    // 02:00 IST on 1 December: still 30 November in UTC.
    const w = statsWindow(new Date('2026-11-30T20:30:00.000Z'), 3);
    expect(w.days).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
    expect(w.since.toISOString()).toBe('2026-11-28T18:30:00.000Z');
    expect(statsWindow(new Date('2026-11-23T10:00:00Z'), 30).days).toHaveLength(30);
  });

  it('answers every day of the window from totals per day, zeros for the rest, nothing outside', () => {
    const w = statsWindow(new Date('2026-11-23T10:00:00.000Z'), 2);
    const perDay = {
      '2026-11-21': { count: 9, amountPaise: 999 }, // before the window
      '2026-11-23': { count: 2, amountPaise: 10_250 },
    };
    expect(windowTotals(w, perDay)).toEqual([
      { day: '2026-11-22', count: 0, amountPaise: 0 },
      { day: '2026-11-23', count: 2, amountPaise: 10_250 },
    ]);
  });

  it('accepts 1 to 90 days, 30 by default, with a clear message otherwise', () => {
    expect(StatsDaysQuery.parse({})).toEqual({ days: 30 });
    expect(StatsDaysQuery.parse({ days: '7' })).toEqual({ days: 7 });
    const message = (days: unknown) => StatsDaysQuery.safeParse({ days }).error?.issues[0]?.message;
    expect(message('0')).toBe('Days must be at least 1');
    expect(message('91')).toBe('Days must be at most 90');
    expect(message('1.5')).toBe('Days must be a whole number');
    expect(message('abc')).toBe('Days must be a whole number');
  });
});
