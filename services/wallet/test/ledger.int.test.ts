import { randomInt } from 'node:crypto';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import {
  connectBus,
  connectMongo,
  createLogger,
  createOutbox,
  type EventBus,
  GrpcStatus,
  makeEvent,
  type OutgoingEvent,
} from '@qm/platform';
import { INFRA, streamMessages, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { createEscrows, releaseKey } from '../src/app/escrows';
import { createHolds } from '../src/app/holds';
import { createWalletNumbers } from '../src/app/wallet-numbers';
import {
  createLedger,
  type Driven,
  type Ledger,
  type LedgerDeps,
  OtherTransferUnderKey,
  type TransferRequest,
} from '../src/app/ledger';
import { createSaleRefunds, refundKey, SELLER_SHORT } from '../src/app/sale-refunds';
import { createSweeper } from '../src/app/sweeper';
import { failedTransfer } from '../src/app/wallets';
import {
  type AccountId,
  escrowAccount,
  isEscrowAccount,
  providerAccount,
  userAccount,
} from '../src/domain/ledger';
import {
  type AccountStore,
  createAccountStore,
  RELEASE_WINDOW_MS,
  releaseWindowOf,
} from '../src/store/accounts';
import { createEntryStore } from '../src/store/entries';
import { createHistoryStore, type HistoryStore } from '../src/store/history';
import { createMarkerWindows, type MarkerWindows } from '../src/store/marker-windows';
import {
  createTransferStore,
  SETTLED_WINDOW_MS,
  settledWindowOf,
  type TransferStore,
} from '../src/store/transfers';

const log = createLogger('ledger-test', 'silent');
let conn: Connection;
let accounts: AccountStore;
let transfers: TransferStore;
let windows: MarkerWindows;
let history: HistoryStore;
let ledger: Ledger;
const base = 1_000_000 + randomInt(0, 1_000_000);
let nextUser = 0;

beforeAll(async () => {
  conn = await connectMongo(INFRA.MONGO_URL, uniqueName('qm_test_wallet_ledger'));
  // These tests clear markers the moment a transfer settles (markerRetentionMs: 0), and go on at once
  // with the same clearing account: no allowance for clocks apart, which are one clock here.
  accounts = createAccountStore(conn, { clockSkewMs: 0 });
  transfers = createTransferStore(conn);
  windows = createMarkerWindows(conn);
  history = createHistoryStore(conn);
  const entries = createEntryStore(conn);
  for (const s of [accounts, transfers, entries, history]) await s.model.createIndexes();
  ledger = createLedger({ accounts, transfers, entries, history, log });
});

afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

let aloneWindow = 0;
/**
 * Files a settled transfer alone in a settling window after every window swept so far, and answers
 * when a sweep asks for it. The sweeps here run ahead of the clock: a window they recorded as cleared
 * may be the one the next test's transfers settle in, and a cleared window is not asked for again.
 */
async function fileAlone(t: { _id: string }): Promise<Date> {
  aloneWindow = Math.max(aloneWindow, (await windows.through()) ?? 0, settledWindowOf(new Date()) + 10) + 1;
  await transfers.model.updateOne({ _id: t._id }, { $set: { settledWindow: aloneWindow } }).exec();
  return new Date((aloneWindow + 1) * SETTLED_WINDOW_MS + 1);
}

/** A sweeper that clears markers as soon as their window ends (no retention), with `over` changed. */
const clearingSweeper = (over: Partial<Parameters<typeof createSweeper>[0]> = {}) =>
  createSweeper({
    accounts,
    transfers,
    windows,
    ledger,
    log,
    graceMs: 60_000,
    markerRetentionMs: 0,
    ...over,
  });

async function newUser(): Promise<{ id: number; account: AccountId }> {
  const id = base + ++nextUser;
  await accounts.ensure(userAccount(id), id, `u${id}`);
  return { id, account: userAccount(id) };
}

const move = (
  key: string,
  debit: AccountId,
  credit: AccountId,
  amount: number,
  lines = true,
): TransferRequest => {
  const line = (suffix: string, userId: number, type: 'credit' | 'debit' | 'transfer') => ({
    _id: `${key}:${suffix}`,
    userId,
    amount,
    type,
    description: key,
    counterparty: '',
    transferId: '',
    transferReference: key,
    providerOrderId: '',
    providerPaymentId: '',
    senderWalletId: null,
    receiverWalletId: null,
  });
  const ids = [debit, credit].map((a) => Number(a.split(':')[1]));
  return {
    key,
    kind: debit.startsWith('provider:') ? 'topup' : 'p2p',
    debit,
    credit,
    amount,
    description: key,
    history: lines
      ? [
          ...(Number.isNaN(ids[0]) ? [] : [line('out', ids[0]!, 'transfer')]),
          ...(Number.isNaN(ids[1]) ? [] : [line('in', ids[1]!, 'credit')]),
        ]
      : [],
  };
};

const topUp = (to: AccountId, amount: number) =>
  ledger.transfer(move(`topup:test:${uniqueName('pay')}`, providerAccount('test'), to, amount));

/** Another driver of the same ledger (its own entry store), with a fault, an outbox or account steps of its own. */
const ledgerWith = (extra: Partial<Pick<LedgerDeps, 'fault' | 'outbox' | 'accounts'>>): Ledger =>
  createLedger({ accounts, transfers, entries: createEntryStore(conn), history, log, ...extra });
const dies = () => {
  throw new Error('process died');
};

/** A transfer recorded as its request records it, and nothing more: its process stopped there. */
async function recorded(req: TransferRequest, at = new Date()) {
  const { transfer } = await transfers.insert(
    {
      _id: `${req.key}-id`,
      key: req.key,
      kind: req.kind,
      debitAccount: req.debit,
      creditAccount: req.credit,
      amount: req.amount,
      twoPhase: false,
      timeoutAt: null,
      history: req.history,
      description: req.key,
    },
    at,
  );
  return transfer;
}

/** The accounts as stored, their markers included. */
async function balances(ids: AccountId[]) {
  return Promise.all(
    ids.map(async (id) => ({ ...(await accounts.get(id))!, ...(await accounts.markers(id))! })),
  );
}

/** Sum of every account's balance, and every account's balance against its entries. */
async function audit() {
  const all = await accounts.model.find({}).lean().exec();
  const entries = await conn.collection('entries').find({}).toArray();
  const byAccount = new Map<string, number>();
  for (const e of entries)
    byAccount.set(e.account as string, (byAccount.get(e.account as string) ?? 0) + (e.amount as number));
  return {
    total: all.reduce((s, a) => s + a.balance, 0),
    entriesTotal: entries.reduce((s, e) => s + (e.amount as number), 0),
    mismatched: all.filter((a) => (byAccount.get(a._id) ?? 0) !== a.balance).map((a) => a._id),
    negative: all
      .filter((a) => a.kind !== 'clearing' && (a.balance < 0 || a.available < 0))
      .map((a) => a._id),
    unsettled: await transfers.model.countDocuments({ settled: false, state: { $ne: 'pending' } }),
  };
}

/** The commands sent for the accounts `ids` while `run` ran, by the store's model method `method`. */
async function accountCalls(
  ids: AccountId[],
  method: 'findOne' | 'updateOne' | 'findOneAndUpdate',
  run: () => Promise<unknown>,
) {
  const spy = jest.spyOn(accounts.model, method);
  try {
    await run();
    return spy.mock.calls.filter(([filter]) => ids.some((id) => id === (filter as { _id?: string })._id))
      .length;
  } finally {
    spy.mockRestore();
  }
}

describe('markers left out of reads', () => {
  it('answers an account, and the payer as its debit left it, without the markers it carries', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 100_00);
    const t = await ledger.transfer(move(`p2p:${a.id}:unmarked`, a.account, b.account, 1_00));
    // A hot account carries hundreds; every read through the local engine would pay for each.
    expect((await accounts.markers(a.account))!.applied).toContain(`${t._id}:debit`);
    const stored = await transfers.byId(t._id);
    for (const read of [
      t.payerAfter!,
      stored!.payerAfter!,
      await accounts.get(a.account),
      await accounts.ensure(b.account),
    ]) {
      expect(read).not.toHaveProperty('applied');
      expect(read).not.toHaveProperty('holds');
    }
  });
});

