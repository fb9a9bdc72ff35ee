import { walletV1 } from '@qm/contracts/grpc';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import {
  AppError,
  conflict,
  createGrpcServer,
  DEV_CALLER_VERIFY_KEY,
  GrpcStatus,
  invalid,
  tooMany,
  type GrpcServer,
  type RequestContext,
  type UnaryImpl,
  verifyKeyFrom,
} from '@qm/platform';
import { headerSessions, json, log, startGateway } from '@qm/testkit/src/gateway';

/**
 * The gateway's wallet routes in front of a real gRPC server on loopback whose answers each test
 * sets: what reaches the service (paise, enums, the Idempotency-Key, a webhook's exact bytes), what
 * never does (bad input, callers without access), and how its refusals become HTTP statuses. The
 * wallet's own rules are tested against the real service (wallet.*.int.test.ts).
 */
const army = { userId: 7, username: 'sepoy', roles: ['Army' as const] };
const admin = { userId: 1, username: 'admin', roles: ['Admin' as const] };

type Impl = UnaryImpl<typeof walletV1.WalletServiceService>;
type Method = keyof Impl;

const wallet: walletV1.Wallet = {
  id: 3,
  userId: 7,
  balancePaise: 123450,
  heldPaise: 2500,
  availablePaise: 120950,
  currency: 'INR',
  isActive: true,
  isPinSetup: true,
  lastTransactionAt: '',
  createdAt: '2026-11-23T10:00:00.000Z',
  username: 'sepoy',
};
const transaction: walletV1.Transaction = {
  id: 11,
  userId: 7,
  amountPaise: 10005,
  type: walletV1.TransactionType.TRANSACTION_TYPE_TRANSFER,
  status: walletV1.TransactionStatus.TRANSACTION_STATUS_COMPLETED,
  description: 'Transfer to havildar',
  providerOrderId: '',
  providerPaymentId: '',
  senderWalletId: 3,
  receiverWalletId: 0,
  transferReference: 'tr_1',
  createdAt: '2026-11-23T10:01:00.000Z',
  updatedAt: '2026-11-23T10:01:00.000Z',
  counterparty: 'havildar',
  failureReason: '',
};

/** Default answers; a test replaces one with `answer(method, fn)`. */
const defaults: Impl = {
  getWallet: async () => ({
    wallet,
    proceedsOnHoldPaise: 250_050,
    heldProceeds: [
      {
        reference: 'order-7',
        amountPaise: 250_050,
        releaseAt: '2026-11-30T10:00:00.000Z',
        refundRequested: true,
      },
    ],
  }),
  listTransactions: async () => ({ transactions: [transaction], total: 41 }),
  createTopUp: async (r) => ({
    id: 'sbx_order_1',
    amountPaise: r.amountPaise,
    currency: 'INR',
    provider: 'sandbox',
    clientSecret: '',
    publishableKey: '',
    expiresAt: '2026-11-23T10:31:00.000Z',
  }),
  sandboxPay: async (r) => ({
    providerOrderId: r.orderId,
    providerPaymentId: 'sbx_pay_1',
    providerSignature: 'sig',
  }),
  verifyPayment: async () => ({ wallet, transaction }),
  handleProviderWebhook: async () => ({ handled: true }),
  getPinStatus: async () => ({ isPinSetup: false }),
  setupPin: async () => ({ message: 'PIN recorded' }),
  sendPinOtp: async () => ({ message: 'OTP sent' }),
  verifyPinOtp: async () => ({ message: 'PIN set' }),
  checkEligibility: async () => ({ eligible: true, message: 'Eligible' }),
  transfer: async () => ({ message: WALLET_MESSAGES.transferred, wallet, transaction }),
  paySale: async () => ({}),
  cancelSalePayment: async () => ({}),
  createPendingTransfer: async () => ({}),
  postPendingTransfer: async () => ({}),
  voidPendingTransfer: async () => ({}),
  holdSaleProceeds: async () => ({ held: true }),
  unholdSaleProceeds: async () => ({}),
  refundSale: async () => ({ source: 'escrow', amountPaise: 0 }),
  listWallets: async () => ({ wallets: [wallet], total: 1, totalBalancePaise: 123450 }),
  getMoneyStats: async () => ({ days: [] }),
  listAllTransactions: async () => ({
    transactions: [transaction],
    total: 1,
    pendingCount: 2,
    completedCount: 3,
    failedCount: 4,
    totalBalancePaise: 99999999999,
    completedAmountPaise: 5000_00,
  }),
};

