import { walletV1 } from '@qm/contracts/grpc';
import { GrpcStatus } from '@qm/platform';
import { outcome, startWallet, type TestUser, type WalletHarness } from './service-harness';

/**
 * Admin lists (docs/API.md): the administrators' wallet list is searched and paged by the server, and the
 * transactions list narrows to one user (the wallet list's link) and sums completed amounts.
 */
let w: WalletHarness;
const admin = { userId: 1, username: 'admin', roles: ['Admin'] };
const users: TestUser[] = [];

beforeAll(async () => {
  w = await startWallet();
  // Four wallets: three whose usernames share "zqalpha" (any case), one "zqbravo". The harness's
  // consumer also opens wallets for the users earlier suites approved (it reads the stream from its
  // start), so the assertions count only what these names find, and the total as at least four.
  for (const name of ['zqalphaOne', 'ZQALPHAtwo', 'xzqalphax', 'zqbravo']) users.push(w.user(name));
  for (const [i, u] of users.entries()) await w.topUp(u, (i + 1) * 100_00);
}, 120_000);

afterAll(async () => {
  await w?.stop();
});

const list = (req: Partial<walletV1.ListWalletsRequest>) =>
  w.as(admin, () => w.client.listWallets({ page: 1, pageSize: 10, search: '', ...req }));

it('searches usernames case-insensitively and pages on the server', async () => {
  const all = await list({});
  expect(all.total).toBeGreaterThanOrEqual(4);
  expect(all.totalBalancePaise).toBe(1000_00);

  const alpha = await list({ search: 'ZQALPHA' });
  expect(alpha.total).toBe(3);
  expect(alpha.wallets.map((x) => x.username).sort()).toEqual(
    users
      .slice(0, 3)
      .map((u) => u.username)
      .sort(),
  );

  const first = await list({ search: 'zqalpha', pageSize: 2 });
  const second = await list({ search: 'zqalpha', pageSize: 2, page: 2 });
  expect(first.total).toBe(3);
  expect(first.wallets).toHaveLength(2);
  expect(second.wallets).toHaveLength(1);
  const seen = [...first.wallets, ...second.wallets].map((x) => x.userId);
  expect(new Set(seen).size).toBe(3);

  // Regular-expression characters are matched literally.
  expect((await list({ search: '.*' })).total).toBe(0);
  expect((await list({ search: 'zqbravo' })).wallets.map((x) => x.userId)).toEqual([users[3]!.userId]);
});

it('refuses an over-long search and non-administrators', async () => {
  expect(await outcome(list({ search: 'x'.repeat(101) }))).toMatchObject({
    code: GrpcStatus.INVALID_ARGUMENT,
  });
  const someone = users[0]!;
  const denied = await outcome(
    w.as(someone, () => w.client.listWallets({ page: 1, pageSize: 10, search: '' })),
  );
  expect(denied.code).toBe(GrpcStatus.PERMISSION_DENIED);
});

it("lists one user's transactions and sums every completed amount", async () => {
  const target = users[1]!;
  const out = await w.as(admin, () =>
    w.client.listAllTransactions({
      page: 1,
      pageSize: 50,
      status: walletV1.TransactionStatus.TRANSACTION_STATUS_UNSPECIFIED,
      sort: walletV1.TransactionSort.TRANSACTION_SORT_DATE_DESC,
      userId: target.userId,
    }),
  );
  expect(out.transactions.length).toBeGreaterThan(0);
  expect(new Set(out.transactions.map((t) => t.userId))).toEqual(new Set([target.userId]));
  expect(out.total).toBe(out.transactions.length);

  const every = await w.as(admin, () =>
    w.client.listAllTransactions({
      page: 1,
      pageSize: 100,
      status: walletV1.TransactionStatus.TRANSACTION_STATUS_COMPLETED,
      sort: walletV1.TransactionSort.TRANSACTION_SORT_DATE_DESC,
      userId: 0,
    }),
  );
  const sum = every.transactions.reduce((s, t) => s + t.amountPaise, 0);
  expect(sum).toBe(1000_00);
  expect(every.completedAmountPaise).toBe(sum);
});