describe('single-phase transfers', () => {
  it('moves exact paise once per key, and both users get a completed line', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 100_00);
    const req = move(`p2p:${a.id}:k1`, a.account, b.account, 12_34);
    const first = await ledger.transfer(req);
    const again = await ledger.transfer(req);
    expect(first.state).toBe('posted');
    expect(again._id).toBe(first._id);
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([100_00 - 12_34, 12_34]);
    expect((await history.byKey(`${req.key}:out`))!.status).toBe('completed');
    expect((await history.byKey(`${req.key}:in`))!.status).toBe('completed');
    // The markers outlive settling (a late driver finds its step applied) and go with the sweep.
    expect(ra!.applied).toContain(`${first._id}:debit`);
    await clearingSweeper().sweep(await fileAlone(first));
    expect((await accounts.markers(a.account))!.applied).not.toContain(`${first._id}:debit`);
    expect((await accounts.markers(b.account))!.applied).not.toContain(`${first._id}:credit`);
  });

  it('a sweeper catches up once, then asks only for the windows that came due, and writes no transfer', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const asked = { everyMarked: 0, windows: [] as number[] };
    const counted: TransferStore = {
      ...transfers,
      settledWithMarkers: (before, limit) => (
        asked.everyMarked++,
        transfers.settledWithMarkers(before, limit)
      ),
      settledInWindow: (window) => (asked.windows.push(window), transfers.settledInWindow(window)),
    };
    const sweeper = clearingSweeper({ transfers: counted, batch: 100_000 });
    await sweeper.sweep(new Date());
    expect(asked.everyMarked).toBe(1);

    const t = await ledger.transfer(move(`p2p:${a.id}:windows`, a.account, b.account, 1_00));
    const settled = t.settledWindow!;
    // The window is this process's reckoning of the moment the database stamped (settledAt).
    expect(t.state).toBe('posted');
    expect([settled, settled + 1]).toContain(settledWindowOf(t.settledAt!));
    const due = await fileAlone(t);
    const window = settledWindowOf(due) - 1;
    // Not yet: its window has not ended.
    await sweeper.sweep(new Date(due.getTime() - 2));
    expect((await accounts.markers(b.account))!.applied).toContain(`${t._id}:credit`);
    // The window is recorded as cleared, not its transfers: a marking of each one cost the engine
    // about as much again as the transfer's own answer had (docs/adr/006, 2026-12-07).
    const written = (['updateOne', 'updateMany', 'bulkWrite', 'findOneAndUpdate'] as const).map((m) =>
      jest.spyOn(transfers.model, m),
    );
    try {
      await sweeper.sweep(due);
      for (const write of written) expect(write).not.toHaveBeenCalled();
    } finally {
      for (const write of written) write.mockRestore();
    }
    expect((await accounts.markers(a.account))!.applied).not.toContain(`${t._id}:debit`);
    expect((await accounts.markers(b.account))!.applied).not.toContain(`${t._id}:credit`);
    expect((await windows.recorded(new Date())).get(window)).toBe('done');
    expect(await transfers.byId(t._id)).not.toHaveProperty('markersCleared');
    expect(asked.everyMarked).toBe(1);
    expect(asked.windows).toContain(window);
    expect(new Set(asked.windows).size).toBe(asked.windows.length);
  });

  it("two replicas' sweepers clear a window once between them", async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const t = await ledger.transfer(move(`p2p:${a.id}:one-window`, a.account, b.account, 1_00));
    const due = await fileAlone(t);
    const clearing = jest.spyOn(accounts, 'clearMarkers');
    try {
      const replica = () => clearingSweeper({ windows: createMarkerWindows(conn) });
      const [one, two] = [replica(), replica()];
      // Each first catches up (the window is not yet due), then both ask for the window at once.
      await Promise.all([one.sweep(new Date(due.getTime() - 2)), two.sweep(new Date(due.getTime() - 2))]);
      await Promise.all([one.sweep(due), two.sweep(due)]);
      await replica().sweep(due);
      const cleared = clearing.mock.calls.filter(([, ids]) => ids.includes(t._id));
      expect(cleared.map(([account]) => account).sort()).toEqual([a.account, b.account].sort());
    } finally {
      clearing.mockRestore();
    }
    expect((await accounts.markers(b.account))!.applied).not.toContain(`${t._id}:credit`);
  });

  it('the catch-up clears a window a dead process claimed and one no process asked for, and waits for a live claim', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const byWindow = new Map<number, string>();
    let later = 0;
    for (const n of [1, 2, 3]) {
      const t = await ledger.transfer(move(`p2p:${a.id}:left-${n}`, a.account, b.account, 1_00));
      later = (await fileAlone(t)).getTime();
      byWindow.set(settledWindowOf(new Date(later)) - 1, t._id);
    }
    const [claimedByTheDead, neverAsked, claimedNow] = [...byWindow.keys()];
    const at = (ms: number) => new Date(later + ms);
    expect(await windows.claim(claimedByTheDead!, at(-2 * 60_000))).toBe('mine');
    expect(await windows.claim(claimedNow!, at(0))).toBe('mine');
    const marked = async (window: number) =>
      (await accounts.markers(b.account))!.applied.includes(`${byWindow.get(window)}:credit`);

    // A process starting now catches up first.
    const starting = () => clearingSweeper();
    await starting().sweep(at(0));
    expect(await marked(claimedByTheDead!)).toBe(false);
    expect(await marked(neverAsked!)).toBe(false);
    expect(await marked(claimedNow!)).toBe(true);
    expect(await windows.through()).toBe(claimedNow! - 1);
    expect([...(await windows.recorded(at(0))).keys()]).toEqual([claimedNow]);

    // An hour on, that claim is stale too: its process died.
    await starting().sweep(at(60 * 60_000));
    expect(await marked(claimedNow!)).toBe(false);
    expect(await windows.through()).toBeGreaterThan(claimedNow!);
  });

  it('a settling write that took long files its transfer again, in the window of its answer', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const realNow = Date.now.bind(Date);
    let slowBy = 0;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + slowBy);
    // The state moves go to the model's driver collection (ADR 051).
    const { collection } = transfers.model;
    const findOneAndUpdate = collection.findOneAndUpdate.bind(collection) as (...a: unknown[]) => unknown;
    const settling = jest.spyOn(collection, 'findOneAndUpdate').mockImplementation(((
      filter: unknown,
      update: { $set?: { settled?: boolean } },
      options: unknown,
    ) => {
      // The settling write answers 20 s after it was sent: the sweeper may have asked for its window since.
      if (update.$set?.settled) slowBy = 20_000;
      return findOneAndUpdate(filter, update, options);
    }) as never);
    let t;
    try {
      t = await ledger.transfer(move(`p2p:${a.id}:late-settling`, a.account, b.account, 1_00));
    } finally {
      settling.mockRestore();
      clock.mockRestore();
    }
    const sent = settledWindowOf(t.settledAt!);
    const stored = (await transfers.byId(t._id))!;
    expect(stored.settledWindow).toBeGreaterThanOrEqual(sent + 1);
    expect(t.settledWindow).toBe(stored.settledWindow);
    // A quick one stays where it was filed.
    const quick = await ledger.transfer(move(`p2p:${a.id}:quick-settling`, a.account, b.account, 1_00));
    expect([sent, sent + 1]).toContain((await transfers.byId(quick._id))!.settledWindow);
  });

  it('the catch-up clears and marks the transfers marked one by one before windows were recorded', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const before = [];
    for (const n of [1, 2, 3])
      before.push(await ledger.transfer(move(`p2p:${a.id}:marked-before-${n}`, a.account, b.account, 1_00)));
    const ids = before.map((t) => t._id);
    // As a build before 2026-12-07 wrote them: marked `false`, and in a window long swept.
    await transfers.model
      .updateMany({ _id: { $in: ids } }, { $set: { markersCleared: false, settledWindow: 0 } })
      .exec();
    const bulk = jest.spyOn(transfers.model, 'bulkWrite');
    try {
      await clearingSweeper().sweep(new Date(Date.now() + 1000));
      // Marked one by one, by their ids: one updateMany held up every transfer's own move meanwhile.
      const filters = bulk.mock.calls.flatMap(([ops]) =>
        (ops as { updateOne: { filter: { _id: unknown } } }[]).map((op) => op.updateOne.filter._id),
      );
      expect(filters.sort()).toEqual([...ids].sort());
    } finally {
      bulk.mockRestore();
    }
    for (const id of ids) {
      expect((await transfers.byId(id))!.markersCleared).toBe(true);
      expect((await accounts.markers(a.account))!.applied).not.toContain(`${id}:debit`);
    }
  });

  it('refuses more than the available balance: failed, nothing moved, lines failed', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 50_00);
    const t = await ledger.transfer(move(`p2p:${a.id}:big`, a.account, b.account, 50_01));
    expect(t.state).toBe('failed');
    expect(t.failureReason).toBe('insufficient');
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([50_00, 0]);
    expect((await history.byKey(`p2p:${a.id}:big:out`))!.status).toBe('failed');
  });

  it('a refused debit is barred before its transfer fails: a retry whose debit landed meanwhile posts it, never a credit beside a failure', async () => {
    const a = await newUser();
    const b = await newUser();
    const req = move(`p2p:${a.id}:refused-raced`, a.account, b.account, 4_00);
    /** A driver that pauses after each of its debits, so the test can order two drivers' steps. */
    const pausing = (after: (outcome: string) => Promise<void>): Ledger =>
      ledgerWith({
        accounts: {
          ...accounts,
          async debit(...args) {
            const debit = await accounts.debit(...args);
            await after(debit.outcome);
            return debit;
          },
        },
      });
    let retryDebited!: () => void;
    const debitedByRetry = new Promise<void>((resolve) => (retryDebited = resolve));
    let firstDone!: () => void;
    const firstFinished = new Promise<void>((resolve) => (firstDone = resolve));
    // The retry debits, then waits until the first driver has gone on.
    const retrying = pausing(async (outcome) => {
      if (outcome !== 'applied') return;
      retryDebited();
      await firstFinished;
    });
    // The first driver finds the wallet short; before it fails the transfer, money arrives and a
    // retry of the same request debits it.
    let retry: Promise<Driven> | undefined;
    const first = pausing(async (outcome) => {
      if (outcome !== 'refused' || retry) return;
      await topUp(a.account, 10_00);
      retry = retrying.transfer(req);
      await debitedByRetry;
    });
    const t = await first.transfer(req);
    firstDone();
    const again = await retry!;
    // Money moved once, and the transfer says so.
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([6_00, 4_00]);
    expect([t.state, again.state]).toEqual(['posted', 'posted']);
    const entries = await conn.collection('entries').find({ transferId: t._id }).toArray();
    expect(entries.map((e) => e.amount as number).sort((x, y) => x - y)).toEqual([-4_00, 4_00]);
  });

  it('a closed wallet (its user deleted) sends nothing, even when it closes after the use case read it', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 30_00);
    expect(await accounts.close(a.account, new Date())).toBe(true);
    expect(await accounts.close(a.account, new Date())).toBe(false);
    // The debit's own condition refuses it: failed as inactive (403 to the user), nothing moved.
    const t = await ledger.transfer(move(`p2p:${a.id}:closed`, a.account, b.account, 10_00));
    expect(t).toMatchObject({ state: 'failed', failureReason: 'inactive' });
    expect(failedTransfer(t)).toMatchObject({
      code: GrpcStatus.PERMISSION_DENIED,
      message: WALLET_MESSAGES.accountClosed,
    });
    const hold = await ledger.createPending(
      { ...move(`hold:${a.id}:closed`, a.account, b.account, 10_00), kind: 'purchase' },
      new Date(Date.now() + 60_000),
    );
    expect(hold).toMatchObject({ state: 'failed', failureReason: 'inactive' });
    // Money is never destroyed: the closed wallet keeps its balance and may still be paid.
    expect((await topUp(a.account, 5_00)).state).toBe('posted');
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, ra!.available, ra!.held, rb!.balance]).toEqual([35_00, 35_00, 0, 0]);
  });

  it('changes its record once after writing it: posted and settled, with no step between debit and credit', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const sent: string[] = [];
    conn.set('debug', (collection: string, method: string) => {
      if (collection === 'transfers') sent.push(method);
    });
    try {
      await ledger.transfer(move(`p2p:${a.id}:one-move`, a.account, b.account, 3_00));
    } finally {
      conn.set('debug', false);
    }
    expect(sent).toEqual(['insertMany', 'findOneAndUpdate']);
  });

  it("writes each user's line of a P2P transfer once, already ended: one insert, no update (ADR 027)", async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const inserts = jest.spyOn(history.model.collection, 'insertMany');
    const creates = jest.spyOn(history.model, 'create');
    const updates = jest.spyOn(history.model, 'updateOne');
    try {
      await ledger.transfer(move(`p2p:${a.id}:once`, a.account, b.account, 3_00));
      await ledger.transfer(move(`p2p:${a.id}:short`, a.account, b.account, 8_00));
      expect([inserts.mock.calls.length, creates.mock.calls.length, updates.mock.calls.length]).toEqual([
        2, 0, 0,
      ]);
    } finally {
      for (const spy of [inserts, creates, updates]) spy.mockRestore();
    }
    const lines = await Promise.all(
      ['once:out', 'once:in', 'short:out', 'short:in'].map((k) => history.byKey(`p2p:${a.id}:${k}`)),
    );
    expect(lines.map((l) => l!.status)).toEqual(['completed', 'completed', 'failed', 'failed']);
    expect(new Set(lines.map((l) => l!.id)).size).toBe(4);
  });

  it('answers what its own steps wrote (the payer as its debit left it, the lines as stored); a retry wrote none', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const req = move(`p2p:${a.id}:written`, a.account, b.account, 2_50);
    const first = await ledger.transfer(req);
    expect(first.payerAfter).toEqual(await accounts.get(a.account));
    expect(first.payerAfter).toMatchObject({ balance: 7_50, available: 7_50 });
    const stored = await Promise.all([history.byKey(`${req.key}:out`), history.byKey(`${req.key}:in`)]);
    expect(first.written?.lines).toEqual(stored);
    // A repeat, after the payer's balance moved again, answers the payer as this debit left it.
    const topped = await topUp(a.account, 1_00);
    // A clearing account's debit is grouped with others: its account afterwards is not kept.
    expect(topped.payerAfter).toBeUndefined();
    const again = await ledger.transfer(req);
    expect(again).toMatchObject({ _id: first._id, state: 'posted' });
    expect(again.written).toBeUndefined();
    expect(again.payerAfter).toEqual(first.payerAfter);
    // Refused: no debit, no lines answered (they were written failed, and the caller reads nothing).
    const short = await ledger.transfer(move(`p2p:${a.id}:written-short`, a.account, b.account, 9_00));
    expect(short.state).toBe('failed');
    expect(short.payerAfter).toBeUndefined();
  });

  it('refuses a key recorded for another movement, naming the terms that differ', async () => {
    const a = await newUser();
    const b = await newUser();
    const c = await newUser();
    await topUp(a.account, 10_00);
    const req = move(`p2p:${a.id}:terms`, a.account, b.account, 2_00);
    await ledger.transfer(req);
    const refusal = (other: typeof req) =>
      ledger.transfer(other).then(
        () => null,
        (err: unknown) => (err instanceof OtherTransferUnderKey ? err.differing : err),
      );
    expect(await refusal({ ...req, amount: 3_00 })).toEqual(['amount']);
    expect(await refusal({ ...req, credit: c.account, amount: 3_00 })).toEqual(['amount', 'credit']);
    expect((await accounts.get(a.account))!.balance).toBe(8_00);
  });

  it('ends a P2P line that an earlier build left pending, keeping its number', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const req = move(`p2p:${a.id}:upgrade`, a.account, b.account, 1_00);
    const opened = await history.open({ ...req.history[0]!, transferId: 'earlier' }, new Date());
    expect(opened.status).toBe('pending');
    expect((await ledger.transfer(req)).state).toBe('posted');
    const [out, into] = await Promise.all([history.byKey(`${req.key}:out`), history.byKey(`${req.key}:in`)]);
    expect(out).toMatchObject({ status: 'completed', id: opened.id });
    expect(into!.status).toBe('completed');
  });

  it('refuses the same key for a different movement', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    await ledger.transfer(move(`p2p:${a.id}:same`, a.account, b.account, 1_00));
    await expect(ledger.transfer(move(`p2p:${a.id}:same`, a.account, b.account, 2_00))).rejects.toThrow(
      /already used for a different transfer/,
    );
  });

  it('200 concurrent transfers in a ring of 10 wallets, 10 % retried keys: conserved, never negative, once per key', async () => {
    const ring = await Promise.all(Array.from({ length: 10 }, () => newUser()));
    for (const u of ring) await topUp(u.account, 1_000_00);
    const before = await audit();
    const requests = Array.from({ length: 200 }, (_, i) => {
      const from = ring[i % 10]!;
      const to = ring[(i + 1) % 10]!;
      return move(`p2p:ring:${base}:${i}`, from.account, to.account, randomInt(1, 300_00));
    });
    // 10 % of the requests are sent twice at once, as a client retrying on a timeout would.
    const retried = requests.filter((_, i) => i % 10 === 0);
    const results = await Promise.all([...requests, ...retried].map((r) => ledger.transfer(r)));
    const byKey = new Map<string, Set<string>>();
    for (const t of results) byKey.set(t.key, (byKey.get(t.key) ?? new Set()).add(t._id));
    expect([...byKey.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(await transfers.model.countDocuments({ key: { $in: requests.map((r) => r.key) } })).toBe(200);

    const after = await audit();
    expect(after.total).toBe(0);
    expect(after.entriesTotal).toBe(0);
    expect(after.negative).toEqual([]);
    expect(after.mismatched).toEqual([]);
    expect(after.unsettled).toBe(0);
    const ringAfter = await balances(ring.map((u) => u.account));
    expect(ringAfter.reduce((s, a) => s + a.balance, 0)).toBe(10 * 1_000_00);
    expect(before.total).toBe(0);
    // Every posted transfer moved its amount exactly once.
    const posted = results.filter(
      (t, i, all) => t.state === 'posted' && all.findIndex((x) => x._id === t._id) === i,
    );
    const entries = await conn
      .collection('entries')
      .countDocuments({ transferId: { $in: posted.map((t) => t._id) } });
    expect(entries).toBe(posted.length * 2);
    // Each of the 200 has its two lines once, ended as its transfer ended, retried or not.
    const lines = await history.model
      .find({ transferReference: { $in: requests.map((r) => r.key) } })
      .lean()
      .exec();
    const stateOf = new Map(results.map((t) => [t.key, t.state]));
    expect(lines).toHaveLength(400);
    expect(
      lines.filter(
        (l) => l.status !== (stateOf.get(l.transferReference) === 'posted' ? 'completed' : 'failed'),
      ),
    ).toEqual([]);
  }, 120_000);
});

