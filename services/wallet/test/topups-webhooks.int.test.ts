import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_SIGNATURE_HEADER, WALLET_MESSAGES } from '@qm/contracts/rest';
import { GrpcStatus, scheduleJobs } from '@qm/platform';
import { eventually, testLog } from '@qm/testkit';
import Stripe from 'stripe';
import { historyLineId } from '../src/domain/topups';
import { cards, refusal, startWorld, STRIPE_WEBHOOK_SECRET, users, type World } from './topups-harness';

const SECRET = 'sandbox-signing-secret-of-the-webhook-test-0123456789';
const RUPEES = 100;

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

describe('the sandbox delivers its webhook at least once', () => {
  let w: World;
  let server: Server;
  const received: { body: Buffer; signature: string; answered: number }[] = [];
  let failFirst = 1;

  beforeAll(async () => {
    // Stands where the gateway's /api/webhooks/sandbox is: passes the raw body and header on.
    server = createServer((req, res) => {
      void readBody(req).then(async (body) => {
        const signature = String(req.headers[SANDBOX_SIGNATURE_HEADER] ?? '');
        if (failFirst > 0) {
          failFirst--;
          received.push({ body, signature, answered: 500 });
          return res.writeHead(500).end();
        }
        const { handled } = await w.topUps.handleWebhook({ provider: 'sandbox', payload: body, signature });
        received.push({ body, signature, answered: handled ? 200 : 422 });
        res.writeHead(handled ? 200 : 422).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    w = await startWorld({
      SANDBOX_SIGNING_SECRET: SECRET,
      WALLET_WEBHOOK_URL: `http://127.0.0.1:${port}/api/webhooks/sandbox`,
      WEBHOOK_RETRY_MS: '100',
    });
  });
  afterAll(async () => {
    await w.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('posts the signed body, retries after a 500, and credits a payment whose page never came back', async () => {
    const order = await w.topUps.create(users.asha, { amountPaise: 600 * RUPEES, idempotencyKey: '' });
    const proof = await w.topUps.sandboxPay(users.asha, { orderId: order.id, ...cards.ok });
    // The tab is closed here: verify-payment is never called.
    const stopJobs = scheduleJobs(w.topUps.jobs, testLog());
    let delivery;
    try {
      await eventually(() => received.some((r) => r.answered === 200));
      // The job records the delivery once the 200 is back, which is after our endpoint has answered.
      delivery = await eventually(async () => {
        const d = await w.providers.deliveries.byId(proof.providerPaymentId);
        return d?.state === 'delivered' ? d : undefined;
      });
    } finally {
      stopJobs();
    }
    expect(received.map((r) => r.answered)).toEqual([500, 200]);
    const { body, signature } = received[1]!;
    expect(JSON.parse(body.toString())).toEqual({
      type: 'payment.succeeded',
      orderId: order.id,
      paymentId: proof.providerPaymentId,
    });
    expect(signature).toBe(createHmac('sha256', SECRET).update(body).digest('hex'));
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 2 });
    expect((await w.money(users.asha)).balance).toBe(600 * RUPEES);
    const t = await w.stores.topups.byProviderOrderId(order.id);
    expect(t).toMatchObject({ status: 'completed' });
    expect((await w.stores.history.byKey(t!.lineId))!.status).toBe('completed');
    // The page coming back late changes nothing.
    await w.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: '' });
    expect((await w.money(users.asha)).balance).toBe(600 * RUPEES);
  });

  it('refuses a webhook whose body or signature was tampered with', async () => {
    const order = await w.topUps.create(users.ravi, { amountPaise: 200 * RUPEES, idempotencyKey: '' });
    const proof = await w.topUps.sandboxPay(users.ravi, { orderId: order.id, ...cards.ok });
    const hook = w.providers.sandbox.webhookFor(order.id, proof.providerPaymentId);
    const tampered = hook.body.replace(order.id, 'sbx_order_other');
    for (const attempt of [
      { payload: Buffer.from(tampered), signature: hook.signature },
      {
        payload: Buffer.from(hook.body),
        signature: hook.signature.replace(/^./, (c) => (c === '0' ? '1' : '0')),
      },
      { payload: Buffer.from(hook.body), signature: '' },
    ])
      expect((await refusal(w.topUps.handleWebhook({ provider: 'sandbox', ...attempt }))).code).toBe(
        GrpcStatus.INVALID_ARGUMENT,
      );
    expect(
      await refusal(
        w.topUps.handleWebhook({ provider: 'paypal', payload: Buffer.from('{}'), signature: '' }),
      ),
    ).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    expect((await w.money(users.ravi)).balance).toBe(0);
    // Stripe is not configured here: its webhooks have nothing to verify them and are refused.
    expect(
      (
        await refusal(
          w.topUps.handleWebhook({ provider: 'stripe', payload: Buffer.from('{}'), signature: 'x' }),
        )
      ).code,
    ).toBe(GrpcStatus.INVALID_ARGUMENT);
  });
});

describe('Stripe', () => {
  let w: World;
  const stripe = new Stripe('sk_test_quartermaster_no_network');

  beforeAll(async () => {
    w = await startWorld({
      STRIPE_SECRET_KEY: 'sk_test_quartermaster_no_network',
      STRIPE_WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_quartermaster',
    });
  });
  afterAll(() => w.stop());

  /** A top-up as create-order leaves it (the PaymentIntent itself lives at Stripe, out of reach here). */
  async function openTopUp(amount: number) {
    const id = await w.stores.topups.nextId();
    const pi = `pi_test_${id}_${Date.now()}`;
    const t = await w.stores.topups.insert(
      {
        _id: id,
        userId: users.asha.userId,
        username: users.asha.username,
        amount,
        currency: 'INR',
        provider: 'stripe',
        providerOrderId: pi,
        lineId: historyLineId(id),
      },
      new Date(),
    );
    await w.stores.history.open(
      {
        _id: t.lineId,
        userId: t.userId,
        amount,
        type: 'credit',
        description: 'Added money via Card',
        counterparty: '',
        transferId: '',
        transferReference: '',
        providerOrderId: pi,
        providerPaymentId: '',
        senderWalletId: null,
        receiverWalletId: null,
      },
      new Date(),
    );
    return t;
  }

  const succeeded = (pi: string, amount: number, topUpId: number, type = 'payment_intent.succeeded') =>
    JSON.stringify({
      id: `evt_${pi}`,
      object: 'event',
      type,
      data: {
        object: {
          id: pi,
          object: 'payment_intent',
          amount,
          amount_received: amount,
          currency: 'inr',
          status: 'succeeded',
          metadata: { userId: String(users.asha.userId), topUpId: String(topUpId) },
        },
      },
    });

  const deliver = (payload: string, secret = STRIPE_WEBHOOK_SECRET, body = payload) =>
    w.topUps.handleWebhook({
      provider: 'stripe',
      payload: Buffer.from(body),
      signature: stripe.webhooks.generateTestHeaderString({ payload, secret }),
    });

  it('credits payment_intent.succeeded verified by constructEvent, once however often it is delivered', async () => {
    const t = await openTopUp(900 * RUPEES);
    const payload = succeeded(t.providerOrderId, t.amount, t._id);
    expect(await deliver(payload)).toEqual({ handled: true });
    expect(await deliver(payload)).toEqual({ handled: true });
    const money = await w.money(users.asha);
    expect(money.balance).toBe(900 * RUPEES);
    expect(money.entries).toBe(1);
    expect(await w.stores.topups.byId(t._id)).toMatchObject({
      status: 'completed',
      providerPaymentId: t.providerOrderId,
    });
    expect((await w.stores.history.byKey(t.lineId))!.status).toBe('completed');
  });

  it('refuses a tampered body, a wrong secret and an amount that is not the top-up, crediting nothing', async () => {
    const t = await openTopUp(500 * RUPEES);
    const before = await w.money(users.asha);
    const payload = succeeded(t.providerOrderId, t.amount, t._id);
    const richer = payload.replace(`"amount":${t.amount}`, `"amount":${t.amount * 100}`);
    expect((await refusal(deliver(payload, STRIPE_WEBHOOK_SECRET, richer))).code).toBe(
      GrpcStatus.INVALID_ARGUMENT,
    );
    expect((await refusal(deliver(payload, 'whsec_someone_else'))).code).toBe(GrpcStatus.INVALID_ARGUMENT);
    // Correctly signed, but not what this top-up asked for.
    const wrongAmount = succeeded(t.providerOrderId, t.amount + 1, t._id);
    expect(await refusal(deliver(wrongAmount))).toEqual({
      code: GrpcStatus.INVALID_ARGUMENT,
      message: WALLET_MESSAGES.paymentVerificationFailed,
    });
    expect(await w.money(users.asha)).toEqual(before);
    expect(await w.stores.topups.byId(t._id)).toMatchObject({ status: 'created' });
  });

  it('credits a payment that succeeds after its checkout was abandoned, on a new line', async () => {
    const t = await openTopUp(300 * RUPEES);
    const before = await w.money(users.asha);
    await w.topUps.sweep(new Date(Date.now() + 24 * 60 * 60_000 + 1000));
    expect((await w.stores.history.byKey(t.lineId))!.status).toBe('failed');
    expect(await deliver(succeeded(t.providerOrderId, t.amount, t._id))).toEqual({ handled: true });
    expect((await w.money(users.asha)).balance).toBe(before.balance + 300 * RUPEES);
    expect((await w.stores.history.byKey(t.lineId))!.status).toBe('failed');
    expect(await w.stores.history.byKey(`${t.lineId}:late`)).toMatchObject({
      status: 'completed',
      amount: 300 * RUPEES,
      providerPaymentId: t.providerOrderId,
    });
  });

  it("fails the attempt on payment_intent.payment_failed with Stripe's message, and still credits a later success", async () => {
    const t = await openTopUp(400 * RUPEES);
    const before = await w.money(users.asha);
    const failed = JSON.stringify({
      id: `evt_failed_${t.providerOrderId}`,
      object: 'event',
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          id: t.providerOrderId,
          object: 'payment_intent',
          amount: t.amount,
          currency: 'inr',
          status: 'requires_payment_method',
          last_payment_error: { message: 'Your card has insufficient funds.' },
          metadata: { userId: String(users.asha.userId), topUpId: String(t._id) },
        },
      },
    });
    expect(await deliver(failed)).toEqual({ handled: true });
    expect(await deliver(failed)).toEqual({ handled: true });
    expect(await w.stores.history.byKey(t.lineId)).toMatchObject({
      status: 'failed',
      failureReason: 'Your card has insufficient funds.',
    });
    expect(await w.money(users.asha)).toEqual(before);
    // The customer tries another card on the same PaymentIntent, and it succeeds.
    expect(await deliver(succeeded(t.providerOrderId, t.amount, t._id))).toEqual({ handled: true });
    expect((await w.money(users.asha)).balance).toBe(before.balance + 400 * RUPEES);
    expect(await w.stores.history.byKey(`${t.lineId}:late`)).toMatchObject({ status: 'completed' });
  });

  it('ignores events it does not act on and refuses the sandbox checkout', async () => {
    const t = await openTopUp(100 * RUPEES);
    expect(await deliver(succeeded(t.providerOrderId, t.amount, t._id, 'payment_intent.created'))).toEqual({
      handled: false,
    });
    expect(
      await refusal(w.topUps.sandboxPay(users.asha, { orderId: t.providerOrderId, ...cards.ok })),
    ).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.sandboxOnly,
    });
  });
});
