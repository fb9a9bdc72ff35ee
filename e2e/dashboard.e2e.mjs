#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window */
// Browser journey of the admin dashboard (issue 10 §3) against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/dashboard.e2e.mjs
//
// Setup through the real API: a Manufacturer lists a product, an Army buyer tops up ₹5,000 through
// the sandbox checkout and buys one unit, and one more Army registration waits for approval. Then, in
// the browser as the admin: the five cards link to their pages and show the totals the aggregate
// endpoints answer; the four charts draw (money in and purchases over 30 days with today's figures,
// orders and registrations by status); at 1280 and 375 px, light and dark, nothing overflows.
// Screenshots go to e2e/artifacts/dashboard-*.png. Last line: `dashboard: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import { apiClient as api, register as registerUser, signInContext as signIn, topUp } from './lib/api.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.DASHBOARD_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = { username: `e2e_dmfr_${RUN}`, firstName: 'Kabir', lastName: 'Forge', role: 'Manufacturer' };
const BUYER = { username: `e2e_dbuy_${RUN}`, firstName: 'Meera', lastName: 'Rao', role: 'Army' };
const WAITING = { username: `e2e_dnew_${RUN}`, firstName: 'Arjun', lastName: 'Das', role: 'Army' };
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
  ['Orders', '/admin/orders'],
  ['Products', '/admin/products'],
  ['Queries', '/admin/queries'],
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
  await signIn(BASE_URL, admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  return `order #${order.id}`;
});

await step(
  'the five cards link to their pages and carry the totals of the aggregate endpoints',
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
    await page.getByTestId('dashboard-transactions-total').waitFor();
    return `${users.total} users, ${products.total} products`;
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