describe('two-phase transfers', () => {
  const pending = (key: string, from: AccountId, to: AccountId, amount: number, timeoutAt: Date) =>
    ledger.createPending({ ...move(key, from, to, amount), kind: 'purchase' }, timeoutAt);
  const later = () => new Date(Date.now() + 60_000);

  it('a hold lowers the available balance only; posting moves it once; a second resolution is refused', async () => {
    const buyer = await newUser();
    const seller = await newUser();
    await topUp(buyer.account, 100_00);
    const key = `hold:order-${base}-1`;
    const held = await pending(key, buyer.account, seller.account, 40_00, later());
    expect(held.state).toBe('pending');
    let [b] = await balances([buyer.account]);
    expect([b!.balance, b!.held, b!.available]).toEqual([100_00, 40_00, 60_00]);
    expect((await history.byKey(`${key}:out`))!.status).toBe('pending');

    const posted = await ledger.post(key);
    expect(posted.state).toBe('posted');
    expect((await ledger.post(key)).state).toBe('posted');
    await expect(ledger.void(key)).rejects.toThrow(/already posted/);
    const [b2, s] = await balances([buyer.account, seller.account]);
    expect([b2!.balance, b2!.held, b2!.available, s!.balance]).toEqual([60_00, 0, 60_00, 40_00]);
    expect((await history.byKey(`${key}:in`))!.status).toBe('completed');
    b = b2;
  });

  it('a void gives the hold back once; posting after a void is refused', async () => {
    const buyer = await newUser();
    const seller = await newUser();
    await topUp(buyer.account, 10_00);
    const key = `hold:order-${base}-2`;
    await pending(key, buyer.account, seller.account, 10_00, later());
    expect((await ledger.void(key)).state).toBe('voided');
    expect((await ledger.void(key)).state).toBe('voided');
    await expect(ledger.post(key)).rejects.toThrow(/already voided/);
    const [b, s] = await balances([buyer.account, seller.account]);
    expect([b!.balance, b!.held, b!.available, s!.balance]).toEqual([10_00, 0, 10_00, 0]);
    expect((await history.byKey(`${key}:out`))!.status).toBe('failed');
  });

  it('a hold larger than the available balance fails, and holds count against later spending', async () => {
    const buyer = await newUser();
    const other = await newUser();
    await topUp(buyer.account, 10_00);
    await pending(`hold:order-${base}-3`, buyer.account, other.account, 8_00, later());
    const second = await pending(`hold:order-${base}-4`, buyer.account, other.account, 3_00, later());
    expect(second.state).toBe('failed');
    const p2p = await ledger.transfer(move(`p2p:${buyer.id}:after-hold`, buyer.account, other.account, 3_00));
    expect(p2p.state).toBe('failed');
  });

  it('concurrent post and void of one hold: exactly one wins', async () => {
    for (let i = 0; i < 10; i++) {
      const buyer = await newUser();
      const seller = await newUser();
      await topUp(buyer.account, 5_00);
      const key = `hold:race-${base}-${i}`;
      await pending(key, buyer.account, seller.account, 5_00, later());
      const outcomes = await Promise.allSettled([ledger.post(key), ledger.void(key)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const [b, s] = await balances([buyer.account, seller.account]);
      expect(b!.balance + s!.balance).toBe(5_00);
      expect(b!.held).toBe(0);
    }
  });

  it('the sweeper expires a hold past its timeout, once; posting it afterwards is refused', async () => {
    const buyer = await newUser();
    const seller = await newUser();
    await topUp(buyer.account, 7_00);
    const key = `hold:order-${base}-exp`;
    await pending(key, buyer.account, seller.account, 7_00, new Date(Date.now() + 200));
    await new Promise((r) => setTimeout(r, 400));
    const sweeper = createSweeper({ accounts, transfers, windows, ledger, log, graceMs: 60_000 });
    expect((await sweeper.sweep()).expired).toBeGreaterThanOrEqual(1);
    expect((await ledger.byKey(key))!.state).toBe('expired');
    await expect(ledger.post(key)).rejects.toThrow(/already expired/);
    const [b] = await balances([buyer.account]);
    expect([b!.balance, b!.held, b!.available]).toEqual([7_00, 0, 7_00]);
  });

  it('a late copy of a hold already posted or voided holds nothing', async () => {
    const buyer = await newUser();
    const seller = await newUser();
    await topUp(buyer.account, 10_00);
    const posted = await pending(
      `hold:order-${base}-late-post`,
      buyer.account,
      seller.account,
      3_00,
      later(),
    );
    const voided = await pending(
      `hold:order-${base}-late-void`,
      buyer.account,
      seller.account,
      2_00,
      later(),
    );
    await ledger.post(posted.key);
    await ledger.void(voided.key);
    // A slow driver still holding each `initiated` copy places its hold.
    expect(await accounts.hold(buyer.account, posted._id, 3_00, Date.now())).toBe('refused');
    expect(await accounts.hold(buyer.account, voided._id, 2_00, Date.now())).toBe('refused');
    const [b] = await balances([buyer.account]);
    expect([b!.balance, b!.held, b!.available]).toEqual([7_00, 0, 7_00]);
  });
});

describe('crash recovery by the sweeper', () => {
  it('a driver holding a stale copy of a settled transfer applies nothing again', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 10_00);
    const t = await ledger.transfer(move(`p2p:${a.id}:stale`, a.account, b.account, 3_00));
    expect([t.state, t.settled]).toEqual(['posted', true]);
    // A slow duplicate read the transfer while it was still `debited` / `initiated`.
    const seenAt = t.createdAt.getTime();
    await ledger.resume({ ...t, state: 'debited', settled: false, seenAt });
    await ledger.resume({ ...t, state: 'initiated', settled: false, seenAt });
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([7_00, 3_00]);
  });

  describe('a fence instead of a deadline (ADR 006, 2026-12-04)', () => {
    /** A posted transfer whose markers the sweeper cleared, and when a slow driver read it, before it settled. */
    async function clearedTransfer(name: string) {
      const a = await newUser();
      const b = await newUser();
      await topUp(a.account, 10_00);
      const t = await ledger.transfer(move(`p2p:${a.id}:${name}`, a.account, b.account, 3_00));
      const sweeper = clearingSweeper({ batch: 100_000 });
      await sweeper.sweep(await fileAlone(t));
      expect((await accounts.markers(b.account))!.applied).not.toContain(`${t._id}:credit`);
      return { a, b, t, seenAt: t.createdAt.getTime() };
    }

    it('a driver whose copy is older than the clearing of its markers reads the transfer again and moves nothing', async () => {
      const { a, b, t, seenAt } = await clearedTransfer('fenced');
      const credited = await ledger.resume({ ...t, state: 'debited', settled: false, seenAt });
      expect([credited.state, credited.settled]).toEqual(['posted', true]);
      // Each step says why: its marker may be gone, so it cannot tell applied from not.
      expect(await accounts.credit(b.account, t._id, 3_00, new Date(), seenAt)).toBe('stale');
      expect((await accounts.debit(a.account, t._id, 3_00, seenAt)).outcome).toBe('stale');
      expect(await accounts.hold(a.account, t._id, 3_00, seenAt)).toBe('stale');
      const [ra, rb] = await balances([a.account, b.account]);
      expect([ra!.balance, ra!.held, rb!.balance]).toEqual([7_00, 0, 3_00]);
      // A copy read after the clearing passes: the next transfer between them moves at once.
      const next = await ledger.transfer(move(`p2p:${a.id}:after-fence`, a.account, b.account, 1_00));
      expect(next.state).toBe('posted');
    });

    it('a group of credits with one fenced member applies the others, each once', async () => {
      const { account } = await newUser();
      // Markers of transfers settled until now were cleared; one driver read its copy a minute ago.
      await accounts.clearMarkers(account, [], Date.now());
      const id = (i: number) => `fenced-group-${base}-${i}`;
      const credit = (i: number, seen: number) => accounts.credit(account, id(i), 1_00, new Date(), seen);
      // The first goes alone; the other three arrive while it is in flight and go as one group.
      const outcomes = await Promise.all([
        credit(0, Date.now()),
        credit(1, Date.now()),
        credit(2, Date.now() - 60_000),
        credit(3, Date.now()),
      ]);
      expect(outcomes).toEqual(['applied', 'applied', 'stale', 'applied']);
      expect((await accounts.get(account))!.balance).toBe(3 * 1_00);
      // Credits alone, without their transfers' debits and entries: not left for the whole-ledger audit.
      await accounts.model.deleteOne({ _id: account });
    });

    it('clocks further apart than allowed refuse the transfer before any money moves', async () => {
      const { a, b } = await clearedTransfer('skewed');
      // As if this process's clock were an hour behind the database's.
      const skewed = createLedger({
        accounts: createAccountStore(conn, { clockSkewMs: 3_600_000 }),
        transfers,
        entries: createEntryStore(conn),
        history,
        log,
      });
      await expect(
        skewed.transfer(move(`p2p:${a.id}:skewed-next`, a.account, b.account, 1_00)),
      ).rejects.toThrow(/could not complete this transfer now/);
      const [ra, rb] = await balances([a.account, b.account]);
      expect([ra!.balance, rb!.balance]).toEqual([7_00, 3_00]);
    });
  });

  it('finishes a transfer left between debit and credit', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 20_00);
    const crashing = ledgerWith({ fault: dies });
    const key = `p2p:${a.id}:crash`;
    await expect(crashing.transfer(move(key, a.account, b.account, 5_00))).rejects.toThrow('process died');
    let [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([15_00, 0]);

    await createSweeper({ accounts, transfers, windows, ledger, log, graceMs: 0 }).sweep(
      new Date(Date.now() + 1000),
    );
    [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, rb!.balance]).toEqual([15_00, 5_00]);
    const t = (await ledger.byKey(key))!;
    expect([t.state, t.settled]).toEqual(['posted', true]);
    expect((await history.byKey(`${key}:in`))!.status).toBe('completed');
  });

  it("two replicas' sweepers racing over the same crashed transfers finish each exactly once", async () => {
    // The second replica: its own connection and stores on the same database, as a second process.
    const conn2 = await connectMongo(INFRA.MONGO_URL, conn.name);
    try {
      const accounts2 = createAccountStore(conn2);
      const transfers2 = createTransferStore(conn2);
      const ledger2 = createLedger({
        accounts: accounts2,
        transfers: transfers2,
        entries: createEntryStore(conn2),
        history: createHistoryStore(conn2),
        log,
      });
      const users = [];
      for (let i = 0; i < 6; i++) users.push(await newUser());
      for (const u of users) await topUp(u.account, 100_00);
      const crashing = ledgerWith({ fault: dies });
      const expected = new Map(users.map((u) => [u.account, 100_00]));
      const keys: string[] = [];
      for (let i = 0; i < 16; i++) {
        const from = users[i % users.length]!;
        const to = users[(i + 3) % users.length]!;
        const amount = 1_00 + i;
        const key = `p2p:${from.id}:race${i}`;
        keys.push(key);
        await expect(crashing.transfer(move(key, from.account, to.account, amount))).rejects.toThrow(
          'process died',
        );
        expected.set(from.account, expected.get(from.account)! - amount);
        expected.set(to.account, expected.get(to.account)! + amount);
      }

      const later = new Date(Date.now() + 1000);
      const one = createSweeper({ accounts, transfers, windows, ledger, log, graceMs: 0, batch: 5 });
      const two = createSweeper({
        accounts: accounts2,
        transfers: transfers2,
        windows: createMarkerWindows(conn2),
        ledger: ledger2,
        log,
        graceMs: 0,
        batch: 7,
      });
      // Both replicas' timers fire together, more than once, each taking its batches in turn.
      await Promise.all([one.sweep(later), two.sweep(later), one.sweep(later), two.sweep(later)]);
      while ((await transfers.stale(later, 100)).length)
        await Promise.all([one.sweep(later), two.sweep(later)]);

      const after = await balances(users.map((u) => u.account));
      expect(after.map((a) => a.balance)).toEqual(users.map((u) => expected.get(u.account)));
      for (const key of keys) {
        const t = (await ledger.byKey(key))!;
        expect([t.state, t.settled]).toEqual(['posted', true]);
        // One debit and one credit entry per transfer, whichever replica wrote them.
        const entries = await conn.collection('entries').find({ transferId: t._id }).toArray();
        expect(entries.map((e) => e.amount as number).sort((x, y) => x - y)).toEqual([-t.amount, t.amount]);
        expect((await history.byKey(`${key}:in`))!.status).toBe('completed');
      }
    } finally {
      await conn2.close();
    }
  }, 180_000);

  it('abandons a transfer recorded but never debited, barring its debit first: a late debit never lands', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 9_00);
    const key = `p2p:${a.id}:abandoned`;
    // Recorded, then the process died before the debit.
    await recorded(move(key, a.account, b.account, 4_00), new Date(Date.now() - 60_000));
    await createSweeper({ accounts, transfers, windows, ledger, log, graceMs: 0 }).sweep(
      new Date(Date.now() + 1000),
    );
    const t = (await ledger.byKey(key))!;
    expect([t.state, t.failureReason, t.settled]).toEqual(['failed', 'abandoned', true]);
    // A slow first attempt debits after the transfer was abandoned and settled: nothing would give
    // that back, so the abandonment barred it.
    expect((await accounts.debit(a.account, t._id, 4_00, t.seenAt)).outcome).toBe('refused');
    expect(await accounts.hold(a.account, t._id, 4_00, t.seenAt)).toBe('refused');
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, ra!.available, ra!.held, rb!.balance]).toEqual([9_00, 9_00, 0, 0]);
  });

  it('gives back a debit that raced its transfer’s failure once, and a later copy finds that debit applied', async () => {
    const a = await newUser();
    const b = await newUser();
    await topUp(a.account, 9_00);
    const transfer = await recorded(move(`p2p:${a.id}:raced`, a.account, b.account, 4_00, false));
    // One driver's debit lands while another moves the transfer to failed.
    expect((await accounts.debit(a.account, transfer._id, 4_00, transfer.seenAt)).outcome).toBe('applied');
    const { transfer: failed } = await transfers.move(transfer._id, ['initiated'], 'failed', {
      failureReason: 'insufficient',
    });
    await ledger.resume(failed);
    await ledger.resume({ ...failed, settled: false });
    expect((await accounts.get(a.account))!.balance).toBe(9_00);
    // A third driver, still holding the `initiated` copy, finds the debit applied: it is not taken again.
    expect((await accounts.debit(a.account, transfer._id, 4_00, Date.now())).outcome).toBe('already');
    const [ra, rb] = await balances([a.account, b.account]);
    expect([ra!.balance, ra!.available, rb!.balance]).toEqual([9_00, 9_00, 0]);
  });

  it('finishes, never abandons, a top-up credit recorded but not yet debited from the clearing account', async () => {
    const a = await newUser();
    const key = `topup:test:abandoned-${base}`;
    await recorded(move(key, providerAccount('test'), a.account, 6_00), new Date(Date.now() - 60_000));
    await createSweeper({ accounts, transfers, windows, ledger, log, graceMs: 0 }).sweep(
      new Date(Date.now() + 1000),
    );
    expect((await ledger.byKey(key))!.state).toBe('posted');
    expect((await accounts.get(a.account))!.balance).toBe(6_00);
  });

  describe('announcements (the events a posted transfer publishes)', () => {
    let bus: EventBus;
    let stream: string;
    const root = uniqueName('ledger_announce').toLowerCase();

    beforeAll(async () => {
      bus = await connectBus({ servers: INFRA.NATS_URL, name: 'ledger-test', log });
      stream = `QM_${root.toUpperCase()}`;
      await bus.ensureStreams([{ name: stream, subjects: [`${root}.>`], maxAgeDays: 1 }]);
    });
    afterAll(async () => {
      await bus.jsm.streams.delete(bus.stream(stream)).catch(() => undefined);
      await bus.close();
    });

    /** The ids of the events the stream holds (JetStream keeps one per id: the bus sends it as Nats-Msg-Id). */
    const announced = async () => (await streamMessages<{ id: string }>(bus, stream)).map((m) => m.id);
    const event = (what: string): OutgoingEvent => ({
      subject: `${root}.activity`,
      event: makeEvent('test.activity', { what }),
    });
    // The outbox's relay is not started: what reaches the stream is what the ledger published itself.
    const outbox = () => createOutbox({ conn, bus, log, confirm: async () => true });

    it('a transfer left between debit and credit is announced by the sweeper that finishes it, once', async () => {
      const a = await newUser();
      const b = await newUser();
      await topUp(a.account, 10_00);
      const crashing = ledgerWith({ outbox: outbox(), fault: dies });
      const key = `p2p:${a.id}:announce-crash`;
      const sent = event('sent');
      await expect(
        crashing.transfer({ ...move(key, a.account, b.account, 2_00), announce: [sent] }),
      ).rejects.toThrow('process died');
      // Nothing is announced before the money has moved.
      expect(await announced()).toEqual([]);

      const finishing = ledgerWith({ outbox: outbox() });
      await createSweeper({ accounts, transfers, windows, ledger: finishing, log, graceMs: 0 }).sweep(
        new Date(Date.now() + 1000),
      );
      const t = (await finishing.byKey(key))!;
      expect([t.state, t.settled]).toEqual(['posted', true]);
      expect(await announced()).toEqual([sent.event.id]);

      // A driver with a stale copy runs the last step again: the same id, still one event.
      await finishing.resume({ ...t, state: 'debited', settled: false, seenAt: t.createdAt.getTime() });
      expect(await announced()).toEqual([sent.event.id]);
      const [ra, rb] = await balances([a.account, b.account]);
      expect([ra!.balance, rb!.balance]).toEqual([8_00, 2_00]);
    });

    it('a retried transfer announces what its first attempt recorded; a refused one announces nothing', async () => {
      const a = await newUser();
      const b = await newUser();
      await topUp(a.account, 5_00);
      const withOutbox = ledgerWith({ outbox: outbox() });
      const before = await announced();
      const key = `p2p:${a.id}:announce-retry`;
      const first = event('first');
      await withOutbox.transfer({ ...move(key, a.account, b.account, 1_00), announce: [first] });
      await withOutbox.transfer({ ...move(key, a.account, b.account, 1_00), announce: [event('retry')] });
      await withOutbox.transfer({
        ...move(`p2p:${a.id}:announce-refused`, a.account, b.account, 50_00),
        announce: [event('refused')],
      });
      expect((await announced()).slice(before.length)).toEqual([first.event.id]);
    });

    it('a ledger without an outbox refuses a transfer that would announce', async () => {
      const a = await newUser();
      const b = await newUser();
      await expect(
        ledger.transfer({
          ...move(`p2p:${a.id}:no-outbox`, a.account, b.account, 1_00),
          announce: [event('x')],
        }),
      ).rejects.toThrow('outbox');
      expect(await ledger.byKey(`p2p:${a.id}:no-outbox`)).toBeNull();
    });
  });
});

