import { randomBytes } from 'node:crypto';
import { type RunningService, startService } from '@qm/platform';
import { freePort, serviceTestEnv, uniqueName } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  latestCode,
  registerUser,
  type Registered,
  startIdentityStack,
  type Stack,
} from '@qm/testkit/src/identity-stack';
import { walletService } from '@qm/wallet/src/service';

/**
 * The wallet end to end through the real gateway, identity (Keycloak, maildev) and wallet services:
 * top-up through the sandbox, the PIN with its emailed code, eligibility, transfers, the PIN lock,
 * idempotency keys and both users' histories (docs/adr/006, docs/adr/007).
 */
const INTERNAL_TOKEN = randomBytes(24).toString('hex');
let stack: Stack;
let wallet: RunningService<unknown>;
let admin: Browser;
const emails: string[] = [];

beforeAll(async () => {
  const walletPort = await freePort();
  stack = await startIdentityStack({
    identity: { INTERNAL_TOKEN },
    gateway: { WALLET_GRPC_ADDR: `127.0.0.1:${walletPort}` },
  });
  wallet = (await startService(
    walletService,
    serviceTestEnv(uniqueName('qm_test_wallet_journey'), {
      GRPC_PORT: String(walletPort),
      INTERNAL_TOKEN,
      IDENTITY_GRPC_ADDR: `127.0.0.1:${stack.identity.port}`,
      WALLET_USER_APPROVED_DURABLE: uniqueName('wallet-approved-journey', '-'),
      WALLET_WEBHOOK_URL: `${stack.url}/api/webhooks/sandbox`,
      WEBHOOK_RETRY_MS: '500',
    }),
  )) as RunningService<unknown>;
  admin = new Browser(stack.url);
  expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await deleteMailsTo(emails).catch(() => undefined);
  await wallet?.rt.conn.dropDatabase().catch(() => undefined);
  await wallet?.stop();
  await stack?.stop();
});

async function signedIn(prefix: string): Promise<{ user: Registered; b: Browser }> {
  const user = await registerUser(stack, prefix, 'Army', admin);
  emails.push(user.email);
  const b = new Browser(stack.url);
  expect((await b.login(user.username, user.password)).status).toBe(200);
  return { user, b };
}

async function topUp(b: Browser, amount: string) {
  const order = await b.post('/api/create-order', { amount });
  expect(order.status).toBe(200);
  const proof = await b.post('/api/sandbox/pay', {
    orderId: order.body.id,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/39',
    cvc: '123',
  });
  expect(proof.status).toBe(200);
  const verified = await b.post('/api/verify-payment', proof.body);
  expect(verified.status).toBe(200);
  return verified;
}

async function setPin(b: Browser, user: Registered, pin: string) {
  expect((await b.post('/api/wallet/setup-pin', { pin, confirmPin: pin })).status).toBe(200);
  const sentAfter = Date.now();
  expect((await b.post('/api/wallet/send-otp', {})).status).toBe(200);
  const code = await latestCode(user.email, /wallet PIN/i, sentAfter - 1000);
  const verified = await b.post('/api/wallet/verify-otp', { otp: code });
  expect(verified.status).toBe(200);
  expect(verified.body.message).toBe('PIN setup completed successfully. You can now make transactions.');
}

