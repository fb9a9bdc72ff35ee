import { bucketByDay, type DayTotal, StatsDaysQuery, statsWindow } from '@qm/contracts/rest';
import { type Caller, feedSince, forbidden, hasRole, invalid } from '@qm/platform';
import type { AccountId } from '../domain/ledger';
import type { Entry, EntryStore } from '../store/entries';
import type { AccountStore } from '../store/accounts';

/**
 * Money in per day for the admin dashboard: the card top-ups the ledger posted, read from the
 * entries of each provider's clearing account (every top-up debits exactly one, and nothing else
 * debits them). Those entries are a feed, so the read goes back only as far as the window (FerretDB
 * v1 pushes down no date range: docs/adr/004), and the sums are made here.
 */
export function createMoneyStats(d: { accounts: AccountStore; entries: EntryStore }) {
  return {
    /** `days` 0 means the default (30). */
    async perDay(caller: Caller | undefined, days: number, now = new Date()): Promise<DayTotal[]> {
      if (!caller || !hasRole(caller, 'Admin')) throw forbidden('Administrators only');
      const parsed = StatsDaysQuery.safeParse({ days: days || undefined });
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid days');
      const window = statsWindow(now, parsed.data.days);
      const clearing = await d.accounts.clearing();
      const debits = await Promise.all(
        clearing.map((account) =>
          feedSince(
            (page, pageSize) => d.entries.page(account._id as AccountId, page, pageSize),
            (e: Entry) => e.createdAt,
            window.since,
          ),
        ),
      );
      const topUps = debits.flat().filter((e) => e.amount < 0);
      return bucketByDay(
        window,
        topUps,
        (e) => e.createdAt,
        (e) => -e.amount,
      );
    },
  };
}

export type MoneyStats = ReturnType<typeof createMoneyStats>;