describe("a sale's proceeds in escrow for the refund window (ADR 028)", () => {
  const WINDOW_MS = 60_000;
  const saleLedger = (extra: Pick<LedgerDeps, 'fault'> = {}) =>
    createLedger({ accounts, transfers, entries: createEntryStore(conn), history, log, ...extra });
  const holdsOf = (l: Ledger, numbers = createWalletNumbers()) =>
    createHolds({ accounts, ledger: l, numbers, defaultTimeoutSeconds: 60 });
  /** Sellers as identity knows them: none by default (a release then announces nothing). */
  const escrowsOf = (l: Ledger, sellers: { id: number; username: string }[] = []) =>
    createEscrows({
      accounts,
      ledger: l,
      directory: { byId: async (id) => (sellers.find((u) => u.id === id) as never) ?? null },
      log,
    });

  /**
   * A completed sale of `amount` from a funded buyer to `seller`, by the orders service's calls,
   * its proceeds released `releaseInMs` from now.
   */
  async function sell(
    buyer: { id: number },
    seller: { id: number },
    amount: number,
    releaseInMs = WINDOW_MS,
  ) {
    const reference = uniqueName('order');
    const holds = holdsOf(saleLedger());
    // The orders service names the end of the refund window when it asks for the hold.
    const releaseAt = new Date(Date.now() + releaseInMs).toISOString();
    const req = { reference, debitUserId: buyer.id, creditUserId: seller.id, amountPaise: amount, releaseAt };
    expect((await holds.pay('orders', { ...req, description: 'Field Radio × 1' })).state).toBe('posted');
    return reference;
  }

  /** The orders service's request for a sale of `amount` from `buyer` to `seller`, due in a minute. */
  const saleRequest = (buyer: { id: number }, seller: { id: number }, amount: number) => ({
    reference: uniqueName('order'),
    debitUserId: buyer.id,
    creditUserId: seller.id,
    amountPaise: amount,
    description: 'Field Radio × 1',
    releaseAt: new Date(Date.now() + WINDOW_MS).toISOString(),
  });

  it("credits the sale's escrow, not the seller, until the time the orders service named; the seller's line is written", async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 100_00);
    const before = Date.now();
    const reference = await sell(buyer, seller, 25_00);
    const escrow = await accounts.get(escrowAccount(reference));
    expect(escrow).toMatchObject({
      kind: 'escrow',
      balance: 25_00,
      available: 25_00,
      sellerId: seller.id,
      buyerId: buyer.id,
    });
    expect(escrow!.releaseAt!.getTime()).toBeGreaterThanOrEqual(before + WINDOW_MS);
    expect(escrow!.releaseAt!.getTime()).toBeLessThanOrEqual(Date.now() + WINDOW_MS);
    const [b, s] = await balances([buyer.account, seller.account]);
    expect([b!.balance, s!.balance]).toEqual([75_00, 0]);
    expect(await history.byKey(`hold:${reference}:in`)).toMatchObject({
      userId: seller.id,
      status: 'completed',
    });
    expect(await accounts.heldProceeds(seller.id)).toEqual([
      { _id: escrowAccount(reference), reference, available: 25_00, releaseAt: escrow!.releaseAt },
    ]);
    // Not due before its time.
    expect(await escrowsOf(saleLedger()).releaseDue(new Date(escrow!.releaseAt!.getTime() - 1))).toBe(0);
  });

  it("a sale's payment sends what it must only: the escrow written unread, the transfer written and changed once (ADR 043)", async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 10_00);
    const sent: { collection: string; method: string; on: Record<string, unknown> }[] = [];
    conn.set('debug', (collection: string, method: string, on: Record<string, unknown>) => {
      if (collection === 'accounts' || collection === 'transfers') sent.push({ collection, method, on });
    });
    try {
      await sell(buyer, seller, 4_00);
    } finally {
      conn.set('debug', false);
    }
    // An insert names its documents (insertBuilt, ADR 047), a query its filter.
    const idOf = (on: unknown) => (Array.isArray(on) ? on[0] : (on as { _id?: unknown }))?._id;
    const onEscrow = sent.filter(({ on }) => isEscrowAccount(String(idOf(on))));
    expect(onEscrow[0]?.method).toBe('insertMany');
    expect(onEscrow.filter(({ method }) => method === 'findOne')).toEqual([]);
    const onTransfers = sent.filter(({ collection }) => collection === 'transfers');
    expect(onTransfers.map(({ method }) => method)).toEqual([
      'insertMany',
      'findOneAndUpdate', // posted and settled
    ]);
  });

  describe('paid in one transfer, or cancelled for good (ADR 043)', () => {
    it('a sale cancelled before its payment is recorded failed: a late payment takes nothing', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 50_00);
      const holds = holdsOf(saleLedger());
      const req = saleRequest(buyer, seller, 20_00);
      expect(await holds.cancel('orders', req)).toMatchObject({ state: 'failed', settled: true });
      expect(await holds.cancel('orders', req)).toMatchObject({ state: 'failed' });
      await expect(holds.pay('orders', req)).rejects.toMatchObject({
        message: "This sale's payment was cancelled",
      });
      const [b, e] = await balances([buyer.account, escrowAccount(req.reference)]);
      expect([b!.balance, b!.available, e!.balance]).toEqual([50_00, 50_00, 0]);
      expect(await history.byKey(`hold:${req.reference}:out`)).toMatchObject({ status: 'failed' });
    });

    it('a sale cancelled after its payment is refused as already posted; the money stays in its escrow', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 50_00);
      const holds = holdsOf(saleLedger());
      const req = saleRequest(buyer, seller, 20_00);
      expect((await holds.pay('orders', req)).state).toBe('posted');
      expect((await holds.pay('orders', req)).state).toBe('posted');
      await expect(holds.cancel('orders', req)).rejects.toMatchObject({
        message: "This sale's payment is already posted",
      });
      const [b, e] = await balances([buyer.account, escrowAccount(req.reference)]);
      expect([b!.balance, e!.balance]).toEqual([30_00, 20_00]);
    });

    it('a short wallet is refused and nothing moves; a closed one is refused as closed', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 5_00);
      const holds = holdsOf(saleLedger());
      const req = saleRequest(buyer, seller, 20_00);
      await expect(holds.pay('orders', req)).rejects.toMatchObject({
        message: 'Insufficient wallet balance',
      });
      expect(await holds.cancel('orders', req)).toMatchObject({
        state: 'failed',
        failureReason: 'insufficient',
      });
      await accounts.close(buyer.account, new Date());
      await expect(holds.pay('orders', saleRequest(buyer, seller, 1_00))).rejects.toMatchObject({
        message: WALLET_MESSAGES.accountClosed,
      });
      expect((await accounts.get(buyer.account))!.balance).toBe(5_00);
    });

    it("a buyer's next sale from the same seller reads neither wallet; a user heard to change is read again (ADR 048)", async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 50_00);
      const numbers = createWalletNumbers();
      const holds = holdsOf(saleLedger(), numbers);
      /** The reads of the two users' wallets that `run` makes. */
      const walletReads = (run: () => Promise<unknown>) =>
        accountCalls([buyer.account, seller.account], 'findOne', run);
      expect(await walletReads(() => holds.pay('orders', saleRequest(buyer, seller, 10_00)))).toBe(2);
      const next = saleRequest(buyer, seller, 5_00);
      expect(await walletReads(() => holds.pay('orders', next))).toBe(0);
      // The lines still name both wallets by their numbers.
      const [b, s] = await balances([buyer.account, seller.account]);
      expect(await history.byKey(`hold:${next.reference}:out`)).toMatchObject({
        senderWalletId: b!.walletId,
        receiverWalletId: s!.walletId,
      });
      expect(b!.balance).toBe(35_00);

      // The buyer deleted (their wallet closed, identity's announcement heard): read again, refused.
      await accounts.close(buyer.account, new Date());
      numbers.forget(buyer.id);
      const closed = saleRequest(buyer, seller, 1_00);
      expect(await walletReads(() => holds.pay('orders', closed).catch(() => undefined))).toBe(1);
      // A closed wallet is not remembered: read again, and refused again.
      await expect(holds.pay('orders', closed)).rejects.toMatchObject({
        message: WALLET_MESSAGES.accountClosed,
      });
      expect((await accounts.get(buyer.account))!.balance).toBe(35_00);
    });

    it('a hold an earlier build placed is posted by the payment, or voided by the cancel', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 50_00);
      const holds = holdsOf(saleLedger());
      const [paid, given] = [saleRequest(buyer, seller, 10_00), saleRequest(buyer, seller, 15_00)];
      for (const req of [paid, given]) await holds.create('orders', { ...req, timeoutSeconds: 0 });
      expect(await holds.pay('orders', paid)).toMatchObject({ state: 'posted', twoPhase: true });
      expect(await holds.cancel('orders', given)).toMatchObject({ state: 'voided', twoPhase: true });
      await expect(holds.cancel('orders', paid)).rejects.toMatchObject({ message: /already posted/ });
      const [b, e] = await balances([buyer.account, escrowAccount(paid.reference)]);
      expect([b!.balance, b!.available, b!.held, e!.balance]).toEqual([40_00, 40_00, 0, 10_00]);
    });

    it('a payment and its cancel at once, for 40 sales: each sale is paid whole or not at all, and says so to both', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 1_000_00);
      const requests = Array.from({ length: 40 }, (_, i) => saleRequest(buyer, seller, 1_00 + i));
      const outcomes = await Promise.all(
        requests.map(async (req, i) => {
          // Each from its own driver, as a request and the sweeper's cancel are; started in either order.
          const pay = () => holdsOf(saleLedger()).pay('orders', req);
          const cancel = () => holdsOf(saleLedger()).cancel('orders', req);
          const [paid, cancelled] =
            i % 2
              ? await Promise.allSettled([pay(), cancel()])
              : await Promise.allSettled([cancel(), pay()]).then(([c, p]) => [p, c] as const);
          return { req, paid, cancelled };
        }),
      );
      let moved = 0;
      for (const { req, paid, cancelled } of outcomes) {
        const t = await transfers.byKey(`hold:${req.reference}`);
        const escrow = await accounts.get(escrowAccount(req.reference));
        if (t!.state === 'posted') {
          // Paid: the payment answered it, the cancel was refused as already posted.
          expect([paid.status, cancelled.status]).toEqual(['fulfilled', 'rejected']);
          expect(escrow!.balance).toBe(req.amountPaise);
          moved += req.amountPaise;
        } else {
          expect(t!.state).toBe('failed');
          expect([paid.status, cancelled.status]).toEqual(['rejected', 'fulfilled']);
          expect(escrow!.balance).toBe(0);
        }
      }
      const b = (await accounts.get(buyer.account))!;
      expect([b.balance, b.available]).toEqual([1_000_00 - moved, 1_000_00 - moved]);
    });
  });

  it('a hold naming no release time releases at the next sweep; one past 90 days, or another sale under the reference, is refused', async () => {
    const [buyer, seller, other] = [await newUser(), await newUser(), await newUser()];
    await topUp(buyer.account, 100_00);
    const holds = holdsOf(saleLedger());
    const reference = uniqueName('order');
    const req = {
      reference,
      debitUserId: buyer.id,
      creditUserId: seller.id,
      amountPaise: 10_00,
      timeoutSeconds: 0,
      description: 'x',
    };
    await expect(
      holds.create('orders', { ...req, releaseAt: new Date(Date.now() + 91 * 86_400_000).toISOString() }),
    ).rejects.toMatchObject({ message: 'Proceeds can be held for at most 90 days' });
    await expect(holds.create('orders', { ...req, releaseAt: 'soon' })).rejects.toMatchObject({
      message: 'The release time must be an ISO 8601 date and time',
    });
    await holds.create('orders', { ...req, releaseAt: '' });
    await expect(
      holds.create('orders', { ...req, creditUserId: other.id, releaseAt: '' }),
    ).rejects.toMatchObject({ message: 'This transfer reference was already used for a different transfer' });
    await holds.post('orders', reference);
    expect(await escrowsOf(saleLedger()).releaseDue(new Date())).toBe(1);
    expect((await accounts.get(seller.account))!.balance).toBe(10_00);
  });

  it('four replicas releasing the same 30 due escrows at once pay each sale to its seller exactly once', async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 1_000_00);
    const amounts = Array.from({ length: 30 }, (_, i) => 1_00 + i);
    const references = await Promise.all(amounts.map((a) => sell(buyer, seller, a)));
    const due = new Date(Date.now() + WINDOW_MS + 1_000);
    const counts = await Promise.all(
      Array.from({ length: 4 }, () => escrowsOf(saleLedger()).releaseDue(due, 1_000)),
    );
    const total = amounts.reduce((x, y) => x + y, 0);
    expect((await accounts.get(seller.account))!.balance).toBe(total);
    expect(await accounts.heldProceeds(seller.id)).toEqual([]);
    for (const reference of references) {
      expect(await accounts.get(escrowAccount(reference))).toMatchObject({ balance: 0, available: 0 });
      expect((await transfers.byKey(releaseKey({ reference })))!.state).toBe('posted');
    }
    // A release that found its escrow already emptied by another replica posted nothing of its own.
    expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(30);
    expect(await escrowsOf(saleLedger()).releaseDue(due, 1_000)).toBe(0);
    expect((await audit()).negative).toEqual([]);
  });

  it("a seller's due sales are released side by side: their credits go in far fewer updates than sales", async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 1_000_00);
    const amounts = Array.from({ length: 32 }, (_, i) => 1_00 + i);
    for (const a of amounts) await sell(buyer, seller, a);
    const due = new Date(Date.now() + WINDOW_MS + 1_000);
    let released = 0;
    const credits = await accountCalls([seller.account], 'updateOne', async () => {
      released = await escrowsOf(saleLedger()).releaseDue(due, 1_000);
    });
    expect(released).toBeGreaterThanOrEqual(32);
    expect((await accounts.get(seller.account))!.balance).toBe(amounts.reduce((x, y) => x + y, 0));
    // One by one, each release credited the seller alone: 32 updates.
    expect(credits).toBeLessThanOrEqual(8);
    expect((await audit()).negative).toEqual([]);
  });

  it("a release stopped between the escrow's debit and the credit is finished by the sweeper, once", async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 100_00);
    const reference = await sell(buyer, seller, 40_00);
    const due = new Date(Date.now() + WINDOW_MS + 1_000);
    // The dying driver's error is logged and the release left for the sweeper.
    expect(await escrowsOf(saleLedger({ fault: dies })).releaseDue(due)).toBe(0);
    expect(await accounts.get(escrowAccount(reference))).toMatchObject({ balance: 0 });
    expect((await accounts.get(seller.account))!.balance).toBe(0);
    const sweeper = createSweeper({
      accounts,
      transfers,
      windows,
      ledger: saleLedger(),
      escrows: escrowsOf(saleLedger()),
      log,
      graceMs: 0,
    });
    await sweeper.sweep(due);
    await sweeper.sweep(due);
    expect((await accounts.get(seller.account))!.balance).toBe(40_00);
    expect(await transfers.byKey(releaseKey({ reference }))).toMatchObject({
      state: 'posted',
      settled: true,
    });
  });

  it("a release announces the seller's proceeds_released with the transfer, once whoever runs it", async () => {
    const [buyer, seller] = [await newUser(), await newUser()];
    await topUp(buyer.account, 100_00);
    const reference = await sell(buyer, seller, 12_50);
    const published: OutgoingEvent[] = [];
    const recording = { publish: async (events: OutgoingEvent[]) => void published.push(...events) };
    const known = [{ id: seller.id, username: `seller${seller.id}` }];
    const due = new Date(Date.now() + WINDOW_MS + 1_000);
    await Promise.all(
      Array.from({ length: 3 }, () =>
        escrowsOf(ledgerWith({ outbox: recording as never }), known).releaseDue(due),
      ),
    );
    const activity = published.map((e) => e.event.data);
    expect(new Set(published.map((e) => e.event.id)).size).toBe(1);
    expect(activity[0]).toEqual({
      userId: seller.id,
      username: `seller${seller.id}`,
      action: 'proceeds_released',
      details: `₹12.50 from ${reference} released to the wallet balance`,
    });
    expect((await accounts.get(seller.account))!.balance).toBe(12_50);
  });

  describe('asked for a release window at a time (ADR 042)', () => {
    /** Escrows of `store` that count the catch-ups and the windows they ask for. */
    function counting(directory: Pick<Parameters<typeof createEscrows>[0], 'directory'>['directory']) {
      const asked = { caughtUp: 0, windows: [] as number[] };
      const counted: AccountStore = {
        ...accounts,
        dueEscrows: (now, limit) => (asked.caughtUp++, accounts.dueEscrows(now, limit)),
        escrowsDueIn: (window) => (asked.windows.push(window), accounts.escrowsDueIn(window)),
      };
      return { asked, escrows: createEscrows({ accounts: counted, ledger: saleLedger(), directory, log }) };
    }
    const nobody = { byId: async () => null };
    /** The start of the window after `window`: the first moment a sweep asks for `window`. */
    const after = (window: number) => new Date((window + 1) * RELEASE_WINDOW_MS);
    /** Files an escrow under a window swept long ago, as if it had been due then. */
    const fileLongAgo = (reference: string) =>
      accounts.model
        .updateOne(
          { _id: escrowAccount(reference) },
          { $set: { releaseWindow: releaseWindowOf(new Date()) - 6 } },
        )
        .exec();

    it('after one catch-up, each escrow is asked for once, in the window after the one it came due in', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const { asked, escrows } = counting(nobody);
      await escrows.releaseDue(new Date(), 100_000);
      expect(asked.caughtUp).toBe(1);
      const reference = await sell(buyer, seller, 20_00);
      const escrow = (await accounts.get(escrowAccount(reference)))!;
      const window = releaseWindowOf(escrow.releaseAt!);
      expect(escrow).toMatchObject({ proceedsHeld: true, releaseWindow: window });
      await escrows.releaseDue(new Date(after(window).getTime() - 1));
      expect((await accounts.get(escrowAccount(reference)))!.balance).toBe(20_00);
      await escrows.releaseDue(after(window));
      expect((await accounts.get(seller.account))!.balance).toBe(20_00);
      expect(await accounts.get(escrowAccount(reference))).toMatchObject({ balance: 0 });
      expect((await accounts.get(escrowAccount(reference)))!.proceedsHeld).toBeUndefined();
      expect(asked.caughtUp).toBe(1);
      expect(asked.windows).toContain(window);
      expect(new Set(asked.windows).size).toBe(asked.windows.length);
    });

    it('proceeds paid in after their window was swept are released in the next window', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const { asked, escrows } = counting(nobody);
      const reference = uniqueName('order');
      const holds = holdsOf(saleLedger());
      // Due a minute ago: its window was swept before the hold was posted.
      const releaseAt = new Date(Date.now() - 60_000).toISOString();
      const req = {
        reference,
        debitUserId: buyer.id,
        creditUserId: seller.id,
        amountPaise: 15_00,
        releaseAt,
      };
      await holds.create('orders', { ...req, timeoutSeconds: 0, description: 'late post' });
      await escrows.releaseDue(new Date(), 100_000);
      await holds.post('orders', reference);
      const filed = (await accounts.get(escrowAccount(reference)))!.releaseWindow!;
      expect(filed).toBe(releaseWindowOf(new Date()));
      await escrows.releaseDue(after(filed));
      expect((await accounts.get(seller.account))!.balance).toBe(15_00);
      expect(asked.caughtUp).toBe(1);
    });

    it('unfrozen after its window was swept, an escrow is released in the next window', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const { asked, escrows } = counting(nobody);
      const reference = await sell(buyer, seller, 35_00, -60_000);
      await fileLongAgo(reference);
      const refunds = createSaleRefunds({ accounts, transfers, ledger: saleLedger() });
      expect(await refunds.hold('orders', reference)).toEqual({ held: true });
      await escrows.releaseDue(new Date(), 100_000);
      expect((await accounts.get(seller.account))!.balance).toBe(0);
      await refunds.unhold('orders', reference);
      const filed = (await accounts.get(escrowAccount(reference)))!.releaseWindow!;
      expect(filed).toBe(releaseWindowOf(new Date()));
      await escrows.releaseDue(after(filed));
      expect((await accounts.get(seller.account))!.balance).toBe(35_00);
      expect(asked.caughtUp).toBe(1);
    });

    it('a release that failed is asked for again in a later window', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      let identityAnswers = false;
      const { asked, escrows } = counting({
        byId: async () => {
          if (!identityAnswers) throw new Error('identity is not answering');
          return null;
        },
      });
      const reference = await sell(buyer, seller, 5_00, -60_000);
      await fileLongAgo(reference);
      const now = new Date();
      await escrows.releaseDue(now, 100_000);
      expect((await accounts.get(escrowAccount(reference)))!.releaseWindow).toBe(releaseWindowOf(now));
      identityAnswers = true;
      await escrows.releaseDue(after(releaseWindowOf(now)));
      expect((await accounts.get(seller.account))!.balance).toBe(5_00);
      expect(asked.caughtUp).toBe(1);
    });

    it('held proceeds are read by their flag: set by the money paid in, dropped once emptied; older escrows are marked once', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const [kept, released] = [
        // Kept beyond every other test's sweeps.
        await sell(buyer, seller, 10_00, 30 * 86_400_000),
        await sell(buyer, seller, 20_00, -60_000),
      ];
      /** What every escrow ever made holds, read the slow way. */
      const inEveryEscrow = async () =>
        (await accounts.model.find({ kind: 'escrow' }, { balance: 1 }).lean<{ balance: number }[]>()).reduce(
          (sum, a) => sum + a.balance,
          0,
        );
      await escrowsOf(saleLedger()).releaseDue(new Date());
      expect((await accounts.get(escrowAccount(released)))!.proceedsHeld).toBeUndefined();
      expect(await accounts.escrowed()).toBe(await inEveryEscrow());
      expect((await accounts.heldProceeds(seller.id)).map((p) => p.reference)).toEqual([kept]);
      // Written before the flag existed: not read until marked.
      await accounts.model
        .updateOne({ _id: escrowAccount(kept) }, { $unset: { proceedsHeld: '', releaseWindow: '' } })
        .exec();
      // Emptied by a debit whose process died before it dropped the flag.
      await accounts.model
        .updateOne({ _id: escrowAccount(released) }, { $set: { proceedsHeld: true } })
        .exec();
      expect(await accounts.heldProceeds(seller.id)).toEqual([]);
      expect(await accounts.escrowed()).toBe((await inEveryEscrow()) - 10_00);
      expect(await accounts.markHeldProceeds()).toBeGreaterThanOrEqual(2);
      expect(await accounts.markHeldProceeds()).toBe(0);
      const escrow = (await accounts.get(escrowAccount(kept)))!;
      expect(escrow).toMatchObject({ proceedsHeld: true, releaseWindow: releaseWindowOf(escrow.releaseAt!) });
      expect((await accounts.get(escrowAccount(released)))!.proceedsHeld).toBeUndefined();
      expect((await accounts.heldProceeds(seller.id)).map((p) => p.reference)).toEqual([kept]);
      expect(await accounts.escrowed()).toBe(await inEveryEscrow());
    });
  });

  describe("a sale's refund", () => {
    const refundsOf = (l: Ledger = saleLedger()) => createSaleRefunds({ accounts, transfers, ledger: l });
    const balanceOf = async (account: AccountId) => (await accounts.get(account))!.balance;
    const dueAfterWindow = () => new Date(Date.now() + WINDOW_MS + 1_000);

    it('pays the buyer back from the frozen escrow once; the release then finds nothing; both users see a Refund line', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const reference = await sell(buyer, seller, 25_00);
      const refunds = refundsOf();
      expect(await refunds.hold('orders', reference)).toEqual({ held: true });
      expect(await refunds.hold('orders', reference)).toEqual({ held: true });
      expect(await refunds.refund('orders', reference, 1)).toEqual({ source: 'escrow', amount: 25_00 });
      expect(await refunds.refund('orders', reference, 1)).toEqual({ source: 'escrow', amount: 25_00 });
      expect([await balanceOf(buyer.account), await balanceOf(seller.account)]).toEqual([100_00, 0]);
      expect(await accounts.get(escrowAccount(reference))).toMatchObject({ balance: 0, available: 0 });
      await refunds.unhold('orders', reference);
      expect(await escrowsOf(saleLedger()).releaseDue(dueAfterWindow())).toBe(0);
      expect(await balanceOf(seller.account)).toBe(0);
      const key = refundKey(reference, 1);
      expect(await history.byKey(`${key}:in`)).toMatchObject({
        userId: buyer.id,
        type: 'credit',
        amount: 25_00,
      });
      expect(await history.byKey(`${key}:out`)).toMatchObject({
        userId: seller.id,
        type: 'debit',
        amount: 25_00,
      });
      await expect(refunds.refund('gateway', reference, 2)).rejects.toMatchObject({
        code: GrpcStatus.PERMISSION_DENIED,
      });
    });

    it('a frozen escrow is not released, not even by a release that read it before the freeze; unheld, the next sweep releases it once', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const reference = await sell(buyer, seller, 30_00);
      const stale = (await accounts.get(escrowAccount(reference)))!;
      await refundsOf().hold('orders', reference);
      expect(await escrowsOf(saleLedger()).releaseDue(dueAfterWindow())).toBe(0);
      const late = await saleLedger().transfer({
        key: releaseKey(stale),
        kind: 'release',
        debit: stale._id,
        credit: seller.account,
        amount: stale.available,
        description: 'a release that read the escrow before its freeze',
        history: [],
      });
      expect(late.state).toBe('failed');
      expect(await balanceOf(seller.account)).toBe(0);
      await refundsOf().unhold('orders', reference);
      expect(await escrowsOf(saleLedger()).releaseDue(dueAfterWindow())).toBe(1);
      expect(await balanceOf(seller.account)).toBe(30_00);
      expect((await transfers.byKey(`release:${reference}:1`))!.state).toBe('posted');
    });

    it('freezes racing the releases of 20 sales at the window edge: each sale goes one way, and every refund is paid once', async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 1_000_00);
      const references = await Promise.all(
        Array.from({ length: 20 }, (_, i) => sell(buyer, seller, 10_00 + i)),
      );
      const total = references.reduce((sum, _, i) => sum + 10_00 + i, 0);
      const due = dueAfterWindow();
      const [held] = await Promise.all([
        Promise.all(references.map((r) => refundsOf().hold('orders', r))),
        escrowsOf(saleLedger()).releaseDue(due, 100),
        escrowsOf(saleLedger()).releaseDue(due, 100),
      ]);
      for (const [i, reference] of references.entries()) {
        const escrow = (await accounts.get(escrowAccount(reference)))!;
        // Held: the proceeds are still in the frozen escrow. Not held: released to the seller.
        expect([reference, escrow.balance > 0]).toEqual([reference, held[i]!.held]);
      }
      const sources = await Promise.all(references.map((r) => refundsOf().refund('orders', r, 1)));
      expect(sources.map((s) => s.source)).toEqual(held.map((h) => (h.held ? 'escrow' : 'seller')));
      expect([await balanceOf(buyer.account), await balanceOf(seller.account)]).toEqual([1_000_00, 0]);
      expect(total).toBeGreaterThan(0);
      expect((await audit()).negative).toEqual([]);
    });

    it("after the release, refunds from the seller's balance: short, it is refused and moves nothing; a later attempt pays", async () => {
      const [buyer, seller, other] = [await newUser(), await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const reference = await sell(buyer, seller, 30_00);
      await escrowsOf(saleLedger()).releaseDue(dueAfterWindow());
      await saleLedger().transfer(move(`p2p:${seller.id}:spend`, seller.account, other.account, 20_00));
      expect(await refundsOf().hold('orders', reference)).toEqual({ held: false });
      await expect(refundsOf().refund('orders', reference, 1)).rejects.toMatchObject({
        message: SELLER_SHORT,
      });
      expect([await balanceOf(buyer.account), await balanceOf(seller.account)]).toEqual([70_00, 10_00]);
      await topUp(seller.account, 20_00);
      // That attempt is spent; the next one pays.
      await expect(refundsOf().refund('orders', reference, 1)).rejects.toMatchObject({
        message: SELLER_SHORT,
      });
      expect(await refundsOf().refund('orders', reference, 2)).toEqual({ source: 'seller', amount: 30_00 });
      expect([await balanceOf(buyer.account), await balanceOf(seller.account)]).toEqual([100_00, 0]);
    });

    it("a refund stopped between the escrow's debit and the buyer's credit is finished by the sweeper, once", async () => {
      const [buyer, seller] = [await newUser(), await newUser()];
      await topUp(buyer.account, 100_00);
      const reference = await sell(buyer, seller, 45_00);
      await refundsOf().hold('orders', reference);
      await expect(refundsOf(saleLedger({ fault: dies })).refund('orders', reference, 1)).rejects.toThrow(
        'process died',
      );
      expect(await accounts.get(escrowAccount(reference))).toMatchObject({ balance: 0 });
      expect(await balanceOf(buyer.account)).toBe(55_00);
      await createSweeper({ accounts, transfers, windows, ledger: saleLedger(), log, graceMs: 0 }).sweep();
      expect(await balanceOf(buyer.account)).toBe(100_00);
      // The orders service's retry of the same attempt answers it: nothing moves twice.
      expect(await refundsOf().refund('orders', reference, 1)).toEqual({ source: 'escrow', amount: 45_00 });
      expect(await balanceOf(buyer.account)).toBe(100_00);
    });
  });
});

