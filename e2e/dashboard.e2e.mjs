#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window */
// Browser journey of the admin dashboard (docs/API.md "Admin dashboard") against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/dashboard.e2e.mjs
//
// Setup through the real API: a Manufacturer lists a product, an Army buyer tops up ₹5,000 through
// the sandbox checkout and buys one unit, and one more Army registration waits for approval. Then, in
// the browser as the admin: the seven cards link to their pages and show the totals the aggregate
// endpoints answer (the Refunds card the money refunded and the refunded orders); the four charts draw (money in and purchases over 30 days with today's figures,
// orders and registrations by status); at 1280 and 375 px, light and dark, nothing overflows. Then the
// admin lists: search, filters and paging; a deleted buyer and manufacturer (with a sale
// between them) read "Deleted user" in the wallets and transactions lists, their order keeps its parties
// and the manufacturer's product is gone; at 375 px the long usernames stay on one line in their cards.
// Screenshots go to e2e/artifacts/dashboard-*.png. Last line: `dashboard: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import {
  apiClient as api,
  emailOf,
  register as registerUser,
  signInContext as signIn,
  topUp,
} from './lib/api.mjs';
import { assert, journeySteps } from './lib/steps.mjs';
import { checkA11y } from './lib/a11y.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.DASHBOARD_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
/**
 * The seller and the buyer have long usernames with hyphens, where a line may break: the admin lists
 * must keep each on one line, which a phone's narrow cards put to the test.
 */
const MAKER = {
  username: `e2e_dmfr_${RUN}-ordnance-factory-unit`,
  firstName: 'Kabir',
  lastName: 'Forge',
  role: 'Manufacturer',
};
const BUYER = {
  username: `e2e_dbuy_${RUN}-field-officer-account`,
  firstName: 'Meera',
  lastName: 'Rao',
  role: 'Army',
};
const WAITING = { username: `e2e_dnew_${RUN}`, firstName: 'Arjun', lastName: 'Das', role: 'Army' };
/**
 * Tops up and buys from GONE_MAKER, then both are deleted by the admin: their closed wallets
 * and their transactions show as "Deleted user"; their order keeps its parties as at the purchase
 * (docs/product.md §3); the manufacturer's products go with them.
 */
const GONE = { username: `e2e_dgone_${RUN}`, firstName: 'Vikram', lastName: 'Sen', role: 'Army' };
const GONE_MAKER = {
  username: `e2e_dgmfr_${RUN}`,
  firstName: 'Rohan',
  lastName: 'Mehta',
  role: 'Manufacturer',
};
const GONE_PRODUCT = {
  name: `E2E Field Compass ${RUN}`,
  type: 'Equipment',
  price: '150.00',
  description: 'A compass whose manufacturer leaves the marketplace.',
  stock: 5,
};
const QUERY_SUBJECT = `Delivery of scope ${RUN}`;
const REPLIES = ['We are checking with the courier.', 'Delivered this morning.'];
const PRODUCT = {
  name: `E2E Night Scope ${RUN}`,
  type: 'Equipment',
  price: '1250.50',
  description: 'Thermal night scope for the dashboard journey.',
  stock: 3,
};
const CARDS = [
  ['Users', '/admin/users'],
  ['Transactions', '/admin/transactions'],
  ['Wallets', '/admin/wallets'],
  ['Orders', '/admin/orders'],
  ['Products', '/admin/products'],
  ['Queries', '/admin/queries'],
  ['Refunds', '/admin/refunds'],
];
const CHARTS = ['chart-money', 'chart-purchases', 'chart-order-status', 'chart-user-status'];
/** An axis day as the page writes it: "23 Nov". */
const AXIS_DAY = /^\d{1,2} [A-Z][a-z]{2}$/;

const { step, shot, done } = await journeySteps('dashboard', ARTIFACTS);

