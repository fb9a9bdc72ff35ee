#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document */
// Browser journey of the administrators' Refunds page (/admin/refunds, docs/adr/028) against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/admin-refunds.e2e.mjs
//
// Setup through the real API: a Manufacturer lists a product (₹100.00, 10 in stock), two funded Army
// buyers buy 2 units each and at once ask for their money back (CI runs with REFUND_WINDOW_HOURS=0: the
// request must come within the purchase's 2-minute deadline). Then, in the browser as the admin: both
// requests come first with their reasons; the search narrows the list to one buyer; a rejection without
// a reason is refused with the server's message, with one it is done (toast, Rejected with the reason);
// the other is approved after its confirmation (toast, Approved "from held proceeds"). Through the API:
// the buyer has the money back, the units are back in stock, the order is refunded, and a second
// decision is refused (409). 1280 px and 375 px in light and dark mode.
// Screenshots go to e2e/artifacts/admin-refunds-*.png. Last line: `admin-refunds: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import { apiClient as api, registerApproved, signInContext as signIn, topUp } from './lib/api.mjs';
import { overflow, toast } from './lib/page.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.ADMIN_REFUNDS_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = { username: `e2e_rmfr_${RUN}`, firstName: 'Kabir', lastName: 'Forge', role: 'Manufacturer' };
const REJECTED = { username: `e2e_rrej_${RUN}`, firstName: 'Arjun', lastName: 'Mehta', role: 'Army' };
const APPROVED = { username: `e2e_rapp_${RUN}`, firstName: 'Priya', lastName: 'Nair', role: 'Army' };
const PRODUCT = {
  name: `E2E Refund Canteen ${RUN}`,
  type: 'Equipment',
  price: '100.00',
  description: 'Insulated steel field canteen, one litre.',
  stock: 10,
};
const REASONS = {
  [REJECTED.username]: 'Changed my mind after ordering.',
  [APPROVED.username]: 'Both canteens arrived dented and leaking.',
};
const DECISION_REASON = 'Change of mind is not covered by the refund policy.';
const MSG = {
  reasonRequired: 'Please give a reason for rejecting the refund',
  reasonTooLong: 'The reason must be at most 500 characters',
  alreadyDecided: 'This refund request has already been decided',
};

const { step, shot, done } = await journeySteps('admin-refunds', ARTIFACTS);

// ---- helpers -------------------------------------------------------------------------------------------

const apiClient = () => api(BASE_URL);
const signInContext = (context, ...args) => signIn(BASE_URL, context, ...args);

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

/** A phone in `colorScheme`, carrying the session of `signedInAs` (a desktop context signed in already). */
const phoneContext = async (colorScheme, signedInAs) =>
  newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    colorScheme,
    storageState: await signedInAs.storageState(),
  });

/** An API client signed in as `user`. */
async function signedIn(user) {
  const call = apiClient();
  await call('POST', '/api/login', { username: user.username, password: PASSWORD, portal: 'user' });
  return call;
}

/** The table row of an order on /admin/refunds. */
const refundRow = (page, id) => page.locator(`[data-testid="refund-row"][data-order-id="${id}"]`);
/** The order ids of the table's rows, top to bottom. */
const rowIds = (page) =>
  page
    .getByTestId('refund-row')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-order-id'))));
const search = (page) => page.getByRole('searchbox', { name: 'Search refunds by buyer or seller username' });

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();
const admin = await newContext();
const adminPage = await admin.newPage();
const state = {};

