import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { walletV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  connectBus,
  connectMongo,
  createClient,
  type EventBus,
  newRequestId,
  runWithContext,
  storeEngineVariables,
} from '@qm/platform';
import {
  eventually,
  freePort,
  INFRA,
  streamMessages,
  testCallerSigner,
  testLog,
  uniqueName,
} from '@qm/testkit';
import { startServiceProcess } from '@qm/testkit/src/process';
import type { Connection } from 'mongoose';

/**
 * The Jepsen-style proof of docs/adr/006: the real wallet process is killed (SIGKILL, by its own
 * fault hook) between a transfer's debit and its credit, and the restarted service finishes it.
 * The transfer here is a top-up's credit (clearing account → the user's wallet): the same engine
 * and the same step as every other transfer.
 */
describe('wallet killed between debit and credit (real process, real database)', () => {
  const db = uniqueName('qm_test_wallet_kill');
  const caller: Caller = {
    userId: 90_000_000 + randomInt(0, 9_000_000),
    username: 'killtest',
    roles: ['Army'],
  };
  let env: Record<string, string>;
  let conn: Connection;
  let bus: EventBus;
  const children: ChildProcess[] = [];

  /** The activities of this test's user on the run's own activity stream, in order. */
  const activitiesOnStream = async () =>
    (await streamMessages<{ data: { userId: number; action: string } }>(bus, 'QM_ACTIVITY'))
      .filter(({ data }) => data.userId === caller.userId)
      .map(({ data }) => data.action);

  beforeAll(async () => {
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      GRPC_PORT: String(await freePort()),
      MONGO_URL: INFRA.MONGO_URL,
      MONGO_DB: db,
      NATS_URL: INFRA.NATS_URL,
      ...storeEngineVariables(INFRA.STORE_ENGINE),
      EVENTS_PREFIX: uniqueName('kill', '-').toLowerCase(),
      WALLET_USER_APPROVED_DURABLE: uniqueName('wallet-approved-kill', '-'),
      SWEEP_INTERVAL_MS: '300',
      SWEEP_GRACE_MS: '500',
      // Nothing listens there: the sandbox's webhook stays undelivered, so only the sweeper can finish.
      WALLET_WEBHOOK_URL: `http://127.0.0.1:${await freePort()}/api/webhooks/sandbox`,
    };
    conn = await connectMongo(INFRA.MONGO_URL, db);
    bus = await connectBus({
      servers: INFRA.NATS_URL,
      name: 'wallet-kill-test',
      log: testLog(),
      prefix: env.EVENTS_PREFIX,
    });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await bus.close();
    await conn.dropDatabase();
    await conn.close();
  });

  const client = () =>
    createClient(walletV1.WalletServiceService, `127.0.0.1:${env.GRPC_PORT}`, {
      signer: testCallerSigner,
      defaultDeadlineMs: 30_000,
    });
  const as = <T>(fn: () => Promise<T>) => runWithContext({ requestId: newRequestId(), caller }, fn);

  it('the restarted service finishes the transfer: credited once, the ledger balanced', async () => {
    const doomed = await startServiceProcess('wallet', { ...env, WALLET_FAULT: 'after-debit' });
    children.push(doomed);
    let wallet = client();
    const order = await as(() => wallet.createTopUp({ amountPaise: 500_00, idempotencyKey: '' }));
    const proof = await as(() =>
      wallet.sandboxPay({ orderId: order.id, cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' }),
    );
    const verify = { ...proof, idempotencyKey: 'kill-verify' };
    const died = once(doomed, 'exit');
    await expect(as(() => wallet.verifyPayment(verify))).rejects.toMatchObject({ code: expect.any(Number) });
    const [, signal] = await died;
    expect(signal).toBe('SIGKILL');
    wallet.close();

    // The dead process debited the clearing account and never credited the user.
    const accounts = conn.collection<{ _id: string; balance: number }>('accounts');
    expect((await accounts.findOne({ _id: 'provider:sandbox' }))!.balance).toBe(-500_00);
    expect((await accounts.findOne({ _id: `user:${caller.userId}` }))!.balance).toBe(0);

    children.push(await startServiceProcess('wallet', env));
    wallet = client();
    await eventually(
      async () => (await accounts.findOne({ _id: `user:${caller.userId}` }))!.balance === 500_00,
      30_000,
    );
    // The sweeper that finished the credit announced it too (the dead request never could): the
    // top-up's two activities, once each, before anyone asks again.
    const announced = await eventually(async () => {
      const actions = await activitiesOnStream();
      return actions.length >= 2 && actions;
    }, 10_000);
    expect([...announced].sort()).toEqual(['wallet_add_money', 'wallet_transaction']);
    // The dead request's key is still claimed (Stripe: a request in progress is refused, not rerun)…
    await expect(as(() => wallet.verifyPayment(verify))).rejects.toMatchObject({ code: 10 /* ABORTED */ });
    // …and a fresh proof of the same payment answers the credit the sweeper finished: nothing moves twice.
    // (Until the dead process's 30 s lease on the top-up lapses, it answers "being credited": retry.)
    const again = await eventually(
      () => as(() => wallet.verifyPayment({ ...proof, idempotencyKey: '' })).catch(() => undefined),
      90_000,
    );
    expect(again.wallet!.balancePaise).toBe(500_00);
    const { wallet: after } = await as(() => wallet.getWallet({ recordView: false }));
    expect(after!.balancePaise).toBe(500_00);

    const entries = await conn.collection<{ amount: number }>('entries').find({}).toArray();
    expect(entries).toHaveLength(2);
    expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(0);
    const transfers = await conn.collection('transfers').find({}).toArray();
    expect(transfers.map((t) => [t.state, t.settled])).toEqual([['posted', true]]);
    const { transactions } = await as(() => wallet.listTransactions({ page: 1, pageSize: 10, status: 0 }));
    expect(transactions.map((t) => [t.amountPaise, t.status])).toEqual([
      [500_00, walletV1.TransactionStatus.TRANSACTION_STATUS_COMPLETED],
    ]);
    // Asking again moved nothing and announced nothing more.
    expect((await activitiesOnStream()).sort()).toEqual(['wallet_add_money', 'wallet_transaction']);
    wallet.close();
  }, 120_000);
});
