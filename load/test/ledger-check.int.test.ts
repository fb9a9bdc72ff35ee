import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { connectMongo, ensureIndexes, openStoreEngine, type StoreEngine } from '../../packages/platform/src';
import { createEscrows } from '../../services/wallet/src/app/escrows';
import { createHolds } from '../../services/wallet/src/app/holds';
import { createLedger, type Ledger, type TransferRequest } from '../../services/wallet/src/app/ledger';
import { createWalletNumbers } from '../../services/wallet/src/app/wallet-numbers';
import { checkLedger, type BreakKind, resultLine, TOPUPS } from '../ledger/check';
import { registerWalletModels } from '../ledger/models';
import { seedLedger } from '../ledger/seed';

jest.setTimeout(120_000);

// Each test seeds its own wallet database on the real FerretDB, breaks one rule and expects the
// check to name exactly that kind of break.
const ROOT = path.join(__dirname, '../..');
let conn: Connection;
let stores: ReturnType<typeof registerWalletModels>;

let engine: StoreEngine;
beforeEach(async () => {
  conn = await connectMongo(INFRA.MONGO_URL, uniqueName('qm_ledger_check'));
  engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
  stores = registerWalletModels(conn);
  await ensureIndexes(conn);
});
afterEach(async () => {
  await conn.dropDatabase().catch(() => undefined);
  await engine.close();
  await conn.close();
});

const db = () => conn.db!;
const seed = () => seedLedger(conn, { entries: 400, users: 6, seed: 7 });
const kinds = async (now?: Date) => [
  ...new Set((await checkLedger(db(), { now })).breaks.map((b) => b.kind)),
];
const aUser = async () =>
  (await db()
    .collection('accounts')
    .findOne({ kind: 'user', balance: { $gt: 10_000 } }))!;
const inc = (id: unknown, fields: Record<string, number>) =>
  db()
    .collection('accounts')
    .updateOne({ _id: id as never }, { $inc: fields });

function runCli(dbName: string) {
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'load/ledger-check.ts', '--mongo-url', INFRA.MONGO_URL, '--db', dbName],
    { cwd: ROOT, env: { ...process.env, MONGO_DB: 'not-this-one' } },
  ).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
}

describe('ledger:check', () => {
  it('passes a consistent seeded ledger and says what it counted', async () => {
    const seeded = await seed();
    const report = await checkLedger(db());
    expect(report.breaks).toEqual([]);
    expect(report).toMatchObject({
      accounts: 7,
      entries: 400,
      completedTopups: seeded.topups,
    });
    expect(resultLine(report)).toMatch(
      /^ledger-check: OK — 7 accounts, 400 entries summing to ₹0\.00, \d+ completed top-ups/,
    );
  });

  it('exits 0 with the OK line, and 1 with the break named, as `npm run ledger:check`', async () => {
    await seed();
    const ok = await runCli(conn.name);
    expect(ok).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^ledger-check: OK — 7 accounts, 400 entries/),
    });
    const user = await aUser();
    await inc(user._id, { balance: 1, available: 1 });
    const broken = await runCli(conn.name);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      new RegExp(`^ledger-check: 1 break — balance-entries: ${user._id}: balance ₹[\\d.]+ ≠ its entries`),
    );
  });

  const corruptions: [string, BreakKind[], () => Promise<unknown>][] = [
    [
      'an entry changed after the fact (money created)',
      ['entries-sum', 'balance-entries'],
      () =>
        db()
          .collection('entries')
          .updateOne({ amount: { $gt: 0 } }, { $inc: { amount: 1 } }),
    ],
    [
      'a user balance below zero',
      ['negative-balance'],
      async () => {
        // Moves the user's whole balance and 1 paisa more to another user, entries and all.
        const [a, b] = await db().collection('accounts').find({ kind: 'user' }).limit(2).toArray();
        const amount = a!.balance + 1;
        await db()
          .collection('entries')
          .insertMany([
            { _id: 'x:debit' as never, transferId: 'x', account: a!._id, amount: -amount },
            { _id: 'x:credit' as never, transferId: 'x', account: b!._id, amount },
          ]);
        await inc(a!._id, { balance: -amount, available: -amount });
        await inc(b!._id, { balance: amount, available: amount });
      },
    ],
    ['available not balance − held', ['available'], async () => inc((await aUser())._id, { available: -1 })],
    [
      'a balance off its entries',
      ['balance-entries'],
      async () => inc((await aUser())._id, { balance: 5, available: 5 }),
    ],
    [
      'funds held by no pending transfer',
      ['held'],
      async () => inc((await aUser())._id, { held: 10, available: -10 }),
    ],
    [
      'a completed top-up whose credit is missing',
      ['topup-payment', 'balance-entries', 'entries-sum'],
      async () => {
        const p = await db().collection(TOPUPS.collection).findOne({});
        const t = await db()
          .collection('transfers')
          .findOne({ key: `topup:sandbox:${p![TOPUPS.paymentId]}` });
        await db().collection('transfers').deleteOne({ _id: t!._id });
        await db()
          .collection('entries')
          .deleteOne({ _id: `${t!._id}:credit` as never });
      },
    ],
    [
      'a credit for a different amount than its top-up',
      ['topup-payment'],
      () =>
        db()
          .collection(TOPUPS.collection)
          .updateOne({}, { $inc: { [TOPUPS.amount]: 100 } }),
    ],
    [
      'one provider payment behind two top-ups',
      ['payment-reused'],
      async () => {
        const { _id: _, ...p } = (await db().collection(TOPUPS.collection).findOne({}))!;
        await db()
          .collection(TOPUPS.collection)
          .insertOne({ ...p, [TOPUPS.status]: 'failed' });
      },
    ],
  ];

  it.each(corruptions)('names %s', async (_what, expected, corrupt) => {
    await seed();
    await corrupt();
    expect((await kinds()).sort()).toEqual([...expected].sort());
  });
});

