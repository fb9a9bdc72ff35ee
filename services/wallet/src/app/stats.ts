import {
  type DayTotal,
  STATS_LIMITS,
  StatsDaysQuery,
  statsDay,
  statsWindow,
  windowTotals,
} from '@qm/contracts/rest';
import { type Caller, feedTally, type FeedTally, forbidden, hasRole, invalid } from '@qm/platform';
import type { Connection } from 'mongoose';
import type { AccountStore } from '../store/accounts';
import type { Entry, EntryStore } from '../store/entries';

export interface MoneyStats {
  /** Administrators only. `days` 0 means the default (30). */
  perDay(caller: Caller | undefined, days: number, now?: Date): Promise<DayTotal[]>;
}

/**
 * Money in per IST day for the admin dashboard: the card top-ups the ledger posted. Every top-up
 * debits its provider's clearing account and nothing else debits one, so the debits in a clearing
 * account's entry feed are exactly the money in. Each account's feed has a running tally
 * (@qm/platform feedTally): a request reads only the entries posted since the last one.
 */
export function createMoneyStats(d: {
  conn: Connection;
  accounts: AccountStore;
  entries: EntryStore;
}): MoneyStats {
  const tallies = new Map<string, FeedTally>();
  const tallyOf = (account: string) => {
    let tally = tallies.get(account);
    if (!tally) {
      tally = feedTally<Entry>({
        conn: d.conn,
        model: d.entries.model as never,
        feed: 'account',
        owner: account,
        id: `money-in:${account}`,
        dateOf: (e) => e.createdAt,
        dayOf: (e) => (e.amount < 0 ? statsDay(e.createdAt) : null),
        paiseOf: (e) => -e.amount,
        // Entries are immutable.
        settled: () => true,
        horizon: (now) => {
          const longest = statsWindow(now, STATS_LIMITS.daysMax);
          return { since: longest.since, oldestDay: longest.days[0]! };
        },
      });
      tallies.set(account, tally);
    }
    return tally;
  };

  return {
    async perDay(caller: Caller | undefined, days: number, now = new Date()): Promise<DayTotal[]> {
      if (!caller || !hasRole(caller, 'Admin')) throw forbidden('Administrators only');
      const parsed = StatsDaysQuery.safeParse({ days: days || undefined });
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid days');
      const clearing = await d.accounts.clearing();
      const perAccount = await Promise.all(clearing.map((a) => tallyOf(a._id).days(now)));
      const sum: Record<string, { count: number; amountPaise: number }> = {};
      for (const days of perAccount)
        for (const [day, t] of Object.entries(days)) {
          const s = sum[day] ?? { count: 0, amountPaise: 0 };
          sum[day] = { count: s.count + t.count, amountPaise: s.amountPaise + t.amountPaise };
        }
      return windowTotals(statsWindow(now, parsed.data.days), sum);
    },
  };
}