describe('a hot account: steps without a funds check grouped per account (ADR 006, 2026-12-04)', () => {
  it('300 payments at once into one wallet, 10 % sent twice: each credited once, in far fewer updates', async () => {
    const payee = await newUser();
    const payers = await Promise.all(Array.from({ length: 30 }, () => newUser()));
    for (const p of payers) await topUp(p.account, 1_000_00);
    const requests = Array.from({ length: 300 }, (_, i) =>
      move(`p2p:hot:${base}:${i}`, payers[i % 30]!.account, payee.account, 100 + i),
    );
    const retried = requests.filter((_, i) => i % 10 === 0);
    let results: Awaited<ReturnType<Ledger['transfer']>>[] = [];
    const updates = await accountCalls([payee.account], 'updateOne', async () => {
      results = await Promise.all([...requests, ...retried].map((r) => ledger.transfer(r)));
    });
    expect(results.every((t) => t.state === 'posted')).toBe(true);
    const [after] = await balances([payee.account]);
    expect(after!.balance).toBe(requests.reduce((sum, r) => sum + r.amount, 0));
    // Each transfer's credit marker is on the account exactly once.
    const ids = [...new Set(results.map((t) => t._id))];
    expect(ids).toHaveLength(300);
    expect(after!.applied.filter((m) => m.endsWith(':credit')).sort()).toEqual(
      ids.map((id) => `${id}:credit`).sort(),
    );
    // One update per credit before; now a credit in flight gathers the ones that arrive meanwhile.
    expect(updates).toBeLessThan(150);
  }, 120_000);

  it('a step already applied, or driven twice in one group, is applied once; the rest of its group still is', async () => {
    const { account } = await newUser();
    const id = (i: number) => `hot-twice-${base}-${i}`;
    let groups = 0;
    /** One credit in flight, then `ids` at once (they wait for it and go as one group). */
    const group = async (ids: number[]) => {
      const outcomes = await Promise.all(
        [1000 + ++groups, ...ids].map((i) => accounts.credit(account, id(i), 1_00, new Date(), Date.now())),
      );
      return outcomes.slice(1);
    };
    // Five transfers driven twice in the same group, none applied before.
    const twice = await group([...Array.from({ length: 10 }, (_, i) => i), 5, 6, 7, 8, 9]);
    expect(twice.slice(0, 5)).toEqual(Array(5).fill('applied'));
    for (let i = 5; i < 10; i++) expect([twice[i], twice[i + 5]].sort()).toEqual(['already', 'applied']);
    // A group with five transfers already applied (a retry, the sweeper) and ten new ones.
    const again = await group([0, 1, 2, 3, 4, ...Array.from({ length: 10 }, (_, i) => 20 + i)]);
    expect(again).toEqual([...Array(5).fill('already'), ...Array(10).fill('applied')]);
    const [after] = await balances([account]);
    // 10 + 10, and the two that went first, alone.
    expect(after!.balance).toBe(22 * 1_00);
    expect(new Set(after!.applied).size).toBe(after!.applied.length);
    // Credits alone, without their transfers' debits and entries: not left for the whole-ledger audit.
    await accounts.model.deleteOne({ _id: account });
  });

  it("100 top-ups at once debit the provider's clearing account once each, in far fewer updates", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser()));
    const provider = providerAccount('test');
    const [before] = await balances([provider]);
    let results: Awaited<ReturnType<Ledger['transfer']>>[] = [];
    const updates = await accountCalls([provider], 'findOneAndUpdate', async () => {
      results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => topUp(users[i % 10]!.account, 1_00 + i)),
      );
    });
    expect(results.every((t) => t.state === 'posted')).toBe(true);
    const [after] = await balances([provider]);
    expect(before!.balance - after!.balance).toBe(100 * 1_00 + (99 * 100) / 2);
    expect(updates).toBeLessThan(50);
  }, 120_000);
});

describe('the whole ledger', () => {
  it('is consistent after every test above', async () => {
    const result = await audit();
    expect(result).toEqual({ total: 0, entriesTotal: 0, mismatched: [], negative: [], unsettled: 0 });
  });
});
