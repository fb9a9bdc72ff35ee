import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import { cards, refusal, startWorld, users, type World } from './topups-harness';
import { expiredReason, historyLineId } from '../src/domain/topups';

const RUPEES = 100;
let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(() => w.stop());

const create = (amountPaise = 500 * RUPEES, caller = users.asha, idempotencyKey = '') =>
  w.topUps.create(caller, { amountPaise, idempotencyKey });

const pay = (orderId: string, card = cards.ok, caller = users.asha) =>
  w.topUps.sandboxPay(caller, { orderId, ...card });

const verify = (
  proof: { providerOrderId: string; providerPaymentId: string; providerSignature: string },
  caller = users.asha,
) => w.topUps.verifyPayment(caller, { ...proof, idempotencyKey: '' });

const lineOf = async (orderId: string) => {
  const t = await w.stores.topups.byProviderOrderId(orderId);
  return (await w.stores.history.byKey(t!.lineId))!;
};

describe('create-order', () => {
  it('accepts 100 to 100000 rupees and refuses anything else with the product reference message', async () => {
    for (const paise of [99_99, 100_000_01, 0, -100, 150.5])
      expect(await refusal(create(paise))).toEqual({
        code: GrpcStatus.INVALID_ARGUMENT,
        message: WALLET_MESSAGES.topUpRange,
      });
    for (const paise of [100 * RUPEES, 100_000 * RUPEES]) {
      const order = await create(paise);
      expect(order).toMatchObject({
        amountPaise: paise,
        currency: 'INR',
        provider: 'sandbox',
        clientSecret: '',
      });
      expect(order.id).toMatch(/^sbx_order_[0-9a-f]{24}$/);
    }
  });

  it('opens the pending credit line the payment later completes, with no lookup first', async () => {
    let order!: Awaited<ReturnType<typeof create>>;
    const sent = await w.operations(async () => {
      order = await create(250 * RUPEES);
    });
    // The top-up's id is new, so is its line: nothing to look up before writing it.
    expect(sent.filter(({ op }) => op.startsWith('transactions.find'))).toEqual([]);
    expect(await lineOf(order.id)).toMatchObject({
      userId: users.asha.userId,
      amount: 250 * RUPEES,
      type: 'credit',
      status: 'pending',
      description: 'Added money via Sandbox',
      providerOrderId: order.id,
    });
  });

  it('refuses administrators (they have no wallet) and answers a retried key with the same order', async () => {
    expect(await refusal(create(500 * RUPEES, users.admin))).toEqual({
      code: GrpcStatus.PERMISSION_DENIED,
      message: WALLET_MESSAGES.adminNoWallet,
    });
    const first = await create(700 * RUPEES, users.asha, 'key-create-1');
    expect(await create(700 * RUPEES, users.asha, 'key-create-1')).toEqual(first);
    expect((await refusal(create(800 * RUPEES, users.asha, 'key-create-1'))).code).toBe(
      GrpcStatus.FAILED_PRECONDITION,
    );
  });
});

