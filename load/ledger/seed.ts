import type { Connection } from 'mongoose';
import type { Db, Document } from 'mongodb';
import { feedCounterId, feedFields, type Sequences, sequencesOf } from '../../packages/platform/src';
import { TOPUPS, topupKey } from './check';

/**
 * A consistent wallet ledger of any size, written straight into the wallet's database in bulk
 * (the service would take hours for 1 M entries on this machine): posted transfers between seeded
 * users and a provider's clearing account — top-ups in, P2P transfers between users — each with
 * its two entries (filed in the per-account feed), the users' history lines (filed in the
 * per-user feed), the completed top-up records, and finally the accounts with their balances.
 *
 * The movements come from a seeded PRNG, so a first pass can count what every feed, sequence and
 * balance needs and reserve it (atomic counter steps, safe next to a running wallet service, when the caller keeps the
 * counters where the service does: load/lib/stack-sequences.ts), and a
 * second pass writes the same movements. Seeded users get ids above any seeded before, from
 * FIRST_USER_ID: they are not identity users, only ledger load. An interrupted seed leaves a ledger
 * that `ledger:check` reports broken; drop `qm_wallet` and seed again.
 */
export interface SeedOptions {
  /** Entries to add (two per transfer; rounded up to even). */
  entries: number;
  users: number;
  provider?: string;
  /** PRNG seed: the same options write the same movements. */
  seed?: number;
  batch?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  transfers: number;
  entries: number;
  topups: number;
  historyLines: number;
  firstUserId: number;
  ms: number;
}

export const FIRST_USER_ID = 900_000_001;
const DAY = 24 * 60 * 60 * 1000;

/** mulberry32: small, fast and good enough to spread load-test movements. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Move {
  i: number;
  kind: 'topup' | 'p2p';
  /** User indexes: `to` receives; `from` pays (p2p). */
  from: number;
  to: number;
  amount: number;
}