await step(
  'setup: a Manufacturer with a ₹100.00 product, two funded Army buyers who bought 2 each and asked a refund',
  async () => {
    await registerApproved(BASE_URL, [MAKER, REJECTED, APPROVED], PASSWORD, {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
    });
    const makerApi = await signedIn(MAKER);
    state.product = await makerApi('POST', '/api/products', PRODUCT);
    state.orders = {};
    state.apis = {};
    for (const buyer of [REJECTED, APPROVED]) {
      const call = await signedIn(buyer);
      state.apis[buyer.username] = call;
      await topUp(call, '500');
      const order = await call('POST', '/api/orders', {
        productId: state.product.id,
        quantity: 2,
        totalPrice: '200.00',
      });
      // At once: with REFUND_WINDOW_HOURS=0 the window is the purchase's 2-minute deadline.
      await call('POST', `/api/orders/${order.id}/refund-request`, { reason: REASONS[buyer.username] });
      state.orders[buyer.username] = order;
    }
    const wallet = await state.apis[APPROVED.username]('GET', '/api/wallet');
    assert(wallet.balance === '300.00', `the buyer's balance after paying is ${wallet.balance}`);
    await signInContext(admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
    return `orders #${state.orders[REJECTED.username].id} and #${state.orders[APPROVED.username].id}`;
  },
);

await step(
  '/admin/refunds shows both open requests first, newest first, with their reasons',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/refunds`);
    await page.getByRole('heading', { name: 'Refunds', exact: true }).waitFor();
    for (const column of ['Order', 'Product', 'Buyer', 'Seller', 'Amount', 'Reason', 'Status', 'Actions']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    const first = state.orders[APPROVED.username].id;
    const second = state.orders[REJECTED.username].id;
    await refundRow(page, first).waitFor();
    const ids = await rowIds(page);
    assert(ids[0] === first && ids[1] === second, `the first rows are #${ids.slice(0, 2).join(', #')}`);
    for (const buyer of [REJECTED, APPROVED]) {
      const row = refundRow(page, state.orders[buyer.username].id);
      const text = await row.textContent();
      for (const want of [
        PRODUCT.name,
        buyer.username,
        MAKER.username,
        '₹200.00',
        REASONS[buyer.username],
        'Requested',
      ]) {
        assert(
          text.includes(want),
          `the row of #${state.orders[buyer.username].id} lacks "${want}": ${text}`,
        );
      }
      await row
        .getByRole('button', { name: `Approve refund of order #${state.orders[buyer.username].id}` })
        .waitFor();
      const age = await row.locator('time').textContent();
      assert(/ago|now|seconds?|minutes?/.test(age), `the request's age reads "${age}"`);
    }
    await shot(page, 'list');
  },
  { page: adminPage },
);

await step(
  "the search (buyer's username) narrows the list to that buyer, in the address",
  async () => {
    const page = adminPage;
    await search(page).fill(REJECTED.username);
    await page.waitForURL((url) => url.searchParams.get('search') === REJECTED.username);
    const id = state.orders[REJECTED.username].id;
    await page.waitForFunction((want) => {
      const rows = [...document.querySelectorAll('[data-testid="refund-row"]')];
      return rows.length === 1 && rows[0].getAttribute('data-order-id') === String(want);
    }, id);
    await page.getByTestId('list-total').filter({ hasText: '1 refund request' }).waitFor();
    await shot(page, 'search');
  },
  { page: adminPage },
);