describe('sandbox checkout', () => {
  it('charges 4242…, answers a signed proof, and answers the same payment when paid again', async () => {
    const order = await create();
    const proof = await pay(order.id);
    expect(proof.providerOrderId).toBe(order.id);
    expect(proof.providerPaymentId).toMatch(/^sbx_pay_[0-9a-f]{24}$/);
    expect(proof.providerSignature).toBe(w.providers.sandbox.sign(order.id, proof.providerPaymentId));
    expect(await pay(order.id)).toEqual(proof);
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({
      status: 'paid',
      providerPaymentId: proof.providerPaymentId,
    });
    // Its webhook is recorded before the proof is answered.
    expect(await w.providers.deliveries.byId(proof.providerPaymentId)).toMatchObject({ state: 'pending' });
  });

  it("fails the attempt at once when the card is declined, in the provider's words; another card still pays it, on a new line", async () => {
    const order = await create(250 * RUPEES);
    const before = await w.money(users.asha);
    expect(await refusal(pay(order.id, cards.declined))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardDeclined,
    });
    // Failed now, not pending until some sweep: never shown as money on its way.
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({
      status: 'failed',
      failureReason: WALLET_MESSAGES.cardDeclined,
    });
    expect(await lineOf(order.id)).toMatchObject({
      status: 'failed',
      failureReason: WALLET_MESSAGES.cardDeclined,
    });
    // A second refusal changes nothing; the first reason stays on the line.
    expect(await refusal(pay(order.id, cards.insufficient))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardInsufficientFunds,
    });
    expect((await lineOf(order.id)).failureReason).toBe(WALLET_MESSAGES.cardDeclined);
    expect(await w.money(users.asha)).toEqual(before);
    // The user tries another card in the same checkout: credited once, on a line of its own.
    const proof = await pay(order.id);
    const { account, line } = await w.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: '' });
    expect(account.balance).toBe(before.balance + 250 * RUPEES);
    expect(line).toMatchObject({
      _id: `${historyLineId((await w.stores.topups.byProviderOrderId(order.id))!._id)}:late`,
      status: 'completed',
    });
    const t = (await w.stores.topups.byProviderOrderId(order.id))!;
    expect((await w.stores.history.byKey(historyLineId(t._id)))!.status).toBe('failed');
  });

  it('refuses a number failing the Luhn check, a malformed or past expiry and a bad CVC', async () => {
    const order = await create();
    const cases: [typeof cards.ok, number, string][] = [
      [
        { ...cards.ok, cardNumber: '4242 4242 4242 4241' },
        GrpcStatus.INVALID_ARGUMENT,
        WALLET_MESSAGES.cardNumberInvalid,
      ],
      [{ ...cards.ok, cardNumber: '4242' }, GrpcStatus.INVALID_ARGUMENT, WALLET_MESSAGES.cardNumberInvalid],
      [{ ...cards.ok, expiry: '13/30' }, GrpcStatus.INVALID_ARGUMENT, WALLET_MESSAGES.cardExpiryInvalid],
      [{ ...cards.ok, cvc: '12' }, GrpcStatus.INVALID_ARGUMENT, WALLET_MESSAGES.cardCvcInvalid],
    ];
    for (const [card, code, message] of cases)
      expect(await refusal(pay(order.id, card))).toEqual({ code, message });
    // A mistyped card is the user's to correct: the attempt stays open.
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({ status: 'created' });
    // An expired card is the bank's refusal, as with Stripe: the attempt fails.
    expect(await refusal(pay(order.id, { ...cards.ok, expiry: '01/20' }))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardExpired,
    });
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({
      status: 'failed',
      failureReason: WALLET_MESSAGES.cardExpired,
    });
  });

  it("reveals nothing of another user's order or an unknown one", async () => {
    const order = await create();
    const failed = { code: GrpcStatus.INVALID_ARGUMENT, message: WALLET_MESSAGES.paymentVerificationFailed };
    expect(await refusal(pay(order.id, cards.ok, users.ravi))).toEqual(failed);
    expect(await refusal(pay('sbx_order_nosuchorder'))).toEqual(failed);
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({ status: 'created' });
  });
});

