import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { walletV1 } from '@qm/contracts/grpc';
import { ACTIVITY_SUBJECT } from '@qm/contracts/events';
import { SANDBOX_SIGNATURE_HEADER, WALLET_MESSAGES } from '@qm/contracts/rest';
import {
  type Caller,
  connectBus,
  createClient,
  type EventEnvelope,
  GrpcStatus,
  newRequestId,
  type RunningService,
  runWithContext,
  startService,
} from '@qm/platform';
import {
  deleteDurables,
  eventually,
  INFRA,
  serviceTestEnv,
  testCallerSigner,
  testLog,
  uniqueName,
} from '@qm/testkit';
import { walletService } from '../src/service';
import { cards, users } from './topups-harness';

/**
 * The top-up rpcs through the real wallet service: its composition, its gRPC mapping (the webhook's
 * raw bytes), and its own delivery job posting the sandbox's webhook to a receiver that forwards it
 * to HandleProviderWebhook as the gateway does.
 */
const INTERNAL_TOKEN = randomBytes(24).toString('hex');
const durable = uniqueName('wallet-user-approved-topups-test');
let svc: RunningService<unknown>;
let receiver: Server;
let client: ReturnType<typeof createClient<typeof walletV1.WalletServiceService>>;
const forwarded: number[] = [];
const activities: EventEnvelope[] = [];
let stopListening: () => Promise<void>;

const as = <T>(caller: Caller, call: () => Promise<T>) =>
  runWithContext({ requestId: newRequestId(), caller }, call);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      client
        .handleProviderWebhook({
          provider: 'sandbox',
          payload: Buffer.concat(chunks),
          signature: String(req.headers[SANDBOX_SIGNATURE_HEADER] ?? ''),
        })
        .then(({ handled }) => {
          forwarded.push(handled ? 200 : 422);
          res.writeHead(handled ? 200 : 422).end();
        })
        .catch(() => res.writeHead(400).end());
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  svc = (await startService(
    walletService,
    serviceTestEnv(uniqueName('qm_test_wallet_topups_grpc'), {
      GRPC_PORT: '0',
      INTERNAL_TOKEN,
      WALLET_USER_APPROVED_DURABLE: durable,
      WALLET_WEBHOOK_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/sandbox`,
      WEBHOOK_RETRY_MS: '200',
      TOPUP_EXPIRY_MINUTES: '30',
    }),
  )) as RunningService<unknown>;
  client = createClient(walletV1.WalletServiceService, `127.0.0.1:${svc.port}`, {
    signer: testCallerSigner,
    defaultDeadlineMs: 30_000,
  });
  const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'topups-grpc-listener', log: testLog() });
  bus.listen(ACTIVITY_SUBJECT, (event) => {
    const e = event as EventEnvelope<{ userId: number; action: string }>;
    if (e.data.userId === users.ravi.userId && !activities.some((a) => a.id === e.id)) activities.push(e);
  });
  await bus.nc.flush();
  stopListening = () => bus.close();
});

afterAll(async () => {
  client.close();
  await stopListening();
  await svc.rt.conn.dropDatabase().catch(() => undefined);
  await svc.stop();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await deleteDurables('QM_IDENTITY', [durable]);
});

it('credits a sandbox top-up once through the service, by its delivered webhook and the late page', async () => {
  const who = users.ravi;
  const opened = Date.now();
  const order = await as(who, () => client.createTopUp({ amountPaise: 2500_00, idempotencyKey: '' }));
  expect(order).toMatchObject({ amountPaise: 2500_00, currency: 'INR', provider: 'sandbox' });
  // The checkout says when it expires unpaid: TOPUP_EXPIRY_MINUTES after it started.
  const expiresIn = Date.parse(order.expiresAt) - opened;
  expect(expiresIn).toBeGreaterThanOrEqual(30 * 60_000);
  expect(expiresIn).toBeLessThan(30 * 60_000 + 10_000);

  const declined = await as(who, () =>
    client
      .sandboxPay({ orderId: order.id, ...cards.declined })
      .catch((e: { code: number; details: string }) => e),
  );
  expect(declined).toMatchObject({
    code: GrpcStatus.FAILED_PRECONDITION,
    details: WALLET_MESSAGES.cardDeclined,
  });

  const proof = await as(who, () => client.sandboxPay({ orderId: order.id, ...cards.ok }));
  // The service's own job delivers the webhook; the receiver hands it to HandleProviderWebhook.
  const { wallet } = await eventually(async () => {
    const w = await as(who, () => client.getWallet({ recordView: false }));
    return w.wallet?.balancePaise === 2500_00 && w;
  });
  expect(wallet!.balancePaise).toBe(2500_00);
  await eventually(() => forwarded.length > 0);
  expect(forwarded).toEqual([200]);

  const verified = await as(who, () => client.verifyPayment({ ...proof, idempotencyKey: 'late-page' }));
  expect(verified.wallet!.balancePaise).toBe(2500_00);
  expect(verified.transaction).toMatchObject({
    amountPaise: 2500_00,
    status: walletV1.TransactionStatus.TRANSACTION_STATUS_COMPLETED,
    providerOrderId: order.id,
    providerPaymentId: proof.providerPaymentId,
    description: 'Added money via Sandbox',
  });
  await eventually(() => activities.length >= 2);
  await new Promise((r) => setTimeout(r, 500));
  expect(activities.map((a) => (a.data as { action: string }).action).sort()).toEqual([
    'wallet_add_money',
    'wallet_transaction',
  ]);
});

it('refuses a webhook with a bad signature and another user paying the order', async () => {
  const order = await as(users.asha, () => client.createTopUp({ amountPaise: 100_00, idempotencyKey: '' }));
  const bad = await client
    .handleProviderWebhook({
      provider: 'sandbox',
      payload: Buffer.from('{"type":"payment.succeeded"}'),
      signature: 'x',
    })
    .catch((e: { code: number }) => e);
  expect(bad).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
  const foreign = await as(users.ravi, () =>
    client.sandboxPay({ orderId: order.id, ...cards.ok }).catch((e: { code: number; details: string }) => e),
  );
  expect(foreign).toMatchObject({
    code: GrpcStatus.INVALID_ARGUMENT,
    details: WALLET_MESSAGES.paymentVerificationFailed,
  });
});