async function fakeWallet() {
  const grpc: GrpcServer = createGrpcServer(log, {
    internalToken: 'internal-token-for-gateway-tests-0123',
    name: 'wallet',
    callerKey: verifyKeyFrom(DEV_CALLER_VERIFY_KEY),
  });
  const calls: { method: Method; request: unknown; ctx: RequestContext }[] = [];
  const overrides: Partial<Record<Method, (request: never) => Promise<unknown>>> = {};
  const impl = Object.fromEntries(
    (Object.keys(defaults) as Method[]).map((m) => [
      m,
      async (request: never, ctx: RequestContext) => {
        calls.push({ method: m, request, ctx });
        return (overrides[m] ?? defaults[m])(request, ctx as never);
      },
    ]),
  ) as Impl;
  grpc.add('qm.wallet.v1.WalletService', walletV1.WalletServiceService, impl);
  const port = await grpc.listen(0, '127.0.0.1');
  grpc.setServing(true);
  return { grpc, port, calls, overrides };
}

describe('wallet routes → gRPC (a real gRPC server on loopback)', () => {
  let svc: Awaited<ReturnType<typeof fakeWallet>>;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const answer = <M extends Method>(m: M, fn: (request: Parameters<Impl[M]>[0]) => Promise<unknown>) => {
    svc.overrides[m] = fn as never;
  };
  const lastCall = (m: Method) => svc.calls.filter((c) => c.method === m).at(-1);

  async function call(
    method: string,
    path: string,
    opts: { as?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const res = await fetch(`${gw.url}${path}`, {
      method,
      headers: {
        ...(opts.as ? { 'x-test-user': opts.as } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return { status: res.status, body: await json(res).catch(() => undefined), headers: res.headers };
  }

  beforeAll(async () => {
    svc = await fakeWallet();
    gw = await startGateway({ WALLET_GRPC_ADDR: `127.0.0.1:${svc.port}` }, headerSessions({ army, admin }));
  });
  afterAll(async () => {
    await gw.stop();
    await svc.grpc.close();
  });
  beforeEach(() => {
    svc.calls.length = 0;
    for (const k of Object.keys(svc.overrides)) delete svc.overrides[k as Method];
  });

  describe('views: paise become two-decimal strings, enums names, 0 ids null', () => {
    it('GET /api/wallet records nothing (not even with ?view=1); POST /api/wallet/views does', async () => {
      const res = await call('GET', '/api/wallet', { as: 'army' });
      expect(res).toMatchObject({
        status: 200,
        body: {
          balance: '1234.50',
          heldBalance: '25.00',
          availableBalance: '1209.50',
          currency: 'INR',
          isActive: true,
          isPinSetup: true,
          proceedsOnHold: '2500.50',
          heldProceeds: [
            {
              reference: 'order-7',
              amount: '2500.50',
              releaseAt: '2026-11-30T10:00:00.000Z',
              refundRequested: true,
            },
          ],
        },
      });
      expect(lastCall('getWallet')).toMatchObject({ request: { recordView: false }, ctx: { caller: army } });
      // A GET has no effect, whatever a cross-site link adds to it.
      expect((await call('GET', '/api/wallet?view=1', { as: 'army' })).status).toBe(200);
      expect(lastCall('getWallet')?.request).toEqual({ recordView: false });
      const viewed = await call('POST', '/api/wallet/views', { as: 'army' });
      expect(viewed).toMatchObject({ status: 200, body: { balance: '1234.50', isPinSetup: true } });
      expect(lastCall('getWallet')?.request).toEqual({ recordView: true });
    });

    it('GET /api/transactions: paging and the status filter reach the service', async () => {
      const res = await call('GET', '/api/transactions?page=2&pageSize=5&status=completed', { as: 'army' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        transactions: [
          {
            id: 11,
            userId: 7,
            createdAt: '2026-11-23T10:01:00.000Z',
            updatedAt: '2026-11-23T10:01:00.000Z',
            description: 'Transfer to havildar',
            amount: '100.05',
            type: 'transfer',
            status: 'completed',
            counterparty: 'havildar',
            transferReference: 'tr_1',
            providerOrderId: '',
            providerPaymentId: '',
            senderWalletId: 3,
            receiverWalletId: null,
            failureReason: '',
          },
        ],
        total: 41,
        page: 2,
        pageSize: 5,
      });
      expect(lastCall('listTransactions')?.request).toEqual({
        page: 2,
        pageSize: 5,
        status: walletV1.TransactionStatus.TRANSACTION_STATUS_COMPLETED,
      });
      await call('GET', '/api/transactions', { as: 'army' });
      expect(lastCall('listTransactions')?.request).toEqual({
        page: 1,
        pageSize: 20,
        status: walletV1.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
      });
    });

    it('admin lists: totals as money, sort and status as enums', async () => {
      const wallets = await call('GET', '/api/admin/wallets?page=1&pageSize=100&search=%20sep%20', {
        as: 'admin',
      });
      expect(lastCall('listWallets')?.request).toEqual({ page: 1, pageSize: 100, search: 'sep' });
      expect(wallets.body).toEqual({
        wallets: [
          {
            id: 3,
            userId: 7,
            username: 'sepoy',
            balance: '1234.50',
            heldBalance: '25.00',
            currency: 'INR',
            isActive: true,
            isPinSetup: true,
            lastTransactionAt: null,
            createdAt: '2026-11-23T10:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 100,
        totalBalance: '1234.50',
      });
      const txs = await call('GET', '/api/admin/transactions?status=pending&sort=amount_asc&userId=7', {
        as: 'admin',
      });
      expect(txs.body).toMatchObject({
        total: 1,
        page: 1,
        pageSize: 20,
        pendingCount: 2,
        completedCount: 3,
        failedCount: 4,
        totalBalance: '999999999.99',
        completedAmount: '5000.00',
      });
      expect(lastCall('listAllTransactions')?.request).toEqual({
        page: 1,
        pageSize: 20,
        status: walletV1.TransactionStatus.TRANSACTION_STATUS_PENDING,
        sort: walletV1.TransactionSort.TRANSACTION_SORT_AMOUNT_ASC,
        userId: 7,
      });
    });
  });

  describe('money in: exact paise from the decimal text, never through a float', () => {
    it.each([
      ['100', 10000],
      ['1250.5', 125050],
      ['  99999.99 ', 9999999],
      [100000, 10000000],
      [100.1, 10010],
      ['0100.10', 10010],
      // Leading zeros are taken as the value they pad (once refused: "must be between ₹100 and ₹100,000").
      ['000000000000229.68', 22968],
      ['0000000000100000', 10000000],
    ])('create-order amount %j is %d paise', async (amount, paise) => {
      const res = await call('POST', '/api/create-order', { as: 'army', body: { amount } });
      expect(res).toMatchObject({
        status: 200,
        body: { id: 'sbx_order_1', currency: 'INR', provider: 'sandbox' },
      });
      expect(res.body).not.toHaveProperty('clientSecret');
      expect(lastCall('createTopUp')?.request).toEqual({ amountPaise: paise, idempotencyKey: '' });
    });

    it.each([
      ['0.01', 1],
      ['1234.56', 123456],
      [0.29, 29],
      ['99999999.99', 9999999999],
      ['0000000000099999999.99', 9999999999],
    ])('transfer amount %j is %d paise', async (amount, paise) => {
      const res = await call('POST', '/api/wallet/transfer', {
        as: 'army',
        body: { receiverUsername: ' havildar ', amount, pin: '123456' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: 'Money transferred successfully',
        wallet: { balance: '1234.50' },
      });
      expect(lastCall('transfer')?.request).toEqual({
        receiverUsername: 'havildar',
        amountPaise: paise,
        pin: '123456',
        idempotencyKey: '',
      });
    });

    it("Stripe's order carries its client secret and publishable key", async () => {
      answer('createTopUp', async (r) => ({
        id: 'pi_1',
        amountPaise: r.amountPaise,
        currency: 'INR',
        provider: 'stripe',
        clientSecret: 'pi_1_secret_x',
        publishableKey: 'pk_test_1',
        expiresAt: '2026-11-23T10:31:00.000Z',
      }));
      const res = await call('POST', '/api/create-order', { as: 'army', body: { amount: 500 } });
      expect(res.body).toEqual({
        id: 'pi_1',
        amount: '500.00',
        currency: 'INR',
        provider: 'stripe',
        clientSecret: 'pi_1_secret_x',
        publishableKey: 'pk_test_1',
        expiresAt: '2026-11-23T10:31:00.000Z',
      });
    });

    it('verify-payment answers the credit with the product reference message', async () => {
      const res = await call('POST', '/api/verify-payment', {
        as: 'army',
        body: { providerOrderId: 'o1', providerPaymentId: 'p1', providerSignature: 's1' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ message: 'Your wallet has been credited.', transaction: { id: 11 } });
      expect(lastCall('verifyPayment')?.request).toEqual({
        providerOrderId: 'o1',
        providerPaymentId: 'p1',
        providerSignature: 's1',
        idempotencyKey: '',
      });
    });
  });

  describe('bad input is a 400 with its message, and never reaches the service', () => {
    const pay = { orderId: 'sbx_order_1', cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };
    const transfer = { receiverUsername: 'havildar', amount: '10', pin: '123456' };
    it.each<[string, string, unknown, string]>([
      ['POST', '/api/create-order', {}, 'Amount is required'],
      ['POST', '/api/create-order', { amount: '99.99' }, 'Amount must be between ₹100 and ₹1,00,000'],
      ['POST', '/api/create-order', { amount: 100000.01 }, 'Amount must be between ₹100 and ₹1,00,000'],
      ['POST', '/api/create-order', { amount: '1e3' }, 'Amount must be between ₹100 and ₹1,00,000'],
      ['POST', '/api/create-order', { amount: true }, 'Amount must be between ₹100 and ₹1,00,000'],
      ['POST', '/api/wallet/transfer', { ...transfer, amount: '0' }, 'Amount must be greater than 0'],
      ['POST', '/api/wallet/transfer', { ...transfer, amount: '1.005' }, WALLET_MESSAGES.amountFormat],
      ['POST', '/api/wallet/transfer', { ...transfer, amount: '-5' }, WALLET_MESSAGES.amountFormat],
      ['POST', '/api/wallet/transfer', { ...transfer, amount: '123456789' }, WALLET_MESSAGES.amountTooLarge],
      ['POST', '/api/wallet/transfer', { ...transfer, amount: undefined }, 'Amount is required'],
      [
        'POST',
        '/api/wallet/transfer',
        { ...transfer, receiverUsername: '  ' },
        'Receiver username is required',
      ],
      ['POST', '/api/wallet/transfer', { ...transfer, pin: '12345' }, 'PIN must be at least 6 digits'],
      ['POST', '/api/wallet/transfer', { ...transfer, pin: undefined }, 'PIN is required'],
      [
        'POST',
        '/api/wallet/transfer',
        { ...transfer, pin: '1'.repeat(65) },
        'PIN must be at most 64 characters',
      ],
      ['POST', '/api/wallet/setup-pin', { pin: '123456', confirmPin: '654321' }, "PINs don't match"],
      ['POST', '/api/wallet/setup-pin', { pin: '123', confirmPin: '123' }, 'PIN must be at least 6 digits'],
      ['POST', '/api/wallet/verify-otp', { otp: '12345' }, 'OTP must be 6 digits'],
      ['POST', '/api/wallet/verify-otp', {}, 'OTP must be 6 digits'],
      ['POST', '/api/sandbox/pay', { ...pay, cardNumber: '4242' }, 'Enter a valid card number'],
      ['POST', '/api/sandbox/pay', { ...pay, expiry: '13/30' }, 'Enter the expiry as MM/YY'],
      ['POST', '/api/sandbox/pay', { ...pay, cvc: '12' }, 'Enter the 3 or 4 digit security code'],
      ['POST', '/api/sandbox/pay', { ...pay, orderId: '' }, 'Order id is required'],
      ['POST', '/api/verify-payment', { providerPaymentId: 'p' }, 'Provider order id is required'],
      ['GET', '/api/transactions?pageSize=33', undefined, 'Page size must be between 1 and 32'],
      ['GET', '/api/transactions?page=0', undefined, 'Page must be at least 1'],
      ['GET', '/api/transactions?status=lost', undefined, 'Status must be one of pending, completed, failed'],
      ['GET', `/api/check-username-eligibility/${'a'.repeat(51)}`, undefined, 'Username is too long'],
      [
        'GET',
        '/api/admin/transactions?sort=price',
        undefined,
        'Sort must be one of date_desc, date_asc, amount_desc, amount_asc',
      ],
      ['GET', '/api/admin/transactions?pageSize=101', undefined, 'Page size must be between 1 and 100'],
      ['GET', '/api/admin/wallets?page=1000001', undefined, 'Page must be at most 1,000,000'],
      [
        'GET',
        `/api/admin/wallets?search=${'a'.repeat(101)}`,
        undefined,
        'Search must be at most 100 characters',
      ],
      ['GET', '/api/admin/transactions?userId=0', undefined, 'User id must be positive'],
    ])('%s %s %j: %s', async (method, path, body, message) => {
      const res = await call(method, path, { as: path.includes('/admin/') ? 'admin' : 'army', body });
      expect(res).toMatchObject({ status: 400, body: { message } });
      expect(svc.calls).toEqual([]);
    });

    it.each([
      ['', 'Idempotency-Key must not be empty'],
      ['k'.repeat(256), 'Idempotency-Key must be at most 255 characters'],
      ['two words', 'Idempotency-Key must be printable ASCII without spaces'],
    ])('an Idempotency-Key of %j: %s', async (key, message) => {
      for (const [path, body] of [
        ['/api/create-order', { amount: 500 }],
        ['/api/verify-payment', { providerOrderId: 'o', providerPaymentId: 'p' }],
        ['/api/wallet/transfer', transfer],
      ] as const) {
        const res = await call('POST', path, { as: 'army', body, headers: { 'Idempotency-Key': key } });
        expect({ path, ...res }).toMatchObject({ path, status: 400, body: { message } });
      }
      expect(svc.calls).toEqual([]);
    });
  });

  describe('access', () => {
    // Every row has a body (undefined for none): a shorter row would hand the test jest's done callback.
    const routes: [string, string, unknown][] = [
      ['GET', '/api/wallet', undefined],
      ['GET', '/api/transactions', undefined],
      ['GET', '/api/wallet/pin-status', undefined],
      ['POST', '/api/wallet/setup-pin', { pin: '123456', confirmPin: '123456' }],
      ['POST', '/api/wallet/send-otp', undefined],
      ['POST', '/api/wallet/verify-otp', { otp: '123456' }],
      ['GET', '/api/check-username-eligibility/havildar', undefined],
      ['POST', '/api/wallet/transfer', { receiverUsername: 'h', amount: 1, pin: '123456' }],
      ['POST', '/api/create-order', { amount: 100 }],
      [
        'POST',
        '/api/sandbox/pay',
        { orderId: 'o', cardNumber: '4242424242424242', expiry: '1/30', cvc: '123' },
      ],
      ['POST', '/api/verify-payment', { providerOrderId: 'o', providerPaymentId: 'p' }],
      ['GET', '/api/admin/wallets', undefined],
      ['GET', '/api/admin/transactions', undefined],
    ];

    it.each(routes)('%s %s: 401 without a session, before the service', async (method, path, body) => {
      const res = await call(method, path, { body });
      expect(res).toMatchObject({ status: 401, body: { message: 'Not authenticated' } });
      expect(svc.calls).toEqual([]);
    });

    it.each(routes.filter(([, p]) => p.includes('/admin/')))(
      '%s %s: 403 for a user who is no administrator, 200 for one',
      async (method, path) => {
        const res = await call(method, path, { as: 'army' });
        expect(res).toMatchObject({ status: 403, body: { message: 'Administrator access required' } });
        expect(svc.calls).toEqual([]);
        expect((await call(method, path, { as: 'admin' })).status).toBe(200);
        expect(svc.calls[0]?.ctx.caller).toEqual(admin);
      },
    );

    it("the service's own refusal stands (an administrator has no wallet)", async () => {
      answer('getWallet', async () => {
        throw new AppError(GrpcStatus.PERMISSION_DENIED, WALLET_MESSAGES.adminNoWallet);
      });
      const res = await call('GET', '/api/wallet', { as: 'admin' });
      expect(res).toMatchObject({ status: 403, body: { message: WALLET_MESSAGES.adminNoWallet } });
    });
  });

  describe("the service's refusals as HTTP statuses", () => {
    it('a PIN lock (RESOURCE_EXHAUSTED) on transfer is 423 with the message', async () => {
      const message = WALLET_MESSAGES.pinLocked('2026-11-23T10:15:00.000Z');
      answer('transfer', async () => {
        throw tooMany(message);
      });
      const res = await call('POST', '/api/wallet/transfer', {
        as: 'army',
        body: { receiverUsername: 'havildar', amount: '10', pin: '123456' },
      });
      expect(res).toMatchObject({ status: 423, body: { message } });
    });

    it.each([
      WALLET_MESSAGES.cardDeclined,
      WALLET_MESSAGES.cardInsufficientFunds,
      WALLET_MESSAGES.cardExpired,
    ])('a card refusal on sandbox/pay ("%s") is 402', async (message) => {
      answer('sandboxPay', async () => {
        throw conflict(message);
      });
      const res = await call('POST', '/api/sandbox/pay', {
        as: 'army',
        body: { orderId: 'o1', cardNumber: '4000-0000-0000-0002', expiry: '12 / 30', cvc: ' 123 ' },
      });
      expect(res).toMatchObject({ status: 402, body: { message } });
      expect(lastCall('sandboxPay')?.request).toEqual({
        orderId: 'o1',
        cardNumber: '4000000000000002',
        expiry: '12 / 30',
        cvc: '123',
      });
    });

    it('any other FAILED_PRECONDITION on sandbox/pay stays a 409', async () => {
      answer('sandboxPay', async () => {
        throw conflict(WALLET_MESSAGES.sandboxOnly);
      });
      const res = await call('POST', '/api/sandbox/pay', {
        as: 'army',
        body: { orderId: 'o1', cardNumber: '4242424242424242', expiry: '12/30', cvc: '123' },
      });
      expect(res).toMatchObject({ status: 409, body: { message: WALLET_MESSAGES.sandboxOnly } });
    });

    it('the Idempotency-Key reaches the service; a reuse with another body is 409 naming the fields', async () => {
      const mismatch = WALLET_MESSAGES.idempotencyMismatch(['amount']);
      answer('createTopUp', async (r) => {
        if (r.amountPaise !== 50000) throw conflict(mismatch);
        return {
          id: 'o',
          amountPaise: r.amountPaise,
          currency: 'INR',
          provider: 'sandbox',
          clientSecret: '',
          publishableKey: '',
        };
      });
      const key = { 'Idempotency-Key': 'topup-7f3a' };
      expect(
        (await call('POST', '/api/create-order', { as: 'army', body: { amount: 500 }, headers: key })).status,
      ).toBe(200);
      expect(lastCall('createTopUp')?.request).toEqual({ amountPaise: 50000, idempotencyKey: 'topup-7f3a' });
      const res = await call('POST', '/api/create-order', {
        as: 'army',
        body: { amount: 600 },
        headers: key,
      });
      expect(res).toMatchObject({ status: 409, body: { message: mismatch } });

      await call('POST', '/api/wallet/transfer', {
        as: 'army',
        body: { receiverUsername: 'h', amount: 1, pin: '123456' },
        headers: { 'idempotency-key': 'tr-1' },
      });
      expect(lastCall('transfer')?.request).toMatchObject({ idempotencyKey: 'tr-1' });
      await call('POST', '/api/verify-payment', {
        as: 'army',
        body: { providerOrderId: 'o', providerPaymentId: 'p' },
        headers: { 'Idempotency-Key': 'vp-1' },
      });
      expect(lastCall('verifyPayment')?.request).toMatchObject({
        idempotencyKey: 'vp-1',
        providerSignature: '',
      });
    });

    it('a bad payment proof is a 400 with the product reference message', async () => {
      answer('verifyPayment', async () => {
        throw invalid(WALLET_MESSAGES.paymentVerificationFailed);
      });
      const res = await call('POST', '/api/verify-payment', {
        as: 'army',
        body: { providerOrderId: 'o', providerPaymentId: 'p', providerSignature: 'forged' },
      });
      expect(res).toMatchObject({ status: 400, body: { message: 'Payment Verification Failed' } });
    });
  });

  describe('webhooks: no session, no origin check, the exact bytes to the service', () => {
    // Not JSON-normalised: odd spacing, key order, escapes and a non-ASCII character must survive.
    const payload = Buffer.from(
      '{ "type":"payment_intent.succeeded" ,"id":"evt_1","note":"\\u00e9 ₹\\n"}\n\n',
      'utf8',
    );

    it.each([
      ['stripe', 'stripe-signature', 't=1,v1=abc'],
      ['sandbox', 'x-sandbox-signature', 'sha256=def'],
    ])('%s: 200 {received:true}, the bytes and signature intact', async (provider, header, signature) => {
      const res = await fetch(`${gw.url}/api/webhooks/${provider}`, {
        method: 'POST',
        // A foreign origin and a stray session cookie change nothing: the signature is the authority.
        headers: {
          'content-type': 'application/json; charset=utf-8',
          origin: 'https://hooks.stripe.com',
          cookie: 'qm_session=whatever',
          [header]: signature,
        },
        body: payload,
      });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ received: true });
      const seen = lastCall('handleProviderWebhook');
      expect(seen?.request).toEqual({ provider, payload: expect.any(Buffer), signature });
      expect(Buffer.compare((seen?.request as { payload: Buffer }).payload, payload)).toBe(0);
      expect(seen?.ctx.caller).toBeUndefined();
    });

    it('any content type is taken as bytes (a provider may send text/plain)', async () => {
      const res = await fetch(`${gw.url}/api/webhooks/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-sandbox-signature': 's' },
        body: 'not json at all',
      });
      expect(res.status).toBe(200);
      expect(String((lastCall('handleProviderWebhook')?.request as { payload: Buffer }).payload)).toBe(
        'not json at all',
      );
    });

    it('a missing signature header is a 400 before the service', async () => {
      const res = await fetch(`${gw.url}/api/webhooks/stripe`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: 'The stripe-signature header is required' });
      expect(svc.calls).toEqual([]);
    });

    it("a signature the service refuses (INVALID_ARGUMENT) is a 400 with the service's message", async () => {
      answer('handleProviderWebhook', async () => {
        throw invalid('Webhook signature verification failed');
      });
      const res = await fetch(`${gw.url}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'stripe-signature': 't=1,v1=forged' },
        body: '{}',
      });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: 'Webhook signature verification failed' });
    });

    it('a body over 1 MB is a 413 before the service', async () => {
      const res = await fetch(`${gw.url}/api/webhooks/sandbox`, {
        method: 'POST',
        headers: { 'x-sandbox-signature': 's', 'content-type': 'application/json' },
        body: Buffer.alloc(1024 * 1024 + 1, 0x20),
      });
      expect(res.status).toBe(413);
      expect(svc.calls).toEqual([]);
    });

    it('other routes keep the origin check: a cross-site POST with a session is refused', async () => {
      const res = await call('POST', '/api/create-order', {
        as: 'army',
        body: { amount: 500 },
        headers: { origin: 'https://evil.example' },
      });
      expect(res).toMatchObject({ status: 403, body: { message: 'Cross-site request refused' } });
      expect(svc.calls).toEqual([]);
    });
  });

  it('the OpenAPI document states the header, the 402, 409 and 423, and the webhooks without a session', async () => {
    const doc = await json(await fetch(`${gw.url}/api/openapi.json`));
    for (const path of ['/api/create-order', '/api/verify-payment', '/api/wallet/transfer']) {
      const op = doc.paths[path].post;
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }),
      );
      expect(op.responses['409'].description).toMatch(/Idempotency-Key/);
    }
    expect(doc.paths['/api/wallet/transfer'].post.responses['423'].description).toMatch(/locked/);
    expect(doc.paths['/api/sandbox/pay'].post.responses['402'].description).toMatch(/declined/);
    for (const [provider, header] of [
      ['stripe', 'stripe-signature'],
      ['sandbox', 'x-sandbox-signature'],
    ]) {
      const op = doc.paths[`/api/webhooks/${provider}`].post;
      expect(op.security).toEqual([]);
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ name: header, in: 'header', required: true }),
      );
      expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '413', '429', '503', '504']);
    }
  });
});