describe('verify-payment', () => {
  it('credits the wallet once: the line completes, the entries match, a replayed proof adds nothing', async () => {
    const before = await w.money(users.ravi);
    const order = await create(1234 * RUPEES, users.ravi);
    const proof = await pay(order.id, cards.ok, users.ravi);
    const { account, line } = await verify(proof, users.ravi);
    expect(account.balance).toBe(before.balance + 1234 * RUPEES);
    expect(line).toMatchObject({
      status: 'completed',
      amount: 1234 * RUPEES,
      providerOrderId: order.id,
      providerPaymentId: proof.providerPaymentId,
    });
    for (let i = 0; i < 3; i++) await verify(proof, users.ravi);
    await w.topUps.handleWebhook({
      provider: 'sandbox',
      ...(() => {
        const hook = w.providers.sandbox.webhookFor(order.id, proof.providerPaymentId);
        return { payload: Buffer.from(hook.body), signature: hook.signature };
      })(),
    });
    const after = await w.money(users.ravi);
    expect(after.balance).toBe(before.balance + 1234 * RUPEES);
    expect(after.entries).toBe(before.entries + 1);
    expect(after.entriesSum).toBe(after.balance);
    expect(await w.stores.topups.byProviderOrderId(order.id)).toMatchObject({ status: 'completed' });
  });

  it("refuses a forged signature, another user's order and an unknown order, crediting nothing", async () => {
    const order = await create(300 * RUPEES);
    const proof = await pay(order.id);
    const before = await w.money(users.asha);
    const failed = { code: GrpcStatus.INVALID_ARGUMENT, message: WALLET_MESSAGES.paymentVerificationFailed };
    const forged = w.providers.sandbox.sign(order.id, 'sbx_pay_forged');
    for (const attempt of [
      verify({ ...proof, providerSignature: '0'.repeat(64) }),
      verify({ ...proof, providerSignature: '' }),
      // A genuine signature over a payment the sandbox never made for this order.
      verify({ ...proof, providerPaymentId: 'sbx_pay_forged', providerSignature: forged }),
      verify(proof, users.ravi),
      verify({ ...proof, providerOrderId: 'sbx_order_unknown' }),
    ])
      expect(await refusal(attempt)).toEqual(failed);
    expect(await w.money(users.asha)).toEqual(before);
    expect((await lineOf(order.id)).status).toBe('pending');
  });

  it('asks the database only what a credit needs: no second claim, the clearing account once, the wallet twice, a credited webhook one read', async () => {
    await verify(await pay((await create(100 * RUPEES)).id));
    const order = await create(200 * RUPEES);
    const proof = await pay(order.id);
    const hook = w.providers.sandbox.webhookFor(order.id, proof.providerPaymentId);
    const onPage = await w.operations(() => verify(proof));
    const onWebhook = await w.operations(() =>
      w.topUps.handleWebhook({
        provider: 'sandbox',
        payload: Buffer.from(hook.body),
        signature: hook.signature,
      }),
    );
    const onTopUps = onPage.filter(({ op }) => op.startsWith('topups.')).map(({ op }) => op);
    // Its read, the lease and the completion: the payment was claimed by the checkout already.
    expect(onTopUps).toEqual(['topups.findOne', 'topups.findOneAndUpdate', 'topups.findOneAndUpdate']);
    const clearingReads = onPage.filter(
      ({ op, filter }) => op === 'accounts.findOne' && JSON.stringify(filter).includes('provider:'),
    );
    expect(clearingReads).toEqual([]);
    // The wallet: once by the credit, once for the answer; the checkout opened it already.
    const walletReads = onPage.filter(
      ({ op, filter }) =>
        op === 'accounts.findOne' && JSON.stringify(filter).includes(`user:${users.asha.userId}`),
    );
    expect(walletReads).toHaveLength(2);
    expect(onWebhook.map(({ op }) => op)).toEqual(['topups.findOne']);
    expect((await lineOf(order.id)).status).toBe('completed');
  });

  it('is idempotent with its key: the retry answers the first outcome', async () => {
    const order = await create(400 * RUPEES);
    const proof = await pay(order.id);
    const first = await w.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: 'verify-key-1' });
    const again = await w.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: 'verify-key-1' });
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
  });
});

describe('page and webhook racing for one payment', () => {
  it('credit exactly once, every time, whatever arrives first and however often', async () => {
    const caller = users.ravi;
    const start = await w.money(caller);
    const rounds = Number(process.env.RACE_ROUNDS ?? 12);
    let total = 0;
    for (let round = 0; round < rounds; round++) {
      const amount = (100 + round) * RUPEES;
      total += amount;
      const order = await create(amount, caller);
      const proof = await pay(order.id, cards.ok, caller);
      const hook = w.providers.sandbox.webhookFor(order.id, proof.providerPaymentId);
      const webhook = () =>
        w.topUps.handleWebhook({
          provider: 'sandbox',
          payload: Buffer.from(hook.body),
          signature: hook.signature,
        });
      const page = () => w.topUps.verifyPayment(caller, { ...proof, idempotencyKey: '' });
      const results = await Promise.all([page(), webhook(), webhook(), page(), webhook(), page()]);
      expect(results.filter((r) => 'handled' in r && r.handled).length).toBe(3);
      const line = await lineOf(order.id);
      expect(line.status).toBe('completed');
      const transfers = await w.stores.transfers.model.find({
        key: `topup:sandbox:${proof.providerPaymentId}`,
      });
      expect(transfers).toHaveLength(1);
      expect(transfers[0]!.state).toBe('posted');
    }
    const end = await w.money(caller);
    expect(end.balance - start.balance).toBe(total);
    expect(end.entries - start.entries).toBe(rounds);
    expect(end.entriesSum).toBe(end.balance);
    const account = await w.stores.accounts.markers(`user:${caller.userId}`);
    // Markers stay for a while after settling (ADR 006); none may belong to an unsettled transfer.
    const ids = account!.applied.map((m) => m.slice(0, m.lastIndexOf(':')));
    expect(await w.stores.transfers.model.countDocuments({ _id: { $in: ids }, settled: false })).toBe(0);
  });
});