const signedIn = async (user, password = PASSWORD, portal = 'user') => {
  const call = api(BASE_URL);
  await call('POST', '/api/login', { username: user, password, portal });
  return call;
};
const number = (text) => Number(text.replace(/[^\d.]/g, ''));
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Every row of a paged admin list (100 a page). */
async function everyPage(pathWithQuery, key) {
  const rows = [];
  for (let pageNo = 1; ; pageNo++) {
    const out = await state.adminApi('GET', `${pathWithQuery}&page=${pageNo}&pageSize=100`);
    rows.push(...out[key]);
    if (rows.length >= out.total || out[key].length === 0) return rows;
  }
}
/** The sum of rupee texts ("1250.50") in paise, exactly. */
const paiseSum = (amounts) => amounts.reduce((sum, a) => sum + Math.round(Number(a) * 100), 0);

/** Every chart drew an SVG, and the per-day ones label their x axis with days. */
async function chartsDrawn(page) {
  for (const id of CHARTS) {
    const card = page.getByTestId(id);
    await card.locator('svg.recharts-surface').first().waitFor();
    assert((await card.getByTestId('chart-empty').count()) === 0, `${id} shows its empty state`);
  }
  for (const id of ['chart-money', 'chart-purchases']) {
    const ticks = await page
      .getByTestId(id)
      .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    assert(ticks.length >= 2, `${id} has ${ticks.length} day ticks`);
    for (const tick of ticks) assert(AXIS_DAY.test(tick.trim()), `${id} axis tick reads "${tick}"`);
  }
}

const browser = await launchBrowser();
const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
admin.setDefaultTimeout(TIMEOUT);
const page = await admin.newPage();
const state = {};

