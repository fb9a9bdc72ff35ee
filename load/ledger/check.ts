import type { Db } from 'mongodb';
import { formatMoney } from '../../packages/contracts/src/rest';

/**
 * `npm run ledger:check`: the wallet ledger's invariants (docs/adr/006-ledger.md),
 * read straight from the wallet's database. Everything is streamed through cursors or grouped by
 * the server, so memory grows with the number of accounts and top-ups, never with entries.
 *
 * The service moves money in steps (debit, then credit and entries), so between two steps an
 * account's balance differs from its entries by exactly the steps it carries as markers in
 * `applied` whose entry is not written yet (a marker and its entry share the id
 * `<transfer>:debit|credit`). The check counts those, so it holds at any instant a transfer can
 * stop in, including a crash the sweeper has not finished yet.
 */

export type BreakKind =
  | 'entries-sum'
  | 'negative-balance'
  | 'available'
  | 'balance-entries'
  | 'held'
  | 'topup-payment'
  | 'payment-reused'
  | 'pending-timeout'
  | 'unsettled'
  | 'release-overdue'
  | 'proceeds-unflagged';

export interface Break {
  kind: BreakKind;
  detail: string;
}

export interface LedgerReport {
  accounts: number;
  entries: number;
  completedTopups: number;
  /** Every break found (the CLI prints the first few). */
  breaks: Break[];
  ms: number;
}

/**
 * Where the top-up records live and what their fields are called (written by the top-up flow;
 * one place to change if it renames them). Amounts are paise, like everything in the ledger.
 */
export const TOPUPS = {
  collection: 'topups',
  provider: 'provider',
  paymentId: 'providerPaymentId',
  status: 'status',
  completed: 'completed',
  userId: 'userId',
  amount: 'amount',
} as const;

/** The ledger key of a top-up's credit: the provider's payment id (docs/adr/007). */
export const topupKey = (provider: string, paymentId: string) => `topup:${provider}:${paymentId}`;

/** A pending transfer may outlive its timeout, and any transfer stay unsettled, this long. */
export const GRACE_MS = 60_000;

/** States in which a two-phase transfer may still hold funds on its debit account. */
const HOLDING = new Set(['initiated', 'pending', 'posting', 'voiding', 'expiring']);

interface AccountDoc {
  _id: string;
  kind?: string;
  balance: number;
  held: number;
  available: number;
  applied?: string[];
  holds?: string[];
  releaseAt?: Date | null;
  frozen?: boolean;
  proceedsHeld?: boolean;
}

interface TransferDoc {
  _id: string;
  key: string;
  kind: string;
  debitAccount: string;
  creditAccount: string;
  amount: number;
  twoPhase: boolean;
  state: string;
  timeoutAt?: Date | null;
  settled: boolean;
  updatedAt: Date;
}

const rupees = (paise: number) => `₹${formatMoney(paise)}`;
/** Every account but a provider's clearing one holds someone's money: a wallet, a sale's escrow. */
const mustStayFunded = (id: string) => !id.startsWith('provider:');
const age = (now: Date, at: Date | null | undefined) =>
  at ? `${Math.round((now.getTime() - new Date(at).getTime()) / 1000)} s` : 'unknown time';

/** (b), (g), (h): what one account's own figures must satisfy. */
function accountBreaks(
  a: AccountDoc,
  now: Date,
  graceMs: number,
  report: (kind: BreakKind, detail: string) => void,
): void {
  if (a.available !== a.balance - a.held)
    report(
      'available',
      `${a._id}: available ${rupees(a.available)} ≠ balance ${rupees(a.balance)} − held ${rupees(a.held)}`,
    );
  if (mustStayFunded(a._id) && (a.balance < 0 || a.available < 0))
    report('negative-balance', `${a._id}: balance ${rupees(a.balance)}, available ${rupees(a.available)}`);
  // (g) a sale's proceeds reach its seller once its refund window closed (docs/adr/028), unless a
  // refund request froze them for an administrator's decision.
  if (
    a.kind === 'escrow' &&
    a.available > 0 &&
    !a.frozen &&
    a.releaseAt &&
    now.getTime() - new Date(a.releaseAt).getTime() > graceMs
  )
    report(
      'release-overdue',
      `${a._id}: ${rupees(a.available)} still held ${age(now, a.releaseAt)} after its release time`,
    );
  // (h) the seller's held proceeds and the sum of all escrows are read by this flag (docs/adr/042).
  if (a.kind === 'escrow' && a.balance > 0 && !a.proceedsHeld)
    report('proceeds-unflagged', `${a._id}: holds ${rupees(a.balance)} without proceedsHeld`);
}

