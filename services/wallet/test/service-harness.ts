import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { walletV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  createClient,
  newRequestId,
  type RunningService,
  runWithContext,
  startService,
} from '@qm/platform';
import { deleteDurables, serviceTestEnv, testCallerSigner, uniqueName } from '@qm/testkit';
import { startFakeIdentity } from '@qm/testkit/src/fake-identity';
import { deleteMailsTo, latestCode } from '@qm/testkit/src/maildev';
import { walletService } from '../src/service';
import { cards } from './topups-harness';

export interface TestUser extends Caller {
  email: string;
}

export type WalletClient = ReturnType<typeof createClient<typeof walletV1.WalletServiceService>>;

/**
 * The real wallet service (its gRPC server, stores, consumers and mailer to maildev) with an
 * identity that answers LookupUser from a table, so a test names its users without Keycloak.
 * `env` adds to the wallet's environment (e.g. its consumers' durable names).
 */
export async function startWallet(env: Record<string, string> = {}) {
  // Everyone the test made: their mails are deleted when it stops.
  const directory = new Map<number, TestUser>();
  // Users identity has deleted since (it no longer finds them).
  const deleted = new Set<number>();
  const internalToken = randomBytes(24).toString('hex');
  // Verifies callers as the real identity does: the wallet relays its caller's assertion (ADR 021).
  const identity = await startFakeIdentity({
    internalToken,
    find: (by) => {
      const u = [...directory.values()].find(
        (t) =>
          !deleted.has(t.userId) && (by?.$case === 'id' ? t.userId === by.value : t.username === by?.value),
      );
      return u && { id: u.userId, username: u.username, email: u.email };
    },
  });

  const durables = [uniqueName('wallet-user-approved-test'), uniqueName('wallet-user-closed-test')];
  const receiptDurable = uniqueName('wallet-topup-receipt-test');
  const svc = (await startService(
    walletService,
    serviceTestEnv(uniqueName('qm_test_wallet_svc'), {
      GRPC_PORT: '0',
      IDENTITY_GRPC_ADDR: `127.0.0.1:${identity.port}`,
      INTERNAL_TOKEN: internalToken,
      WALLET_USER_APPROVED_DURABLE: durables[0]!,
      WALLET_USER_CLOSED_DURABLE: durables[1]!,
      WALLET_TOPUP_RECEIPT_DURABLE: receiptDurable,
      SWEEP_INTERVAL_MS: '0',
      ...env,
    }),
  )) as RunningService<unknown>;
  // Stands where the gateway is: it signs each call's caller assertion (docs/adr/021).
  const client: WalletClient = createClient(walletV1.WalletServiceService, `127.0.0.1:${svc.port}`, {
    defaultDeadlineMs: 60_000,
    signer: testCallerSigner,
  });

  const base = 30_000_000 + randomInt(0, 60_000_000);
  let next = 0;

  const as = <T>(caller: Caller, call: () => Promise<T>) =>
    runWithContext({ requestId: newRequestId(), caller }, call);

  async function pinCode(u: TestUser, pin: string): Promise<string> {
    const asked = Date.now();
    await as(u, () => client.setupPin({ pin, confirmPin: pin }));
    await as(u, () => client.sendPinOtp({}));
    return latestCode(u.email, /wallet PIN/i, asked - 1000);
  }

  return {
    svc,
    client,
    as,
    /** The wallet's INTERNAL_TOKEN: a client with it may act as the orders service. */
    internalToken,
    /** The durable consumer closing deleted users' wallets (processed_events ids start with it). */
    closedDurable: durables[1]!,
    /** The durable consumer mailing top-up receipts. */
    receiptDurable,
    /** A new approved Army user that identity knows. */
    user(name: string): TestUser {
      const userId = base + ++next;
      const username = `${name}${userId}`;
      const u = { userId, username, roles: ['Army'], email: `${username}@wallet-test.example` };
      directory.set(userId, u);
      return u;
    },
    /** Identity no longer knows the user (the test announces the deletion itself). */
    deleteUser(u: TestUser) {
      deleted.add(u.userId);
    },
    /** Credits the user's wallet through the sandbox checkout. */
    async topUp(u: TestUser, paise: number) {
      const order = await as(u, () => client.createTopUp({ amountPaise: paise, idempotencyKey: '' }));
      const proof = await as(u, () => client.sandboxPay({ orderId: order.id, ...cards.ok }));
      await as(u, () => client.verifyPayment({ ...proof, idempotencyKey: '' }));
    },
    /** A P2P transfer from `from` to `to` with `pin`, under `key` (a new one unless given). */
    send(from: TestUser, to: TestUser, amountPaise: number, pin: string, key: string = randomUUID()) {
      return as(from, () =>
        client.transfer({ receiverUsername: to.username, amountPaise, pin, idempotencyKey: key }),
      );
    },
    /** Chooses `pin` and asks for the emailed code; answers the code maildev received. */
    pinCode,
    /** Chooses `pin` and confirms it with the emailed code: it then guards the user's transfers. */
    async activatePin(u: TestUser, pin: string): Promise<void> {
      const code = await pinCode(u, pin);
      await as(u, () => client.verifyPinOtp({ otp: code }));
    },
    async stop() {
      await deleteMailsTo([...directory.values()].map((u) => u.email)).catch(() => undefined);
      client.close();
      await svc.rt.conn.dropDatabase().catch(() => undefined);
      await svc.stop();
      await identity.close();
      await deleteDurables('QM_IDENTITY', durables);
      await deleteDurables('QM_WALLET', [receiptDurable]);
    },
  };
}

export type WalletHarness = Awaited<ReturnType<typeof startWallet>>;

/** The outcome of a call: its status code and message (0 and '' when it succeeded). */
export async function outcome(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
    return { code: 0, message: '' };
  } catch (err) {
    const e = err as { code?: number; details?: string };
    return { code: e.code ?? -1, message: e.details ?? String(err) };
  }
}