/** The movements: a user tops up when short (or one time in ten), else pays another user. */
function* moves(transfers: number, users: number, seed: number): Generator<Move> {
  const rand = prng(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const balances = new Array<number>(users).fill(0);
  for (let i = 0; i < transfers; i++) {
    const u = pick(users);
    if (users < 2 || balances[u]! < 100_00 || rand() < 0.1) {
      const amount = (100 + pick(4901)) * 100; // ₹100 to ₹5,000, the top-up range's lower part
      balances[u]! += amount;
      yield { i, kind: 'topup', from: -1, to: u, amount };
    } else {
      const v = (u + 1 + pick(users - 1)) % users;
      const amount = 1 + pick(Math.min(balances[u]!, 2000_00));
      balances[u]! -= amount;
      balances[v]! += amount;
      yield { i, kind: 'p2p', from: u, to: v, amount };
    }
  }
}

/** Reserves `n` numbers of a counter; answers the first. */
async function reserve(seqs: Sequences, id: string, n: number): Promise<number> {
  return (await seqs.next(id, n)) - n + 1;
}

/** Pass 1: what every feed and sequence needs, and the final balances. */
function plan(transfers: number, users: number, seed: number) {
  const balances = new Array<number>(users).fill(0);
  const entries = new Array<number>(users).fill(0);
  const lines = new Array<number>(users).fill(0);
  let topups = 0;
  let topupTotal = 0;
  for (const m of moves(transfers, users, seed)) {
    balances[m.to]! += m.amount;
    entries[m.to]!++;
    lines[m.to]!++;
    if (m.kind === 'topup') {
      topups++;
      topupTotal += m.amount;
    } else {
      balances[m.from]! -= m.amount;
      entries[m.from]!++;
      lines[m.from]!++;
    }
  }
  return { balances, entries, lines, topups, topupTotal, historyLines: lines.reduce((a, b) => a + b, 0) };
}

/** Numbers handed out one at a time from blocks reserved up front. */
function numbering() {
  const next = new Map<string | number, number>();
  return {
    start: (owner: string | number, first: number) => next.set(owner, first),
    take(owner: string | number): number {
      const n = next.get(owner)!;
      next.set(owner, n + 1);
      return n;
    },
  };
}

interface Ids {
  run: string;
  provider: string;
  clearing: string;
  userId: (u: number) => number;
  account: (u: number) => string;
  walletId: (u: number) => number;
  entrySeq: ReturnType<typeof numbering>;
  lineSeq: ReturnType<typeof numbering>;
  lineId: () => number;
  topUpId: () => number;
}

/** The users' ids: above every seeded user already in the database. */
async function firstFreeUserId(db: Db): Promise<number> {
  const seeded = await db
    .collection('accounts')
    .find({ kind: 'user', userId: { $gte: FIRST_USER_ID } })
    .project<{ userId: number }>({ userId: 1 })
    .toArray();
  return Math.max(FIRST_USER_ID - 1, ...seeded.map((a) => a.userId)) + 1;
}

/** Reserves wallet ids, history ids and every account's feed numbers (atomic counter steps). */
async function reserveIds(
  seqs: Sequences,
  p: ReturnType<typeof plan>,
  run: string,
  provider: string,
  firstUserId: number,
): Promise<Ids> {
  const clearing = `provider:${provider}`;
  const userId = (u: number) => firstUserId + u;
  const account = (u: number) => `user:${userId(u)}`;
  const walletBase = await reserve(seqs, 'wallets', p.balances.length);
  let lineId = p.historyLines ? await reserve(seqs, 'transactions', p.historyLines) : 0;
  let topUpId = p.topups ? await reserve(seqs, 'topups', p.topups) : 0;
  const entrySeq = numbering();
  const lineSeq = numbering();
  if (p.topups)
    entrySeq.start(clearing, await reserve(seqs, feedCounterId('entries', 'account', clearing), p.topups));
  for (let u = 0; u < p.balances.length; u++) {
    if (p.entries[u])
      entrySeq.start(
        account(u),
        await reserve(seqs, feedCounterId('entries', 'account', account(u)), p.entries[u]!),
      );
    if (p.lines[u])
      lineSeq.start(
        userId(u),
        await reserve(seqs, feedCounterId('transactions', 'user', userId(u)), p.lines[u]!),
      );
  }
  return {
    run,
    provider,
    clearing,
    userId,
    account,
    walletId: (u) => walletBase + u,
    entrySeq,
    lineSeq,
    lineId: () => lineId++,
    topUpId: () => topUpId++,
  };
}

/** One movement's documents, shaped as the wallet service writes them (store/*.ts). */
function documentsOf(m: Move, at: Date, ids: Ids) {
  const id = `seed-${ids.run}-${m.i}`;
  const topup = m.kind === 'topup';
  const to = ids.account(m.to);
  const from = topup ? ids.clearing : ids.account(m.from);
  const topUpId = topup ? ids.topUpId() : 0;
  const orderId = `order_seed_${ids.run}_${m.i}`;
  const paymentId = `pay_seed_${ids.run}_${m.i}`;
  const key = topup ? topupKey(ids.provider, paymentId) : `p2p:${ids.userId(m.from)}:${id}`;
  const lines: Document[] = [];
  // A history line as the transfer records it; the user's history adds its number and feed.
  const line = (u: number, suffix: string, fields: Document) => {
    const base = {
      _id: `${key}:${suffix}`,
      userId: ids.userId(u),
      amount: m.amount,
      counterparty: '',
      transferId: id,
      transferReference: key,
      providerOrderId: topup ? orderId : '',
      providerPaymentId: topup ? paymentId : '',
      senderWalletId: topup ? null : ids.walletId(m.from),
      receiverWalletId: ids.walletId(m.to),
      ...fields,
    };
    lines.push({
      ...base,
      id: ids.lineId(),
      status: 'completed',
      createdAt: at,
      updatedAt: at,
      ...feedFields('user', ids.userId(u), ids.lineSeq.take(ids.userId(u))),
    });
    return base;
  };
  const history = topup
    ? [
        line(m.to, 'credit', {
          _id: `topup:${topUpId}`,
          type: 'credit',
          description: `Added money via ${ids.provider === 'stripe' ? 'Card' : 'Sandbox'}`,
        }),
      ]
    : [
        line(m.from, 'out', {
          type: 'transfer',
          description: `Transfer to seed user ${ids.userId(m.to)}`,
          counterparty: `seed${ids.userId(m.to)}`,
        }),
        line(m.to, 'in', {
          type: 'credit',
          description: `Received from seed user ${ids.userId(m.from)}`,
          counterparty: `seed${ids.userId(m.from)}`,
        }),
      ];
  const entry = (account: string, side: 'debit' | 'credit', amount: number) => ({
    _id: `${id}:${side}`,
    transferId: id,
    account,
    amount,
    createdAt: at,
    ...feedFields('account', account, ids.entrySeq.take(account)),
  });
  return {
    transfer: {
      _id: id,
      key,
      kind: m.kind,
      debitAccount: from,
      creditAccount: to,
      amount: m.amount,
      twoPhase: false,
      timeoutAt: null,
      state: 'posted',
      settled: true,
      // Bulk-written, so no account ever carried its markers: filed in no settling window.
      settledAt: at,
      history,
      description: topup ? 'Top-up' : `Transfer ${id}`,
      createdAt: at,
      updatedAt: at,
    },
    entries: [entry(from, 'debit', -m.amount), entry(to, 'credit', m.amount)],
    lines,
    topup: topup
      ? {
          // As the wallet's top-up flow leaves a completed one (services/wallet store/topups.ts).
          _id: topUpId,
          [TOPUPS.userId]: ids.userId(m.to),
          username: '',
          [TOPUPS.amount]: m.amount,
          currency: 'INR',
          [TOPUPS.provider]: ids.provider,
          providerOrderId: orderId,
          [TOPUPS.paymentId]: paymentId,
          [TOPUPS.status]: TOPUPS.completed,
          lineId: `topup:${topUpId}`,
          transferId: id,
          creditingUntil: null,
          createdAt: at,
          updatedAt: at,
          paidAt: at,
          completedAt: at,
        }
      : undefined,
  };
}

/** Inserts into several collections in batches, a few batches in flight at once. */
function batcher(db: Db, batchSize: number, inFlight = 3) {
  const pending = new Map<string, Document[]>();
  const running = new Set<Promise<void>>();
  let failure: unknown;
  const start = (collection: string) => {
    const docs = pending.get(collection) ?? [];
    if (!docs.length) return;
    pending.set(collection, []);
    const p: Promise<void> = db
      .collection(collection)
      .insertMany(docs, { ordered: false })
      .then(
        () => undefined,
        (err: unknown) => void (failure ??= err),
      )
      .finally(() => running.delete(p));
    running.add(p);
  };
  return {
    async add(collection: string, ...docs: Document[]) {
      const list = pending.get(collection) ?? [];
      list.push(...docs);
      pending.set(collection, list);
      if (list.length < batchSize) return;
      start(collection);
      while (running.size >= inFlight) await Promise.race(running);
      if (failure) throw failure;
    },
    async flush() {
      for (const collection of pending.keys()) start(collection);
      await Promise.all(running);
      if (failure) throw failure;
    },
  };
}

/** The accounts last: their balances are the sums of the entries written before them. */
async function writeAccounts(db: Db, p: ReturnType<typeof plan>, ids: Ids, since: Date, batchSize: number) {
  const now = new Date();
  const docs = p.balances.map((balance, u) => ({
    _id: ids.account(u),
    kind: 'user',
    userId: ids.userId(u),
    walletId: ids.walletId(u),
    balance,
    held: 0,
    available: balance,
    applied: [],
    holds: [],
    currency: 'INR',
    isActive: true,
    lastTransactionAt: now,
    createdAt: since,
    updatedAt: now,
  }));
  for (let i = 0; i < docs.length; i += batchSize)
    await db.collection('accounts').insertMany(docs.slice(i, i + batchSize) as never[], { ordered: false });
  // The clearing account may exist and be in use: one $inc, as the service's own debit of it.
  await db.collection('accounts').updateOne(
    { _id: ids.clearing as never },
    {
      $inc: { balance: -p.topupTotal, available: -p.topupTotal },
      $set: { updatedAt: now },
      $setOnInsert: {
        kind: 'clearing',
        held: 0,
        applied: [],
        holds: [],
        currency: 'INR',
        isActive: true,
        lastTransactionAt: now,
        createdAt: now,
      },
    },
    { upsert: true },
  );
}

/**
 * Seeds into `conn`'s database, whose wallet models are registered and indexed (the CLI and the
 * tests do that with the service's own stores and `ensureIndexes`).
 */
export async function seedLedger(conn: Connection, opts: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  const db = conn.db!;
  const log = opts.log ?? (() => undefined);
  const transfers = Math.ceil(opts.entries / 2);
  const seed = opts.seed ?? 1;
  const batchSize = opts.batch ?? 2000;
  const p = plan(transfers, opts.users, seed);
  const firstUserId = await firstFreeUserId(db);
  const run = `${Date.now().toString(36)}${seed}`;
  const ids = await reserveIds(sequencesOf(conn), p, run, opts.provider ?? 'sandbox', firstUserId);
  log(
    `seed-ledger: ${transfers} transfers (${p.topups} top-ups) between ${opts.users} users and ${ids.clearing}`,
  );

  // Pass 2: the same movements as documents, spread over the last 30 days, oldest first.
  const since = new Date(Date.now() - 30 * DAY);
  const step = (29 * DAY) / Math.max(transfers, 1);
  const out = batcher(db, batchSize);
  for (const m of moves(transfers, opts.users, seed)) {
    const d = documentsOf(m, new Date(since.getTime() + m.i * step), ids);
    await out.add('transfers', d.transfer);
    await out.add('entries', ...d.entries);
    await out.add('transactions', ...d.lines);
    if (d.topup) await out.add(TOPUPS.collection, d.topup);
    if ((m.i + 1) % 50_000 === 0)
      log(`seed-ledger: ${(m.i + 1) * 2} entries (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await out.flush();
  await writeAccounts(db, p, ids, since, batchSize);
  return {
    transfers,
    entries: transfers * 2,
    topups: p.topups,
    historyLines: p.historyLines,
    firstUserId,
    ms: Date.now() - started,
  };
}