await step('setup: a sale, a ₹5,000 top-up and a registration waiting for approval', async () => {
  const ids = {};
  for (const user of [MAKER, BUYER, WAITING])
    ids[user.username] = await registerUser(BASE_URL, user, PASSWORD);
  state.adminApi = await signedIn(ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  for (const user of [MAKER, BUYER])
    await state.adminApi('PATCH', `/api/users/${ids[user.username]}/status`, { status: 'approved' });
  const product = await (await signedIn(MAKER.username))('POST', '/api/products', PRODUCT);
  const buyer = await signedIn(BUYER.username);
  await topUp(buyer, '5000');
  const order = await buyer('POST', '/api/orders', {
    productId: product.id,
    quantity: 1,
    totalPrice: '1250.50',
  });
  assert(order.status === 'completed', `the order is ${order.status}`);
  // A buyer and a manufacturer with a sale between them, then deleted: their wallets are closed and
  // keep their balances.
  for (const user of [GONE, GONE_MAKER]) {
    ids[user.username] = await registerUser(BASE_URL, user, PASSWORD);
    await state.adminApi('PATCH', `/api/users/${ids[user.username]}/status`, { status: 'approved' });
  }
  const goneProduct = await (await signedIn(GONE_MAKER.username))('POST', '/api/products', GONE_PRODUCT);
  const goneBuyer = await signedIn(GONE.username);
  await topUp(goneBuyer, '700');
  const goneOrder = await goneBuyer('POST', '/api/orders', {
    productId: goneProduct.id,
    quantity: 1,
    totalPrice: GONE_PRODUCT.price,
  });
  assert(goneOrder.status === 'completed', `the deleted users' order is ${goneOrder.status}`);
  for (const user of [GONE, GONE_MAKER]) await state.adminApi('DELETE', `/api/users/${ids[user.username]}`);
  state.goneOrderId = goneOrder.id;
  state.goneProductId = goneProduct.id;
  // A support query answered twice (in progress, then resolved).
  const contact = {
    fullName: 'Meera Rao',
    email: emailOf(BUYER),
    subject: QUERY_SUBJECT,
    message: 'Where is it?',
  };
  const sent = await api(BASE_URL)('POST', '/api/contact', contact);
  await state.adminApi('PATCH', `/api/admin/queries/${sent.id}/status`, {
    status: 'in-progress',
    response: REPLIES[0],
  });
  await state.adminApi('PATCH', `/api/admin/queries/${sent.id}/status`, {
    status: 'resolved',
    response: REPLIES[1],
  });
  state.ids = ids;
  state.orderId = order.id;
  await signIn(BASE_URL, admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  return `order #${order.id}`;
});

await step(
  'the seven cards link to their pages and carry the totals of the aggregate endpoints',
  async () => {
    await page.goto(`${BASE_URL}/admin/dashboard`);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    for (const [label, href] of CARDS) {
      const link = page.locator(`a.mantine-Card-root[href="${href}"]`).filter({ hasText: label });
      assert((await link.count()) === 1, `no card links ${label} to ${href}`);
    }
    const [users, money, orders, productList] = await Promise.all([
      state.adminApi('GET', '/api/admin/stats/users'),
      state.adminApi('GET', '/api/admin/stats/money'),
      state.adminApi('GET', '/api/admin/stats/orders'),
      admin.request.get(`${BASE_URL}/api/products?page=1&pageSize=1`),
    ]);
    const products = { total: Number(productList.headers()['x-total-count']) };
    state.money = money;
    state.orders = orders;
    const shown = async (id) => number(await page.getByTestId(id).innerText());
    assert((await shown('dashboard-users-total')) === users.total, `users card ≠ ${users.total}`);
    assert((await shown('dashboard-products-total')) === products.total, `products card ≠ ${products.total}`);
    assert(users.byStatus.pending >= 1, 'the waiting registration is not counted as pending');
    await page.getByTestId('dashboard-orders-total').waitFor();
    // The Transactions card sums the completed transactions' amounts, the Wallets card the
    // balances, each computed here from the lists themselves, page by page.
    const completed = await everyPage('/api/admin/transactions?status=completed', 'transactions');
    const amounts = paiseSum(completed.map((t) => t.amount));
    const wallets = await everyPage('/api/admin/wallets?', 'wallets');
    const balances = paiseSum(wallets.map((w) => w.balance));
    const rupeesText = (paise) =>
      (paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const txCard = await page.getByTestId('dashboard-transactions-total').innerText();
    assert(txCard.includes(rupeesText(amounts)), `transactions card "${txCard}" ≠ ₹${rupeesText(amounts)}`);
    const walletCard = await page.getByTestId('dashboard-wallets-total').innerText();
    assert(
      walletCard.includes(rupeesText(balances)),
      `wallets card "${walletCard}" ≠ ₹${rupeesText(balances)}`,
    );
    // The Refunds card: the money paid back and how many orders were refunded, as the endpoint says.
    const refundsCard = page.getByTestId('dashboard-refunds-total');
    const refunded = await refundsCard.innerText();
    assert(
      refunded.includes(rupeesText(orders.refundedPaise)),
      `refunds card "${refunded}" ≠ ₹${rupeesText(orders.refundedPaise)}`,
    );
    const refundsCaption = await refundsCard.locator('xpath=following-sibling::*[1]').innerText();
    assert(
      number(refundsCaption) === orders.byStatus.refunded,
      `refunds caption "${refundsCaption}" ≠ ${orders.byStatus.refunded} refunded orders`,
    );
    await checkA11y(page, 'dashboard');
    return `${users.total} users, ${products.total} products, ₹${rupeesText(amounts)} moved, ₹${rupeesText(balances)} held`;
  },
  { page },
);

await step(
  'the charts draw: money in and purchases per day with today in them, orders and registrations by status',
  async () => {
    await chartsDrawn(page);
    const today = state.money.days.at(-1);
    assert(today.amountPaise >= 5000_00, `today's money in is ${today.amountPaise} paise`);
    const purchasesToday = state.orders.days.at(-1);
    assert(purchasesToday.count >= 1, `today's purchases: ${purchasesToday.count}`);
    // The figure above each per-day chart is the window's total, in rupees for money.
    const moneyIn = state.money.days.reduce((sum, d) => sum + d.amountPaise, 0) / 100;
    const moneyText = await page.getByTestId('chart-money').innerText();
    assert(
      moneyText.includes(moneyIn.toLocaleString('en-IN', { minimumFractionDigits: 2 })),
      `the money card does not show ₹${moneyIn}: ${moneyText.slice(0, 200)}`,
    );
    // Each donut's legend carries the endpoint's count.
    const legend = async (chart, name) =>
      number(await page.getByTestId(chart).getByTestId(`legend-${name}`).innerText());
    const users = await state.adminApi('GET', '/api/admin/stats/users');
    for (const [name, count] of Object.entries(state.orders.byStatus))
      assert((await legend('chart-order-status', name)) === count, `orders ${name} ≠ ${count}`);
    for (const [name, count] of Object.entries(users.byStatus))
      assert((await legend('chart-user-status', name)) === count, `users ${name} ≠ ${count}`);
    await page.getByTestId('users-by-role').filter({ hasText: 'Army' }).waitFor();
    // A tooltip on hover over today's bar.
    const bars = page.getByTestId('chart-purchases').locator('.recharts-bar-rectangle');
    await bars.last().hover();
    await page
      .getByTestId('chart-purchases')
      .locator('.recharts-tooltip-wrapper')
      .getByText('Purchases')
      .waitFor();
    await shot(page, 'desktop-light', true);
  },
  { page },
);

await step(
  'wallets list: server search, the Deleted user, paging in the URL, a row links to its transactions',
  async () => {
    await page.goto(`${BASE_URL}/admin/wallets`);
    await page.getByRole('heading', { name: 'Wallet Management' }).waitFor();
    const all = await state.adminApi('GET', '/api/admin/wallets?page=1&pageSize=1');
    await page.getByRole('searchbox', { name: 'Search wallets by username' }).fill(BUYER.username);
    await page.waitForURL((url) => url.searchParams.get('search') === BUYER.username);
    const rows = page.getByTestId('admin-wallet-row');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="admin-wallet-row"]').length === 1,
    );
    const row = rows.first();
    await row.getByText(BUYER.username, { exact: true }).waitFor();
    await row.getByText('Meera Rao').waitFor();
    // The deleted user's closed wallet: "Deleted user" and Closed, never "User #id".
    await page.getByRole('searchbox', { name: 'Search wallets by username' }).fill(GONE.username);
    const gone = page.locator(`[data-testid="admin-wallet-row"][data-user-id="${state.ids[GONE.username]}"]`);
    await gone.getByText('Deleted user', { exact: true }).waitFor();
    await gone.getByText('Closed', { exact: true }).waitFor();
    assert(!(await gone.innerText()).includes('User #'), 'a deleted user shows as User #');
    // A reload keeps the search (it is in the URL).
    await page.reload();
    await gone.getByText('Deleted user', { exact: true }).waitFor();
    await checkA11y(page, 'wallets');
    await shot(page, 'wallets-desktop-light');
    // Paging: with more wallets than one page, page 2 is in the URL and shows other rows.
    await page.getByRole('searchbox', { name: 'Search wallets by username' }).fill('');
    await page.waitForURL((url) => !url.searchParams.has('search'));
    if (all.total > 20) {
      const firstIds = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-user-id')));
      await page.getByRole('button', { name: 'Page 2' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      await page.waitForFunction(
        (ids) =>
          ![...document.querySelectorAll('[data-testid="admin-wallet-row"]')].some((e) =>
            ids.includes(e.getAttribute('data-user-id')),
          ),
        firstIds,
      );
    }
    // The link opens the transactions list narrowed to that user. Awaited until the buyer's row is the
    // only one: page 2 of a longer list can hold a single row too, someone else's.
    await page.getByRole('searchbox', { name: 'Search wallets by username' }).fill(BUYER.username);
    await page.waitForURL((url) => url.searchParams.get('search') === BUYER.username);
    await page.waitForFunction((name) => {
      const shown = document.querySelectorAll('[data-testid="admin-wallet-row"]');
      return shown.length === 1 && shown[0].textContent.includes(name);
    }, BUYER.username);
    await rows
      .first()
      .getByRole('link', { name: /^Transactions/ })
      .click();
    const buyerId = state.ids[BUYER.username];
    await page.waitForURL(
      (url) => url.pathname === '/admin/transactions' && url.searchParams.get('userId') === String(buyerId),
    );
    await page.getByTestId('transactions-user-filter').getByText(BUYER.username).waitFor();
    const txRows = page.getByTestId('admin-transaction-row');
    await txRows.first().waitFor();
    const expected = await state.adminApi('GET', `/api/admin/transactions?userId=${buyerId}&pageSize=100`);
    assert(
      expected.transactions.every((t) => t.userId === buyerId),
      'the API mixed in other users',
    );
    assert((await txRows.count()) === expected.transactions.length, `rows ≠ ${expected.transactions.length}`);
    for (const name of await txRows.getByTestId('user-name').allInnerTexts())
      assert(name === BUYER.username, `a row of ${name} in the buyer's transactions`);
    // A row opens its details.
    await txRows.first().getByTestId('transaction-open').click();
    const dialog = page.getByRole('dialog', { name: /^Transaction #\d+$/ });
    await dialog.getByTestId('transaction-details').waitFor();
    await checkA11y(page, 'transaction details dialog');
    await shot(page, 'transaction-details-desktop-light');
    await page.keyboard.press('Escape');
    return `${all.total} wallets`;
  },
  { page },
);

await step(
  'users list: server search, status and role filters, paging in the URL, a row opens its details',
  async () => {
    await page.goto(`${BASE_URL}/admin/users`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search users by name, username or email' });
    await search.fill('Arjun');
    await page.waitForURL((url) => url.searchParams.get('search') === 'Arjun');
    await page.getByTestId(`user-row-${WAITING.username}`).waitFor();
    // The server searched: every row matches.
    const api1 = await state.adminApi('GET', '/api/admin/users?search=Arjun&pageSize=100');
    assert(
      api1.users.every((u) =>
        `${u.username} ${u.firstName} ${u.lastName} ${u.email}`.toLowerCase().includes('arjun'),
      ),
      'search mismatch',
    );
    // The unfiltered first page also holds WAITING's row: wait for the searched page to replace it.
    const rows = page.locator('[data-testid^="user-row-"]');
    const want = Math.min(api1.total, 20);
    for (let i = 0; i < 50 && (await rows.count()) !== want; i++) await page.waitForTimeout(100);
    assert((await rows.count()) === want, `rows ${await rows.count()} ≠ API ${want}`);
    // Email search, then the pending + Army filters.
    await search.fill(emailOf(WAITING));
    await page.waitForURL((url) => url.searchParams.get('search') === emailOf(WAITING));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="user-row-"]').length === 1);
    await page.getByRole('textbox', { name: 'Filter by status' }).click();
    await page.getByRole('option', { name: 'Pending' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'pending');
    await page.getByRole('textbox', { name: 'Filter by role' }).click();
    await page.getByRole('option', { name: 'Army' }).click();
    await page.waitForURL((url) => url.searchParams.get('role') === 'Army');
    await page.getByTestId(`user-row-${WAITING.username}`).waitFor();
    await page.getByRole('textbox', { name: 'Filter by role' }).click();
    await page.getByRole('option', { name: 'Manufacturer' }).click();
    await page.getByText('No users found').waitFor();
    // Reload keeps search and filters; Back returns to the previous filter.
    await page.reload();
    await page.getByText('No users found').waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('role') === 'Army');
    await page.getByTestId(`user-row-${WAITING.username}`).waitFor();
    // The row opens the user's details.
    await page.getByTestId(`user-row-${WAITING.username}`).getByTestId('user-open').click();
    const dialog = page.getByRole('dialog', { name: `User ${WAITING.username}` });
    await dialog.getByText(emailOf(WAITING)).waitFor();
    await checkA11y(page, 'user details dialog');
    await shot(page, 'user-details-desktop-light');
    await page.keyboard.press('Escape');
    // Paging over everyone.
    await page.goto(`${BASE_URL}/admin/users`);
    const everyone = await state.adminApi('GET', '/api/admin/users?pageSize=20');
    const total = Number((await page.getByTestId('list-total').innerText()).replace(/\D/g, ''));
    assert(total === everyone.total, `users total ${total} ≠ ${everyone.total}`);
    if (everyone.total > 20) {
      await page.getByRole('button', { name: 'Page 2' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      const second = await state.adminApi('GET', '/api/admin/users?pageSize=20&page=2');
      await page.getByTestId(`user-row-${second.users[0].username}`).waitFor();
    }
    await checkA11y(page, 'users');
    return `${everyone.total} users`;
  },
  { page },
);

await step(
  'a resolved query shows the thread of replies that were sent',
  async () => {
    await page.goto(`${BASE_URL}/admin/queries`);
    await page
      .getByRole('button', { name: `View query from Meera Rao: ${QUERY_SUBJECT}` })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Query Details' });
    const thread = dialog.getByTestId('query-replies');
    await thread.waitFor();
    const items = await thread.getByRole('listitem').allInnerTexts();
    assert(items.length === 2, `${items.length} replies shown`);
    assert(items[0].includes(REPLIES[0]) && items[1].includes(REPLIES[1]), `thread: ${items.join(' | ')}`);
    await checkA11y(page, 'query details dialog');
    await shot(page, 'query-thread-desktop-light');
    await page.keyboard.press('Escape');
  },
  { page, independent: true },
);

await step(
  'an order row opens its details',
  async () => {
    await page.goto(`${BASE_URL}/admin/orders`);
    const row = page.locator(`[data-testid="admin-order-row"][data-order-id="${state.orderId}"]`);
    await row.getByTestId('order-open').click();
    const dialog = page.getByRole('dialog', { name: `Order #${state.orderId}` });
    await dialog.getByText(PRODUCT.name, { exact: false }).waitFor();
    await dialog.getByText(emailOf(BUYER)).waitFor();
    await checkA11y(page, 'order details dialog');
    await shot(page, 'order-details-desktop-light');
    await page.keyboard.press('Escape');
  },
  { page, independent: true },
);

await step(
  'deleted users: their transactions read Deleted user, their order keeps its parties, the manufacturer’s products are gone',
  async () => {
    // The transactions list narrowed to each deleted user (the wallets list's link): every line, and
    // the filter's heading, read "Deleted user", never a username or "User #id".
    for (const user of [GONE, GONE_MAKER]) {
      const id = state.ids[user.username];
      const expected = await state.adminApi('GET', `/api/admin/transactions?userId=${id}&pageSize=100`);
      assert(expected.transactions.length >= 1, `${user.username} has no transactions`);
      await page.goto(`${BASE_URL}/admin/transactions?userId=${id}`);
      await page.getByTestId('transactions-user-filter').getByTestId('deleted-user').waitFor();
      const rows = page.getByTestId('admin-transaction-row');
      await rows.nth(expected.transactions.length - 1).waitFor();
      const count = await rows.count();
      assert(count === expected.transactions.length, `${count} rows ≠ ${expected.transactions.length}`);
      const deleted = await rows.getByTestId('deleted-user').count();
      assert(deleted === count, `${deleted} of ${count} lines of ${user.username} read Deleted user`);
      assert((await rows.getByTestId('user-name').count()) === 0, 'a deleted user is shown by name');
      assert(!(await page.locator('main').innerText()).includes('User #'), 'a deleted user shows as User #');
    }
    await checkA11y(page, 'transactions of a deleted user');
    await shot(page, 'deleted-user-transactions-desktop-light');
    // Their order is kept as at the purchase (docs/product.md §3): buyer and seller by name and username.
    await page.goto(`${BASE_URL}/admin/orders`);
    const order = page.locator(`[data-testid="admin-order-row"][data-order-id="${state.goneOrderId}"]`);
    await order.waitFor();
    const text = await order.innerText();
    for (const part of [`@${GONE.username}`, `@${GONE_MAKER.username}`, 'Vikram Sen', 'Rohan Mehta'])
      assert(text.includes(part), `the deleted users' order lacks "${part}": ${text}`);
    assert(!text.includes('User #'), 'an order party shows as User #');
    // The manufacturer's products went with them (docs/product.md §3), once catalog has heard of it.
    const deadline = Date.now() + TIMEOUT;
    for (;;) {
      const res = await admin.request.get(`${BASE_URL}/api/products/${state.goneProductId}`);
      if (res.status() === 404) break;
      assert(Date.now() < deadline, `the deleted manufacturer's product still answers ${res.status()}`);
      await page.waitForTimeout(500);
    }
    await page.goto(`${BASE_URL}/admin/products`);
    await page.getByText(PRODUCT.name).first().waitFor();
    assert(
      (await page.getByText(GONE_PRODUCT.name).count()) === 0,
      "the deleted manufacturer's product is listed",
    );
    assert(!(await page.locator('main').innerText()).includes('User #'), 'a manufacturer shows as User #');
    return `order #${state.goneOrderId}; product #${state.goneProductId} gone`;
  },
  { page, independent: true },
);

/**
 * Each text of `main` holding one of `names`: how many lines that name takes (its client rectangles'
 * distinct tops), where, and what it spills out of: a box between it and its card (or table cell) whose
 * content is wider than itself and shown (not clipped with an ellipsis), drawn over its neighbours, or
 * the card itself, which cuts it off. Visually hidden copies (1 px wide, for screen readers) and email
 * addresses are left out.
 */
const nameLines = (p, names) =>
  p.evaluate((wanted) => {
    const found = [];
    const walker = document.createTreeWalker(document.querySelector('main') ?? document.body, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const box = el?.getBoundingClientRect();
      if (!el || !box || box.width <= 1 || box.height <= 1) continue;
      for (const name of wanted) {
        const at = node.data.indexOf(name);
        // An email address holding the username may wrap anywhere (it is not a username).
        if (at < 0 || node.data[at + name.length] === '@') continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + name.length);
        const tops = new Set(
          [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
        );
        const style = window.getComputedStyle(el);
        let spills = '';
        for (let box = el; box && !spills; box = box.parentElement) {
          const last = box.matches('.mantine-Card-root, td, main');
          const wider = box.scrollWidth > box.clientWidth + 1;
          const shown = window.getComputedStyle(box).overflowX === 'visible';
          if (wider && (shown || last)) spills = `${box.tagName.toLowerCase()}.${box.classList[0] ?? ''}`;
          if (last) break;
        }
        found.push({
          name,
          lines: tops.size,
          spills,
          where: `${el.tagName.toLowerCase()} (white-space ${style.whiteSpace}, overflow-wrap ${style.overflowWrap})`,
        });
      }
    }
    return found;
  }, names);

/**
 * The admin lists at 375 px in `colorScheme`: the long usernames keep to one line, and a card
 * too narrow for one ends it with an ellipsis rather than drawing it over the badge or the next column.
 */
async function usernamesOnPhone(colorScheme) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    colorScheme,
    storageState: await admin.storageState(),
  });
  context.setDefaultTimeout(TIMEOUT);
  const buyerId = state.ids[BUYER.username];
  const makerId = state.ids[MAKER.username];
  const names = [BUYER.username, MAKER.username];
  const pages = [
    ['users', `/admin/users?search=${BUYER.username}`, () => p.getByTestId(`user-card-${BUYER.username}`)],
    ['wallets', `/admin/wallets?search=${MAKER.username}`, () => p.getByTestId('admin-wallet-card')],
    ['transactions', `/admin/transactions?userId=${buyerId}`, () => p.getByTestId('admin-transaction-card')],
    [
      'seller transactions',
      `/admin/transactions?userId=${makerId}`,
      () => p.getByTestId('admin-transaction-card'),
    ],
    [
      'orders',
      '/admin/orders',
      () => p.getByTestId('admin-order-card').filter({ hasText: `Order #${state.orderId}` }),
    ],
    [
      'products',
      '/admin/products',
      () => p.getByTestId('admin-product-card').filter({ hasText: `@${MAKER.username}` }),
    ],
  ];
  let p;
  try {
    p = await context.newPage();
    const seen = [];
    for (const [name, route, shown] of pages) {
      const shotName = `usernames-${name.replace(/ /g, '-')}-mobile-${colorScheme}`;
      try {
        await p.goto(`${BASE_URL}${route}`);
        await shown().first().waitFor();
        await p.waitForTimeout(300);
        const found = await nameLines(p, names);
        assert(found.length > 0, `${name}: no username of the journey is shown`);
        const wrapped = found.filter((f) => f.lines !== 1);
        assert(
          wrapped.length === 0,
          `${name} at 375 px: ${wrapped.map((w) => `${w.name} on ${w.lines} lines in ${w.where}`).join('; ')}`,
        );
        const spilt = found.filter((f) => f.spills);
        assert(
          spilt.length === 0,
          `${name} at 375 px: ${spilt.map((w) => `${w.name} runs out of ${w.spills}`).join('; ')}`,
        );
        assert((await overflow(p)) <= 0, `${route} is ${await overflow(p)}px too wide at 375 px`);
        seen.push(`${name} ${found.length}`);
      } finally {
        await shot(p, shotName, true).catch(() => undefined);
      }
    }
    return seen.join(', ');
  } finally {
    await context.close();
  }
}

for (const scheme of ['light', 'dark'])
  await step(
    `375 px, ${scheme}: usernames keep to one line, inside their cards, in the users, wallets, transactions, orders and products lists`,
    () => usernamesOnPhone(scheme),
    { page, independent: true },
  );

await step(
  'the Admin navigation is a disclosure of links (no role=menu) and lists Wallets',
  async () => {
    await page.goto(`${BASE_URL}/admin/dashboard`);
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    const nav = page.getByRole('navigation', { name: 'Admin pages' });
    await nav.getByRole('link', { name: 'Wallets' }).waitFor();
    assert((await page.getByRole('menu').count()) === 0, 'a role=menu is still there');
    await checkA11y(page, 'admin navigation open');
    await nav.getByRole('link', { name: 'Wallets' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/wallets');
  },
  { page, independent: true },
);

/** The wallets page at `width` px in `colorScheme` (screenshots, no sideways scroll). */
async function walletsScreen(width, colorScheme) {
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 812 : 900 },
    deviceScaleFactor: width < 500 ? 2 : 1,
    isMobile: width < 500,
    colorScheme,
    storageState: await admin.storageState(),
  });
  context.setDefaultTimeout(TIMEOUT);
  try {
    const p = await context.newPage();
    for (const [route, heading, name] of [
      ['/admin/wallets', 'Wallet Management', 'wallets'],
      ['/admin/users', 'User Management', 'users'],
    ]) {
      await p.goto(`${BASE_URL}${route}`);
      await p.getByRole('heading', { name: heading }).waitFor();
      await p.waitForTimeout(600);
      assert((await overflow(p)) <= 0, `${route} is ${await overflow(p)}px too wide at ${width}px`);
      await checkA11y(p, `${name} ${width} ${colorScheme}`);
      await shot(p, `${name}-${width < 500 ? 'mobile' : 'desktop'}-${colorScheme}`, true);
    }
  } finally {
    await context.close();
  }
}

for (const [width, scheme] of [
  [1280, 'dark'],
  [375, 'light'],
  [375, 'dark'],
])
  await step(`wallets and users at ${width} px, ${scheme}`, () => walletsScreen(width, scheme), {
    page,
    independent: true,
  });

/** The dashboard at `width` px in `colorScheme`, on the admin's session. */
async function screen(width, colorScheme) {
  const context = await browser.newContext({
    viewport: { width, height: width < 500 ? 812 : 900 },
    deviceScaleFactor: width < 500 ? 2 : 1,
    isMobile: width < 500,
    colorScheme,
    storageState: await admin.storageState(),
  });
  context.setDefaultTimeout(TIMEOUT);
  try {
    const p = await context.newPage();
    await p.goto(`${BASE_URL}/admin/dashboard`);
    await p.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await chartsDrawn(p);
    await p.waitForTimeout(400);
    assert((await overflow(p)) <= 0, `the dashboard is ${await overflow(p)}px too wide at ${width}px`);
    await shot(p, `${width < 500 ? 'mobile' : 'desktop'}-${colorScheme}`, true);
  } finally {
    await context.close();
  }
}

await step('1280 px, dark: the cards and charts', () => screen(1280, 'dark'), { page, independent: true });
await step('375 px, light: the cards and charts fit the screen', () => screen(375, 'light'), {
  page,
  independent: true,
});
await step('375 px, dark: the cards and charts fit the screen', () => screen(375, 'dark'), {
  page,
  independent: true,
});

await browser.close();
done();