export async function checkLedger(
  db: Db,
  { now = new Date(), graceMs = GRACE_MS }: { now?: Date; graceMs?: number } = {},
): Promise<LedgerReport> {
  const started = Date.now();
  const breaks: Break[] = [];
  const report = (kind: BreakKind, detail: string) => breaks.push({ kind, detail });
  const accountsCol = db.collection<AccountDoc>('accounts');
  const entriesCol = db.collection<{ _id: string; account: string; amount: number }>('entries');
  const transfersCol = db.collection<TransferDoc>('transfers');
  const transferById = (id: string) => transfersCol.findOne({ _id: id });

  // (b) and the accounts' figures the other checks compare against.
  const accounts = new Map<string, AccountDoc>();
  const projection = {
    balance: 1,
    held: 1,
    available: 1,
    applied: 1,
    holds: 1,
    kind: 1,
    releaseAt: 1,
    frozen: 1,
    proceedsHeld: 1,
  };
  for await (const a of accountsCol.find({}, { projection })) {
    accounts.set(a._id, a);
    accountBreaks(a, now, graceMs, report);
  }

  // (a) and (c): one pass over the entries, summed per account here. Neither `$group` (FerretDB v1
  // holds every document in memory for it) nor counting (FerretDB v1 reads them all to count) scales.
  let entries = 0;
  let total = 0;
  const sums = new Map<string, number>();
  const stream = entriesCol.find({}, { projection: { account: 1, amount: 1 }, batchSize: 5000 });
  for await (const e of stream) {
    entries++;
    total += e.amount;
    sums.set(e.account, (sums.get(e.account) ?? 0) + e.amount);
  }
  if (total !== 0) report('entries-sum', `all ${entries} entries sum to ${rupees(total)}, not ₹0.00`);

  for (const [id, sum] of sums)
    if (!accounts.has(id)) report('balance-entries', `${id}: entries of ${rupees(sum)} but no account`);

  for (const a of accounts.values()) {
    // Steps applied to the balance whose entries are not written yet (a transfer in flight).
    let inFlight = 0;
    for (const marker of a.applied ?? []) {
      if (await entriesCol.findOne({ _id: marker }, { projection: { _id: 1 } })) continue;
      const [transferId, side] = [marker.slice(0, marker.lastIndexOf(':')), marker.split(':').pop()];
      const t = await transferById(transferId);
      if (!t) {
        report('balance-entries', `${a._id}: carries ${marker} of no recorded transfer`);
        continue;
      }
      // A refund gave a raced debit back (both markers stay); a void barred a debit never taken.
      inFlight += side === 'debit' ? -t.amount : side === 'void' ? 0 : t.amount;
    }
    const expected = (sums.get(a._id) ?? 0) + inFlight;
    if (a.balance !== expected)
      report(
        'balance-entries',
        `${a._id}: balance ${rupees(a.balance)} ≠ its entries ${rupees(sums.get(a._id) ?? 0)}` +
          (inFlight ? ` + ${rupees(inFlight)} in flight` : ''),
      );

    // (c) held: exactly the two-phase transfers holding funds here.
    let held = 0;
    for (const id of a.holds ?? []) {
      const t = await transferById(id);
      if (!t || !t.twoPhase || t.debitAccount !== a._id || !HOLDING.has(t.state)) {
        report('held', `${a._id}: holds ${id}, ${t ? `a ${t.state} transfer` : 'no recorded transfer'}`);
        continue;
      }
      held += t.amount;
    }
    if (a.held !== held)
      report('held', `${a._id}: held ${rupees(a.held)} ≠ its pending transfers' ${rupees(held)}`);
  }

  // (c) every pending transfer holds its amount; (e) none outlives its timeout by the grace.
  for await (const t of transfersCol.find({ state: 'pending' })) {
    if (!accounts.get(t.debitAccount)?.holds?.includes(t._id))
      report('held', `pending ${t._id} (${rupees(t.amount)}) holds nothing on ${t.debitAccount}`);
    if (!t.timeoutAt || now.getTime() - new Date(t.timeoutAt).getTime() > graceMs)
      report(
        'pending-timeout',
        `pending ${t._id} ${t.timeoutAt ? `${age(now, t.timeoutAt)} past its timeout` : 'has no timeout'}`,
      );
  }

  // (f) the sweeper settles everything else; what it left for longer than the grace is a failure.
  for await (const t of transfersCol.find({ settled: false })) {
    if (t.state === 'pending') continue;
    if (now.getTime() - new Date(t.updatedAt).getTime() > graceMs)
      report('unsettled', `${t.state} ${t._id} (${t.key}) unsettled for ${age(now, t.updatedAt)}`);
  }

  // (d) each completed top-up credited by exactly one posted transfer keyed by its payment, and
  // no payment behind two top-ups.
  const credits = new Map<string, TransferDoc>();
  for await (const t of transfersCol.find({ kind: 'topup' })) credits.set(t.key, t);
  const payments = new Set<string>();
  const paid = new Set<string>();
  let completedTopups = 0;
  const topups = db.collection<Record<string, unknown>>(TOPUPS.collection);
  for await (const p of topups.find({})) {
    const paymentId = p[TOPUPS.paymentId];
    if (typeof paymentId !== 'string' || !paymentId) continue; // an order not paid (yet)
    const key = topupKey(String(p[TOPUPS.provider]), paymentId);
    if (payments.has(key)) report('payment-reused', `payment ${key} is on more than one top-up`);
    payments.add(key);
    if (p[TOPUPS.status] !== TOPUPS.completed) continue;
    completedTopups++;
    const t = credits.get(key);
    const user = `user:${String(p[TOPUPS.userId])}`;
    const provider = `provider:${String(p[TOPUPS.provider])}`;
    if (!t || t.state !== 'posted')
      report('topup-payment', `completed top-up ${key} has ${t ? `a ${t.state} credit` : 'no credit'}`);
    else if (t.amount !== p[TOPUPS.amount] || t.creditAccount !== user || t.debitAccount !== provider)
      report(
        'topup-payment',
        `completed top-up ${key} (${rupees(Number(p[TOPUPS.amount]))} to ${user}) was credited ` +
          `${rupees(t.amount)} from ${t.debitAccount} to ${t.creditAccount}`,
      );
    else paid.add(key);
  }
  for (const [key, t] of credits)
    if (t.state === 'posted' && !paid.has(key) && now.getTime() - new Date(t.updatedAt).getTime() > graceMs)
      report('topup-payment', `credit ${key} (${rupees(t.amount)}) belongs to no completed top-up`);

  return {
    accounts: accounts.size,
    entries,
    completedTopups,
    breaks,
    ms: Date.now() - started,
  };
}

/** The one result line the CLI prints. */
export function resultLine(r: LedgerReport, listed = 5): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (!r.breaks.length)
    return (
      `ledger-check: OK — ${n(r.accounts)} accounts, ${n(r.entries)} entries summing to ₹0.00, ` +
      `${n(r.completedTopups)} completed top-ups, no pending or unsettled transfer overdue ` +
      `(${(r.ms / 1000).toFixed(1)} s)`
    );
  const first = r.breaks.slice(0, listed).map((b) => `${b.kind}: ${b.detail}`);
  const more = r.breaks.length > listed ? `; … ${r.breaks.length - listed} more` : '';
  return `ledger-check: ${r.breaks.length} break${r.breaks.length === 1 ? '' : 's'} — ${first.join('; ')}${more}`;
}