await step(
  'Reject: without a reason the server\'s message shows; with one, "Refund rejected" and Rejected with the reason',
  async () => {
    const page = adminPage;
    const id = state.orders[REJECTED.username].id;
    await refundRow(page, id)
      .getByRole('button', { name: `Reject refund of order #${id}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Reject refund' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Reject refund' }).click();
    await dialog.getByText(MSG.reasonRequired).waitFor();
    const reason = dialog.getByRole('textbox', { name: /^Reason for rejection/ });
    await reason.fill('x'.repeat(501));
    await dialog.getByRole('button', { name: 'Reject refund' }).click();
    await dialog.getByText(MSG.reasonTooLong).waitFor();
    await shot(page, 'reject-dialog');
    await reason.fill(DECISION_REASON);
    await dialog.getByRole('button', { name: 'Reject refund' }).click();
    await toast(page, 'Refund rejected', `Order #${id}`);
    await dialog.waitFor({ state: 'hidden' });
    const row = refundRow(page, id);
    await row.locator('[data-status="rejected"]').waitFor();
    await row.getByText(DECISION_REASON).waitFor();
    assert(
      (await row.getByRole('button', { name: /refund of order/ }).count()) === 0,
      'a decided request still has its buttons',
    );
    await shot(page, 'rejected');
  },
  { page: adminPage },
);

await step(
  'Approve: the confirmation names ₹200.00 and 2 units; "Refund approved" and Approved "from held proceeds"',
  async () => {
    const page = adminPage;
    const id = state.orders[APPROVED.username].id;
    await search(page).fill(APPROVED.username);
    await page.waitForURL((url) => url.searchParams.get('search') === APPROVED.username);
    const row = refundRow(page, id);
    await row.getByRole('button', { name: `Approve refund of order #${id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve refund' });
    await dialog.getByText('The buyer gets ₹200.00 back, and the 2 units return to stock.').waitFor();
    await shot(page, 'approve-dialog');
    await dialog.getByRole('button', { name: 'Approve refund' }).click();
    await toast(page, 'Refund approved', `Order #${id}`);
    await dialog.waitFor({ state: 'hidden' });
    await row.locator('[data-status="approved"]').waitFor();
    await row.getByText('from held proceeds').waitFor();
    await shot(page, 'approved');
  },
  { page: adminPage },
);

await step(
  'the status filter: Rejected and Approved each show their own',
  async () => {
    const page = adminPage;
    await search(page).fill(RUN);
    await page.waitForURL((url) => url.searchParams.get('search') === RUN);
    for (const [label, buyer] of [
      ['Rejected', REJECTED],
      ['Approved', APPROVED],
    ]) {
      await page.getByRole('textbox', { name: 'Filter by status' }).click();
      await page.getByRole('option', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('status') === label.toLowerCase());
      const want = state.orders[buyer.username].id;
      await page.waitForFunction((id) => {
        const rows = [...document.querySelectorAll('[data-testid="refund-row"]')];
        return rows.length === 1 && rows[0].getAttribute('data-order-id') === String(id);
      }, want);
    }
  },
  { page: adminPage, independent: true },
);

await step(
  "through the API: the buyer's money is back, the stock rose by 2, the order is refunded, a second decision is 409",
  async () => {
    const buyerApi = state.apis[APPROVED.username];
    const wallet = await buyerApi('GET', '/api/wallet');
    assert(wallet.balance === '500.00', `the refunded buyer's balance is ${wallet.balance}`);
    const product = await buyerApi('GET', `/api/products/${state.product.id}`);
    // 10 - 2 - 2 sold, 2 back from the approved refund.
    assert(product.stock === 8, `the stock is ${product.stock}`);
    const id = state.orders[APPROVED.username].id;
    const purchased = await buyerApi('GET', '/api/orders/purchased?pageSize=32');
    const order = purchased.orders.find((o) => o.id === id);
    assert(order?.status === 'refunded', `order #${id} is ${order?.status}`);
    assert(
      order.refund?.status === 'approved' && order.refund.source === 'escrow',
      'the refund is not approved',
    );
    const adminApi = apiClient();
    await adminApi('POST', '/api/login', {
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
      portal: 'admin',
    });
    for (const body of [{ decision: 'approved' }, { decision: 'rejected', reason: 'Twice.' }]) {
      const refused = await adminApi('PATCH', `/api/admin/refunds/${id}`, body).then(
        () => null,
        (error) => error.message,
      );
      assert(
        refused?.includes('HTTP 409') && refused.includes(MSG.alreadyDecided),
        `a second decision (${body.decision}) answered ${refused ?? 'OK'}`,
      );
    }
    return `balance ₹${wallet.balance}, stock ${product.stock}, order ${order.status}`;
  },
);

await step(
  '1280 px dark, and 375 px light and dark: cards, nothing wider than the screen',
  async () => {
    const url = `${BASE_URL}/admin/refunds?search=${RUN}`;
    const desktop = await newContext({ colorScheme: 'dark', storageState: await admin.storageState() });
    try {
      const page = await desktop.newPage();
      await page.goto(url);
      await refundRow(page, state.orders[APPROVED.username].id).waitFor();
      await page.waitForTimeout(300);
      await shot(page, 'desktop-dark');
    } finally {
      await desktop.close();
    }
    for (const colorScheme of ['light', 'dark']) {
      const phone = await phoneContext(colorScheme, admin);
      try {
        const page = await phone.newPage();
        await page.goto(url);
        await page
          .getByTestId('refund-card')
          .filter({ hasText: `Order #${state.orders[APPROVED.username].id}` })
          .getByText('from held proceeds')
          .waitFor();
        assert(
          !(await page.getByRole('table', { name: 'Refund requests' }).isVisible()),
          'the table shows at 375 px',
        );
        await page.waitForTimeout(300);
        assert((await overflow(page)) <= 0, `the page is ${await overflow(page)}px too wide`);
        await shot(page, `mobile-${colorScheme}`, true);
      } finally {
        await phone.close();
      }
    }
  },
  { page: adminPage, independent: true },
);

await browser.close();

done();