describe('the wallet through the gateway', () => {
  let alice: { user: Registered; b: Browser };
  let bob: { user: Registered; b: Browser };

  beforeAll(async () => {
    alice = await signedIn('WalAlice');
    bob = await signedIn('WalBob');
  }, 120_000);

  it('tops up through the sandbox; a declined card credits nothing', async () => {
    const order = await alice.b.post('/api/create-order', { amount: '500' });
    const declined = await alice.b.post('/api/sandbox/pay', {
      orderId: order.body.id,
      cardNumber: '4000 0000 0000 0002',
      expiry: '12/39',
      cvc: '123',
    });
    expect([declined.status, declined.body.message]).toEqual([402, 'Your card was declined.']);
    const done = await topUp(alice.b, '1000.50');
    expect(done.body.wallet.balance).toBe('1000.50');
    expect((await alice.b.get('/api/wallet')).body.balance).toBe('1000.50');
  });

  it('sets the PIN only with the emailed code', async () => {
    expect((await alice.b.get('/api/wallet/pin-status')).body).toEqual({ isPinSetup: false });
    expect(
      (await alice.b.post('/api/wallet/setup-pin', { pin: '246810', confirmPin: '246810' })).status,
    ).toBe(200);
    expect((await alice.b.get('/api/wallet/pin-status')).body).toEqual({ isPinSetup: false });
    expect((await alice.b.post('/api/wallet/send-otp', {})).status).toBe(200);
    const wrong = await alice.b.post('/api/wallet/verify-otp', { otp: '000000' });
    expect(wrong.status).toBe(400);
    await setPinAfterWait(alice);
    expect((await alice.b.get('/api/wallet/pin-status')).body).toEqual({ isPinSetup: true });
  }, 60_000);

  // The resend cooldown is 30 s: the code just sent is used instead of a new one.
  async function setPinAfterWait(who: { user: Registered; b: Browser }) {
    const code = await latestCode(who.user.email, /wallet PIN/i);
    const ok = await who.b.post('/api/wallet/verify-otp', { otp: code });
    expect(ok.status).toBe(200);
    const reused = await who.b.post('/api/wallet/verify-otp', { otp: code });
    expect(reused.status).toBe(409);
  }

  it('checks eligibility: self, unknown, admin, and an approved user', async () => {
    const check = async (name: string) => (await alice.b.get(`/api/check-username-eligibility/${name}`)).body;
    expect(await check(alice.user.username)).toMatchObject({ eligible: false });
    expect(await check('nobody-' + randomBytes(4).toString('hex'))).toMatchObject({ eligible: false });
    expect(await check('admin')).toMatchObject({ eligible: false });
    expect(await check(bob.user.username)).toEqual({
      eligible: true,
      message: 'User is eligible for transfers',
    });
  });

  it('transfers exact paise once per Idempotency-Key; both histories show it', async () => {
    const body = { receiverUsername: bob.user.username, amount: '123.45', pin: '246810' };
    const headers = { 'Idempotency-Key': `t-${randomBytes(6).toString('hex')}` };
    const first = await alice.b.request('POST', '/api/wallet/transfer', body, headers);
    expect([first.status, first.body.message]).toEqual([200, 'Money transferred successfully']);
    const replay = await alice.b.request('POST', '/api/wallet/transfer', body, headers);
    expect(replay.status).toBe(200);
    expect(replay.body.transaction.id).toBe(first.body.transaction.id);
    const other = await alice.b.request('POST', '/api/wallet/transfer', { ...body, amount: '1.00' }, headers);
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/different amount/);

    expect((await alice.b.get('/api/wallet')).body.balance).toBe('877.05');
    expect((await bob.b.get('/api/wallet')).body.balance).toBe('123.45');
    const received = (await bob.b.get('/api/transactions')).body.transactions[0];
    expect(received).toMatchObject({
      type: 'credit',
      status: 'completed',
      amount: '123.45',
      counterparty: alice.user.username,
    });
    const sent = (await alice.b.get('/api/transactions')).body.transactions[0];
    expect(sent).toMatchObject({
      type: 'transfer',
      status: 'completed',
      amount: '123.45',
      counterparty: bob.user.username,
    });
  });

  it('refuses more than the balance and keeps it', async () => {
    const res = await alice.b.post('/api/wallet/transfer', {
      receiverUsername: bob.user.username,
      amount: '877.06',
      pin: '246810',
    });
    expect([res.status, res.body.message]).toEqual([409, 'Insufficient wallet balance']);
    expect((await alice.b.get('/api/wallet')).body.balance).toBe('877.05');
  });

  it('five wrong PINs lock transfers for 15 minutes, even with the right PIN (423)', async () => {
    await topUp(bob.b, '100');
    await setPin(bob.b, bob.user, '135791');
    const send = (pin: string) =>
      bob.b.post('/api/wallet/transfer', { receiverUsername: alice.user.username, amount: '1', pin });
    // A right PIN first: the lock below must hold although this process now knows the PIN.
    expect((await send('135791')).status).toBe(200);
    for (let i = 1; i <= 4; i++) {
      const res = await send('000000');
      expect([res.status, res.body.message]).toEqual([
        400,
        `Incorrect PIN. ${5 - i} ${5 - i === 1 ? 'attempt' : 'attempts'} left.`,
      ]);
    }
    const locked = await send('000000');
    expect(locked.status).toBe(423);
    expect(locked.body.message).toMatch(/locked until \d{4}-\d\d-\d\dT/);
    const right = await send('135791');
    expect(right.status).toBe(423);
    expect((await bob.b.get('/api/wallet')).body.balance).toBe('222.45');
  }, 60_000);

  it('shows the admin every wallet and transaction; others get 403', async () => {
    expect((await alice.b.get('/api/admin/transactions')).status).toBe(403);
    const list = await admin.get('/api/admin/transactions?sort=amount_desc&pageSize=100');
    expect(list.status).toBe(200);
    expect(list.body.completedCount).toBeGreaterThanOrEqual(4);
    const wallets = await admin.get('/api/admin/wallets?pageSize=100');
    const names = wallets.body.wallets.map((w: { username: string }) => w.username);
    expect(names).toEqual(expect.arrayContaining([alice.user.username, bob.user.username]));
    expect((await admin.get('/api/wallet')).status).toBe(403);
  });
});