/** The orders service's calls to the wallet, on `ledger`. */
const holdsOf = (ledger: Ledger) =>
  createHolds({
    accounts: stores.accounts,
    ledger,
    numbers: createWalletNumbers(),
    defaultTimeoutSeconds: 60,
  });

describe('ledger:check on what the wallet service itself writes', () => {
  const ledgerOf = (fault?: () => void) =>
    createLedger({ ...stores, log: testLog('ledger'), ...(fault ? { fault } : {}) });

  async function fund(userId: number, amount: number) {
    await stores.accounts.ensure('provider:sandbox');
    await stores.accounts.ensure(`user:${userId}`, userId);
    return ledgerOf().transfer({
      key: `topup-test:${userId}:${amount}`,
      kind: 'p2p',
      debit: 'provider:sandbox',
      credit: `user:${userId}`,
      amount,
      description: 'funding',
      history: [],
    });
  }

  it('passes posted, failed, pending, voided and posted holds; a hold past its timeout breaks after 60 s', async () => {
    await fund(1, 10_000);
    await stores.accounts.ensure('user:2', 2);
    const ledger = ledgerOf();
    const req = (key: string, amount: number): TransferRequest => ({
      key,
      kind: 'purchase',
      debit: 'user:1',
      credit: 'user:2',
      amount,
      description: key,
      history: [],
    });
    expect((await ledger.transfer({ ...req('p2p', 1_000), kind: 'p2p' })).state).toBe('posted');
    expect((await ledger.transfer({ ...req('too-much', 1_000_000), kind: 'p2p' })).state).toBe('failed');
    const timeout = new Date(Date.now() + 1_000);
    await ledger.createPending(req('held', 2_000), timeout);
    await ledger.createPending(req('voided', 500), timeout);
    await ledger.createPending(req('posted', 700), timeout);
    await ledger.void('voided');
    await ledger.post('posted');
    expect(await stores.accounts.get('user:1')).toMatchObject({ held: 2_000, balance: 10_000 - 1_700 });

    expect(await kinds()).toEqual([]);
    expect(await kinds(new Date(timeout.getTime() + 59_000))).toEqual([]);
    expect(await kinds(new Date(timeout.getTime() + 61_000))).toEqual(['pending-timeout']);
  });

  it('counts a transfer stopped between debit and credit as in flight; unsettled after 60 s it breaks', async () => {
    await fund(1, 10_000);
    await stores.accounts.ensure('user:2', 2);
    const crash = () => {
      throw new Error('killed after the debit');
    };
    await expect(
      ledgerOf(crash).transfer({
        key: 'stopped',
        kind: 'p2p',
        debit: 'user:1',
        credit: 'user:2',
        amount: 3_000,
        description: 'stopped',
        history: [],
      }),
    ).rejects.toThrow('killed');
    expect(await stores.accounts.get('user:1')).toMatchObject({ balance: 7_000 });

    expect(await kinds()).toEqual([]);
    expect(await kinds(new Date(Date.now() + 61_000))).toEqual(['unsettled']);
  });

  it('passes a debit given back after it raced its failure, and an abandoned transfer whose debit is barred', async () => {
    await fund(1, 10_000);
    await stores.accounts.ensure('user:2', 2);
    const ledger = ledgerOf();
    const recorded = async (key: string) =>
      (
        await stores.transfers.insert(
          {
            _id: `${key}-id`,
            key,
            kind: 'p2p',
            debitAccount: 'user:1',
            creditAccount: 'user:2',
            amount: 3_000,
            twoPhase: false,
            timeoutAt: null,
            history: [],
            description: key,
          },
          new Date(),
        )
      ).transfer;
    const raced = await recorded('raced');
    await stores.accounts.debit('user:1', raced._id, 3_000, raced.seenAt);
    const { transfer: failed } = await stores.transfers.move(raced._id, ['initiated'], 'failed');
    await ledger.resume(failed);
    // The sweeper's resumption of a transfer its request left before the debit.
    expect(await ledger.resume(await recorded('abandoned'))).toMatchObject({ failureReason: 'abandoned' });
    expect(await stores.accounts.get('user:1')).toMatchObject({ balance: 10_000 });
    expect((await stores.accounts.markers('user:1'))!.applied).toEqual(
      expect.arrayContaining(['raced-id:debit', 'raced-id:refund', 'abandoned-id:void']),
    );

    expect(await kinds()).toEqual([]);
  });

  it("passes a sale's proceeds in escrow until their release time; still there after 60 s more, they break", async () => {
    await fund(1, 10_000);
    await stores.accounts.ensure('user:2', 2);
    const ledger = ledgerOf();
    const holds = holdsOf(ledger);
    const sale = {
      reference: 'order-1',
      debitUserId: 1,
      creditUserId: 2,
      amountPaise: 2_500,
      releaseAt: new Date(Date.now() + 1_000).toISOString(),
    };
    await holds.create('orders', { ...sale, timeoutSeconds: 0, description: 'a sale' });
    await holds.post('orders', 'order-1');
    const escrow = await stores.accounts.get('escrow:order-1');
    expect(escrow).toMatchObject({ kind: 'escrow', balance: 2_500, sellerId: 2, buyerId: 1 });
    const releaseAt = escrow!.releaseAt!.getTime();

    expect(await kinds(new Date(releaseAt + 59_000))).toEqual([]);
    expect(await kinds(new Date(releaseAt + 61_000))).toEqual(['release-overdue']);
    // Frozen by a refund request, they wait for an administrator's decision.
    await stores.accounts.model.updateOne({ _id: 'escrow:order-1' }, { $set: { frozen: true } }).exec();
    expect(await kinds(new Date(releaseAt + 61_000))).toEqual([]);
    await stores.accounts.unfreeze('escrow:order-1');
    // Held without their flag, a seller's wallet would not show them.
    await stores.accounts.model.updateOne({ _id: 'escrow:order-1' }, { $unset: { proceedsHeld: '' } }).exec();
    expect(await kinds()).toEqual(['proceeds-unflagged']);
    await stores.accounts.model.updateOne({ _id: 'escrow:order-1' }, { $set: { proceedsHeld: true } }).exec();
    const escrows = createEscrows({
      accounts: stores.accounts,
      ledger,
      directory: { byId: async () => null },
      log: testLog('escrows'),
    });
    expect(await escrows.releaseDue(new Date(releaseAt))).toBe(1);
    expect(await stores.accounts.get('user:2')).toMatchObject({ balance: 2_500 });
    expect(await kinds(new Date(releaseAt + 61_000))).toEqual([]);

    // An escrow drawn below zero is money created.
    await inc('escrow:order-1', { balance: -1, available: -1 });
    expect(await kinds()).toEqual(expect.arrayContaining(['negative-balance']));
  });
});
