import { randomUUID } from 'node:crypto';
import { walletV1 } from '@qm/contracts/grpc';
import { IDENTITY_SUBJECTS, type UserDeletedData, type UserRejectedData } from '@qm/contracts/events';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { connectBus, createClient, type EventBus, GrpcStatus, makeEvent } from '@qm/platform';
import { eventually, INFRA, testCallerSigner, testLog } from '@qm/testkit';
import type { Account } from '../src/store/accounts';
import { outcome, startWallet, type TestUser, type WalletHarness } from './service-harness';

/**
 * Closed accounts: a user the administrator deletes must move no money in the minutes a session of
 * theirs may still live. The wallet hears identity.user.deleted and closes the wallet; its transfers
 * and purchases' holds are refused with 403 from then on, without asking identity per transfer. The
 * money on it stays there, visible to the administrator: nothing is destroyed.
 */
const PIN = '581470';
let w: WalletHarness;
let bus: EventBus;
let orders: ReturnType<typeof createClient<typeof walletV1.WalletServiceService>>;
const admin = { userId: 1, username: 'admin', roles: ['Admin'] };

beforeAll(async () => {
  w = await startWallet();
  bus = await connectBus({ servers: INFRA.NATS_URL, name: 'closed-accounts-test', log: testLog() });
  orders = createClient(walletV1.WalletServiceService, `127.0.0.1:${w.svc.port}`, {
    identity: { service: 'orders', token: w.internalToken },
    signer: testCallerSigner,
  });
}, 60_000);

afterAll(async () => {
  orders?.close();
  await bus?.close();
  await w?.stop();
});

const account = (u: TestUser) =>
  w.svc.rt.conn.collection<Account>('accounts').findOne({ _id: `user:${u.userId}` });

const transfer = (from: TestUser, to: TestUser, amountPaise: number) =>
  outcome(
    w.as(from, () =>
      w.client.transfer({
        receiverUsername: to.username,
        amountPaise,
        pin: PIN,
        idempotencyKey: randomUUID(),
      }),
    ),
  );

const hold = (buyer: TestUser, seller: TestUser, amountPaise: number) =>
  outcome(
    orders.createPendingTransfer({
      reference: `order-${randomUUID()}`,
      debitUserId: buyer.userId,
      creditUserId: seller.userId,
      amountPaise,
      timeoutSeconds: 0,
      description: 'a purchase',
      releaseAt: '',
    }),
  );

/** Identity's announcement that the user was deleted. */
const announceDeleted = (u: TestUser) =>
  bus.publish(
    IDENTITY_SUBJECTS.deleted,
    makeEvent<UserDeletedData>(IDENTITY_SUBJECTS.deleted, {
      userId: u.userId,
      username: u.username,
      role: 'Army',
    }),
  );

/** The sum of every account's balance: zero while no money is made or destroyed. */
async function ledgerSum(): Promise<number> {
  const all = await w.svc.rt.conn.collection<Account>('accounts').find({}).toArray();
  return all.reduce((sum, a) => sum + a.balance, 0);
}

it('a deleted user: the wallet closes, transfers and holds are refused (403), the money stays on it', async () => {
  const [gone, payee] = [w.user('gone'), w.user('payee')];
  await w.topUp(gone, 800_00);
  await w.activatePin(gone, PIN);
  // Before the delete: money moves (and the process now remembers the PIN), a hold is taken.
  expect(await transfer(gone, payee, 100_00)).toEqual({ code: 0, message: '' });
  expect(await hold(gone, payee, 50_00)).toEqual({ code: 0, message: '' });

  await announceDeleted(gone);
  await eventually(async () => (await account(gone))?.isActive === false);

  const closed = { code: GrpcStatus.PERMISSION_DENIED, message: WALLET_MESSAGES.accountClosed };
  expect(await transfer(gone, payee, 100_00)).toEqual(closed);
  expect(await hold(gone, payee, 100_00)).toEqual(closed);

  // 800 in, 100 sent, 50 held by the purchase taken before: 700 stay on the closed wallet.
  const left = await account(gone);
  expect(left).toMatchObject({ isActive: false, balance: 700_00, held: 50_00, available: 650_00 });
  expect(await account(payee)).toMatchObject({ balance: 100_00 });
  expect(await ledgerSum()).toBe(0);
  // The administrator still sees it, closed, with its balance.
  const { wallets } = await w.as(admin, () =>
    w.client.listWallets({ page: 1, pageSize: 100, search: gone.username }),
  );
  expect(wallets.find((x) => x.userId === gone.userId)).toMatchObject({
    isActive: false,
    balancePaise: 700_00,
  });
}, 90_000);

it('a deleted receiver whose wallet number this process remembers is refused; what they had stays', async () => {
  const [payer, leaving] = [w.user('payer'), w.user('leaving')];
  await w.topUp(payer, 300_00);
  await w.activatePin(payer, PIN);
  // The first transfer to them reads their wallet; this process now remembers its number (ADR 048).
  expect(await transfer(payer, leaving, 100_00)).toEqual({ code: 0, message: '' });

  w.deleteUser(leaving);
  await announceDeleted(leaving);
  await eventually(async () => (await account(leaving))?.isActive === false);

  // Not read again, yet refused: the directory heard the deletion as well and asks identity again.
  expect(await transfer(payer, leaving, 100_00)).toEqual({
    code: GrpcStatus.INVALID_ARGUMENT,
    message: WALLET_MESSAGES.notEligible,
  });
  expect(await account(leaving)).toMatchObject({ isActive: false, balance: 100_00 });
  expect(await account(payer)).toMatchObject({ balance: 200_00 });
  expect(await ledgerSum()).toBe(0);
}, 90_000);

it('a deleted user who had no wallet cannot open one; a rejected user gets none', async () => {
  const [never, rejected, payee] = [w.user('never'), w.user('rejected'), w.user('payee')];
  await announceDeleted(never);
  const rejection = makeEvent<UserRejectedData>(IDENTITY_SUBJECTS.rejected, {
    userId: rejected.userId,
    username: rejected.username,
    reason: 'no',
  });
  await bus.publish(IDENTITY_SUBJECTS.rejected, rejection);
  await eventually(async () => (await account(never))?.isActive === false);
  // A session still alive finds the wallet closed, not a fresh one.
  const { wallet } = await w.as(never, () => w.client.getWallet({ recordView: false }));
  expect(wallet).toMatchObject({ isActive: false, balancePaise: 0 });
  const closed = { code: GrpcStatus.PERMISSION_DENIED, message: WALLET_MESSAGES.accountClosed };
  expect(await hold(never, payee, 1_00)).toEqual(closed);
  // Nor can it start a top-up that would leave money on a closed wallet.
  expect(
    await outcome(w.as(never, () => w.client.createTopUp({ amountPaise: 100_00, idempotencyKey: '' }))),
  ).toEqual(closed);
  // The rejected user's event was handled, and opened no wallet.
  await eventually(async () =>
    w.svc.rt.conn
      .collection<{ _id: string; state: string }>('processed_events')
      .findOne({ _id: `${w.closedDurable}:${rejection.id}`, state: 'done' }),
  );
  expect(await account(rejected)).toBeNull();
}, 60_000);
