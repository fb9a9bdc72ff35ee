import { type TransferReceivedData, WALLET_SUBJECTS } from '@qm/contracts/events';
import { parseRupees, WALLET_MESSAGES } from '@qm/contracts/rest';
import { startService } from '@qm/platform';
import { eventually, freePort, serviceTestEnv, uniqueName } from '@qm/testkit';
import { walletService } from '@qm/wallet/src/service';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  latestCode,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';

/**
 * The wallet's REST API end to end: a real gateway with real sessions, the real identity service
 * and the real wallet service (sandbox provider) on the local database, NATS and maildev. The sandbox
 * delivers its signed webhook to this gateway, so the webhook route is proven against the wallet's
 * own signature check.
 */
const INTERNAL_TOKEN = 'internal-token-for-the-wallet-gateway-test-0123456789';
const PIN = '246810';

describe('wallet REST API (real gateway, identity and wallet services)', () => {
  let stack: Stack;
  let wallet: Awaited<ReturnType<typeof startService>>;
  let army: Registered;
  let maker: Registered;
  const as = { army: undefined as unknown as Browser, maker: undefined as unknown as Browser };
  const admin = () => new Browser(stack.url);
  let adminBrowser: Browser;

  beforeAll(async () => {
    const walletPort = await freePort();
    stack = await startIdentityStack({
      identity: { INTERNAL_TOKEN },
      gateway: { WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}` },
    });
    wallet = await startService(
      walletService,
      serviceTestEnv(uniqueName('qm_test_wallet_gw'), {
        GRPC_PORT: String(walletPort),
        IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
        INTERNAL_TOKEN,
        SMTP_URL: 'smtp://127.0.0.1:1025',
        WALLET_PROVIDER: 'sandbox',
        WALLET_WEBHOOK_URL: `${stack.url}/api/webhooks/sandbox`,
        WEBHOOK_RETRY_MS: '200',
        WALLET_USER_APPROVED_DURABLE: uniqueName('wallet_gw_test'),
      }),
    );
    adminBrowser = admin();
    expect((await adminBrowser.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
    army = await registerUser(stack, 'WgArmy', 'Army', adminBrowser);
    maker = await registerUser(stack, 'WgMaker', 'Manufacturer', adminBrowser);
    as.army = new Browser(stack.url);
    as.maker = new Browser(stack.url);
    expect((await as.army.login(army.username, army.password)).status).toBe(200);
    expect((await as.maker.login(maker.username, maker.password)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await deleteMailsTo([army?.email, maker?.email].filter(Boolean) as string[]).catch(() => undefined);
    await wallet?.rt.conn.dropDatabase().catch(() => undefined);
    await wallet?.stop().catch(() => undefined);
    await stack?.stop();
  });

  const post = (b: Browser, path: string, body: unknown, headers: Record<string, string> = {}) =>
    b.request('POST', path, body, headers);

  const paiseOf = async (b: Browser) => {
    const parsed = parseRupees((await b.get('/api/wallet')).body.balance as string);
    if (!parsed.ok) throw new Error('balance is not money');
    return parsed.paise;
  };

  /** A sandbox top-up through the checkout: its order and the proof the checkout answers. */
  async function checkout(b: Browser, amount: number | string, card = '4242 4242 4242 4242') {
    const order = await post(b, '/api/create-order', { amount });
    expect(order).toMatchObject({ status: 200, body: { provider: 'sandbox', currency: 'INR' } });
    const paid = await post(b, '/api/sandbox/pay', {
      orderId: order.body.id,
      cardNumber: card,
      expiry: '12/40',
      cvc: '123',
    });
    return { order: order.body, paid };
  }

  it('tops up through the sandbox: the proof credits once, a replay answers the same credit', async () => {
    const { order, paid } = await checkout(as.army, '1000.50');
    expect(paid.status).toBe(200);
    const credit = await post(as.army, '/api/verify-payment', paid.body);
    expect(credit).toMatchObject({
      status: 200,
      body: {
        message: 'Your wallet has been credited.',
        wallet: { balance: '1000.50', availableBalance: '1000.50', currency: 'INR' },
        transaction: { amount: '1000.50', type: 'credit', status: 'completed', providerOrderId: order.id },
      },
    });
    const replay = await post(as.army, '/api/verify-payment', paid.body);
    expect(replay.status).toBe(200);
    expect(replay.body.transaction.id).toBe(credit.body.transaction.id);
    expect((await as.army.get('/api/wallet')).body.balance).toBe('1000.50');
  });

  it("the sandbox's signed webhook reaches the wallet byte for byte through the gateway and credits a closed tab", async () => {
    const { paid } = await checkout(as.maker, 250);
    expect(paid.status).toBe(200);
    // The page never calls verify-payment: only the webhook (signed over its exact bytes) can credit.
    let balance = '';
    for (let i = 0; i < 100 && balance !== '250.00'; i++) {
      balance = (await as.maker.get('/api/wallet')).body.balance;
      if (balance !== '250.00') await new Promise((r) => setTimeout(r, 200));
    }
    expect(balance).toBe('250.00');
  });

  it('forged webhooks and proofs are 400 and credit nothing', async () => {
    const hook = await fetch(`${stack.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': 'f'.repeat(64) },
      body: JSON.stringify({ type: 'payment.succeeded', providerOrderId: 'x', providerPaymentId: 'y' }),
    });
    expect(hook.status).toBe(400);
    const { paid } = await checkout(as.army, 100);
    const forged = await post(as.army, '/api/verify-payment', { ...paid.body, providerSignature: 'forged' });
    expect(forged).toMatchObject({
      status: 400,
      body: { message: WALLET_MESSAGES.paymentVerificationFailed },
    });
    const theirs = await post(as.maker, '/api/verify-payment', paid.body);
    expect(theirs).toMatchObject({
      status: 400,
      body: { message: WALLET_MESSAGES.paymentVerificationFailed },
    });
  });

  it('a declined or underfunded test card is a 402 with the card message', async () => {
    const declined = await checkout(as.army, 100, '4000 0000 0000 0002');
    expect(declined.paid).toMatchObject({ status: 402, body: { message: WALLET_MESSAGES.cardDeclined } });
    const poor = await checkout(as.army, 100, '4000000000009995');
    expect(poor.paid).toMatchObject({
      status: 402,
      body: { message: WALLET_MESSAGES.cardInsufficientFunds },
    });
  });

  it('create-order: the same Idempotency-Key answers the same order; another amount is 409 naming it', async () => {
    const key = { 'Idempotency-Key': uniqueName('order', '-') };
    const first = await post(as.army, '/api/create-order', { amount: 300 }, key);
    const again = await post(as.army, '/api/create-order', { amount: '300.00' }, key);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
    const other = await post(as.army, '/api/create-order', { amount: 400 }, key);
    expect(other).toMatchObject({
      status: 409,
      body: { message: WALLET_MESSAGES.idempotencyMismatch(['amount']) },
    });
  });

  it('PIN by emailed code, then transfers: exact paise, once per key, five wrong PINs lock with 423', async () => {
    expect((await as.army.get('/api/wallet/pin-status')).body).toEqual({ isPinSetup: false });
    const early = await post(as.army, '/api/wallet/transfer', {
      receiverUsername: maker.username,
      amount: 1,
      pin: PIN,
    });
    expect(early).toMatchObject({ status: 409, body: { message: WALLET_MESSAGES.pinSetupFirst } });

    expect((await post(as.army, '/api/wallet/setup-pin', { pin: PIN, confirmPin: PIN })).status).toBe(200);
    const sentAt = Date.now();
    expect((await post(as.army, '/api/wallet/send-otp', undefined)).status).toBe(200);
    const otp = await latestCode(army.email, /wallet PIN code/, sentAt - 1000);
    expect((await post(as.army, '/api/wallet/verify-otp', { otp })).status).toBe(200);
    expect((await as.army.get('/api/wallet/pin-status')).body).toEqual({ isPinSetup: true });

    const eligible = await as.army.get(`/api/check-username-eligibility/${maker.username}`);
    expect(eligible.body).toMatchObject({ eligible: true });
    expect((await as.army.get('/api/check-username-eligibility/admin')).body).toMatchObject({
      eligible: false,
    });

    // Balances move by exact paise from here (the earlier top-ups' webhooks have credited by now).
    const before = { army: await paiseOf(as.army), maker: await paiseOf(as.maker) };
    const key = { 'Idempotency-Key': uniqueName('tr', '-') };
    const body = { receiverUsername: maker.username, amount: '10.25', pin: PIN };
    const received: TransferReceivedData[] = [];
    const unlisten = wallet.rt.bus.listen(WALLET_SUBJECTS.transferReceived, (event) => {
      const data = event.data as TransferReceivedData;
      if (data.receiverId === maker.id) received.push(data);
    });
    const sent = await post(as.army, '/api/wallet/transfer', body, key);
    expect(sent).toMatchObject({
      status: 200,
      body: { message: WALLET_MESSAGES.transferred, transaction: { amount: '10.25', type: 'transfer' } },
    });
    const retried = await post(as.army, '/api/wallet/transfer', body, key);
    expect(retried.body.transaction.id).toBe(sent.body.transaction.id);
    const changed = await post(as.army, '/api/wallet/transfer', { ...body, amount: '10.26' }, key);
    expect(changed).toMatchObject({
      status: 409,
      body: { message: WALLET_MESSAGES.idempotencyMismatch(['amount']) },
    });
    expect(await paiseOf(as.army)).toBe(before.army - 1025);
    expect(await paiseOf(as.maker)).toBe(before.maker + 1025);
    // The receiver's side is on the bus once (the retry answered the first outcome), for the live push.
    await eventually(() => received.length > 0);
    unlisten();
    expect(received).toEqual([
      {
        receiverId: maker.id,
        senderUsername: army.username,
        amountPaise: 1025,
        reference: expect.stringContaining(key['Idempotency-Key']),
      },
    ]);
    const history = await as.maker.get('/api/transactions?pageSize=5');
    expect(history.body.transactions[0]).toMatchObject({ amount: '10.25', counterparty: army.username });

    const tooMuch = await post(as.army, '/api/wallet/transfer', { ...body, amount: '99999' });
    expect(tooMuch).toMatchObject({ status: 409, body: { message: WALLET_MESSAGES.insufficientBalance } });

    for (let left = 4; left >= 1; left--) {
      const wrong = await post(as.army, '/api/wallet/transfer', { ...body, pin: '000000' });
      expect(wrong).toMatchObject({ status: 400, body: { message: WALLET_MESSAGES.wrongPin(left) } });
    }
    const locked = await post(as.army, '/api/wallet/transfer', { ...body, pin: '000000' });
    expect(locked.status).toBe(423);
    expect(locked.body.message).toMatch(/^Too many incorrect PIN attempts\. Transfers are locked until /);
    const right = await post(as.army, '/api/wallet/transfer', body);
    expect(right.status).toBe(423);
    expect(await paiseOf(as.army)).toBe(before.army - 1025);
  });

  it('administrators see every wallet and the totals; others get 403 from the gateway and the service', async () => {
    for (const b of [as.army, as.maker]) {
      expect((await b.get('/api/admin/wallets')).status).toBe(403);
      expect((await b.get('/api/admin/transactions')).status).toBe(403);
    }
    const wallets = await adminBrowser.get('/api/admin/wallets?pageSize=100');
    expect(wallets.status).toBe(200);
    expect(wallets.body.totalBalance).toMatch(/^\d+\.\d{2}$/);
    const txs = await adminBrowser.get('/api/admin/transactions?sort=amount_desc&status=completed');
    expect(txs.status).toBe(200);
    expect(txs.body.transactions.every((t: { status: string }) => t.status === 'completed')).toBe(true);
    expect((await adminBrowser.get('/api/wallet')).body).toEqual({ message: WALLET_MESSAGES.adminNoWallet });
  });
});