describe('a credit in progress', () => {
  it('is left to its crediter while its lease lasts, and taken over when it lapses (the crediter died)', async () => {
    const leased = await startWorld({}, { creditLeaseMs: 1500 });
    try {
      const order = await leased.topUps.create(users.asha, { amountPaise: 100 * RUPEES, idempotencyKey: '' });
      const proof = await leased.topUps.sandboxPay(users.asha, { orderId: order.id, ...cards.ok });
      const t = await leased.stores.topups.byProviderOrderId(order.id);
      // Another caller took the lease and died before posting.
      expect(await leased.stores.topups.lease(t!._id, 1500)).not.toBeNull();
      const started = Date.now();
      const verified = leased.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: '' });
      await new Promise((r) => setTimeout(r, 500));
      expect(await leased.stores.transfers.byKey(`topup:sandbox:${proof.providerPaymentId}`)).toBeNull();
      const { account, line } = await verified;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(account.balance).toBe(100 * RUPEES);
      expect(line.status).toBe('completed');
    } finally {
      await leased.stop();
    }
  });
});

describe('unpaid checkouts', () => {
  it('expire after 30 minutes, their line failed as "Expired: …"; a paid one is credited by the sweep', async () => {
    const open = await create(150 * RUPEES);
    const paidOnly = await create(160 * RUPEES);
    const proof = await pay(paidOnly.id);
    const before = await w.money(users.asha);
    // Nothing expires before its time.
    expect((await w.topUps.sweep(new Date(Date.now() + 29 * 60_000))).expired).toBe(0);
    expect((await lineOf(open.id)).status).toBe('pending');
    const swept = await w.topUps.sweep(new Date(Date.now() + 30 * 60_000 + 1000));
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(await w.stores.topups.byProviderOrderId(open.id)).toMatchObject({ status: 'expired' });
    expect(await lineOf(open.id)).toMatchObject({ status: 'failed', failureReason: expiredReason(30) });
    expect(expiredReason(30)).toBe('Expired: the checkout was not completed within 30 minutes');
    expect(await refusal(pay(open.id))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.checkoutExpired,
    });
    // The paid one was never verified nor its webhook delivered: the sweep credits it.
    expect(await w.stores.topups.byProviderOrderId(paidOnly.id)).toMatchObject({ status: 'completed' });
    expect((await w.money(users.asha)).balance).toBeGreaterThanOrEqual(before.balance + 160 * RUPEES);
    expect((await lineOf(paidOnly.id)).providerPaymentId).toBe(proof.providerPaymentId);
  });

  it('finish the line of an attempt that failed while the process died before closing it', async () => {
    const order = await create(170 * RUPEES);
    const t = (await w.stores.topups.byProviderOrderId(order.id))!;
    // The top-up is failed, the crash came before its line was.
    await w.stores.topups.fail(t._id, 'failed', WALLET_MESSAGES.cardDeclined);
    expect((await lineOf(order.id)).status).toBe('pending');
    const asked = await w.operations(() => w.topUps.sweep(new Date()));
    // By the one equality only unclosed lines carry, not by status: that would answer every failed
    // or expired top-up ever made (ADR 004).
    const finds = asked.filter(({ op }) => op === 'topups.find').map(({ filter }) => filter);
    expect(finds).toContainEqual({ lineClosed: false });
    expect(finds.filter((f) => ['failed', 'expired'].includes((f as { status?: string }).status!))).toEqual(
      [],
    );
    expect(await lineOf(order.id)).toMatchObject({
      status: 'failed',
      failureReason: WALLET_MESSAGES.cardDeclined,
    });
    expect(await w.stores.topups.byId(t._id)).toMatchObject({ lineClosed: true });
  });
});
