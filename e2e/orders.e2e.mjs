#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window, PopStateEvent */
// Browser journey of the purchase and the orders screens (docs/product.md §2) against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/orders.e2e.mjs
//
// Setup through the real API: registers a Manufacturer and two Army buyers (the second without a phone
// number), approves them, lists two products (one out of stock) and funds the buyers through the sandbox
// checkout (₹5,000 and ₹1,300). Then, in the browser: the first buyer picks two units on the payment page
// and pays (Processing Payment... → Payment Successful! → /orders after 2 s) and sees the order; the
// quantity resets when the product changes; a price changed meanwhile is refused with its message; the
// second buyer, after buying one unit, is under-funded for another (warning, Pay Now disabled); the
// buyer and the manufacturer get the order's confirmation and sale notice by email, once each; the
// manufacturer sees both sales with the buyers' details ("Not provided" for the missing phone); the
// admin sees the order on /admin/orders and the dashboard's count; 375 px in light and dark mode.
// Screenshots go to e2e/artifacts/orders-*.png. Last line: `orders: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { delayAnswers, launchBrowser } from './lib/browser.mjs';
import { apiClient as api, emailOf, registerApproved, signInContext as signIn, topUp } from './lib/api.mjs';
import { assertLines, onlyMail } from './lib/maildev.mjs';
import { overflow, toast } from './lib/page.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.ORDERS_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = { username: `e2e_omfr_${RUN}`, firstName: 'Ishaan', lastName: 'Arms', role: 'Manufacturer' };
const BUYER = { username: `e2e_obuy_${RUN}`, firstName: 'Rohan', lastName: 'Kapoor', role: 'Army' };
const FRUGAL = {
  username: `e2e_olow_${RUN}`,
  firstName: 'Neha',
  lastName: 'Iyer',
  role: 'Army',
  phoneNumber: '',
};
const PRODUCT = {
  name: `E2E Field Radio ${RUN}`,
  type: 'Equipment',
  price: '1250.50',
  description: 'Encrypted VHF field radio with a 40 km range.',
  stock: 5,
};
const SOLD_OUT = { name: `E2E Sold Out Helmet ${RUN}`, type: 'Equipment', price: '10.00', stock: 0 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * docs/product.md §2: "23 November 2026 at 2:05 pm" on /orders; "23 Nov 2026, 2:05 pm" on /admin/orders; both in
 * India Standard Time and labelled so, whatever the browser's zone (docs/adr/022).
 */
const LONG_DATE = /\b\d{1,2} [A-Z][a-z]+ \d{4} at \d{1,2}:\d{2}\s?[ap]m IST\b/i;
const SHORT_DATE = /\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}\s?[ap]m IST\b/i;

const { step, shot, done } = await journeySteps('orders', ARTIFACTS);

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

const payNow = (page) =>
  page
    .getByTestId('purchase-card')
    .getByRole('button', { name: /Pay Now|Processing|Payment Successful|Out of Stock/ });
const totalIs = (page, text) => page.getByTestId('purchase-total').filter({ hasText: text }).waitFor();
const quantity = (page) => page.getByRole('textbox', { name: 'Quantity' });

async function openPayment(page, id) {
  await page.goto(`${BASE_URL}/market/payment/${id}`);
  await page.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
  await page.getByTestId('wallet-balance').waitFor();
}

/** "₹12,34,567.50": a REST amount as the pages write it (display only). */
const inr = (amount) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(Number(amount));
/** "3:45 pm IST": the time of day as the pages write it. */
const istTime = (iso) =>
  `${new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Kolkata' }).format(new Date(iso))} IST`;
const TOP_UP = '₹500.00';
/** The unpaid top-up's row in the wallet history. */
const topUpRow = (page) => page.getByTestId('transaction-row').filter({ hasText: TOP_UP }).first();

/** The card of an order on /orders. */
const orderCard = (page, id) => page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();
const buyer = await newContext();
const frugal = await newContext();
const maker = await newContext();
const admin = await newContext();
const buyerPage = await buyer.newPage();
const frugalPage = await frugal.newPage();
const makerPage = await maker.newPage();
const adminPage = await admin.newPage();
const state = {};

await step('setup: a Manufacturer with two products, two funded Army buyers, all approved', async () => {
  await registerApproved(BASE_URL, [MAKER, BUYER, FRUGAL], PASSWORD, {
    username: ADMIN_USERNAME,
    password: ADMIN_PASSWORD,
  });

  const makerApi = await signedIn(MAKER);
  state.product = await makerApi('POST', '/api/products', PRODUCT);
  state.soldOut = await makerApi('POST', '/api/products', { ...SOLD_OUT, description: 'None left.' });
  await topUp(await signedIn(BUYER), '5000');
  state.frugalApi = await signedIn(FRUGAL);
  await topUp(state.frugalApi, '1300');

  await signInContext(buyer, BUYER.username, PASSWORD);
  await signInContext(frugal, FRUGAL.username, PASSWORD);
  await signInContext(maker, MAKER.username, PASSWORD);
  await signInContext(admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  return `product #${state.product.id} by ${MAKER.username}`;
});

await step(
  'the payment page shows the product, stock, price, stepper 1..stock, total and balance',
  async () => {
    const page = buyerPage;
    await page.goto(`${BASE_URL}/market`);
    const card = page
      .getByTestId('product-card')
      .filter({ has: page.getByRole('heading', { name: PRODUCT.name }) });
    await card.getByRole('link', { name: 'Purchase' }).click();
    await page.waitForURL((url) => url.pathname === `/market/payment/${state.product.id}`);
    await page.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
    await page.getByRole('heading', { name: PRODUCT.name }).waitFor();
    await page.getByText(PRODUCT.description).waitFor();
    await page.getByText('Selling Quickly! Only 5 left').waitFor();
    await page.getByText('Price per unit').waitFor();
    await page.getByTestId('available-stock').filter({ hasText: '5' }).waitFor();
    await page.getByTestId('wallet-balance').filter({ hasText: '₹5,000.00' }).waitFor();
    await totalIs(page, '₹1,250.50');
    assert(await page.getByRole('button', { name: 'Decrease quantity' }).isDisabled(), 'minus enabled at 1');

    const plus = page.getByRole('button', { name: 'Increase quantity' });
    for (let i = 0; i < 4; i++) await plus.click();
    assert((await quantity(page).inputValue()) === '5', 'the stepper did not reach the stock');
    assert(await plus.isDisabled(), 'plus enabled at the stock');
    await totalIs(page, '₹6,252.50');
    // Over the balance: the warning shows and Pay Now is disabled.
    await page.getByTestId('insufficient-balance').waitFor();
    assert(await payNow(page).isDisabled(), 'Pay Now enabled above the balance');

    // A number over the stock is brought down to it, and the page says why.
    await quantity(page).fill('9');
    await page.waitForFunction(() => document.querySelector('input[aria-label="Quantity"]')?.value === '5');
    await page.getByTestId('quantity-note').filter({ hasText: 'Only 5 in stock' }).waitFor();
    // Retyping: an emptied input disables Pay Now without a warning, and reads 1 when left.
    await quantity(page).fill('');
    await page.getByTestId('insufficient-balance').waitFor({ state: 'hidden' });
    assert(await payNow(page).isDisabled(), 'Pay Now enabled without a quantity');
    await quantity(page).blur();
    await page.waitForFunction(() => document.querySelector('input[aria-label="Quantity"]')?.value === '1');
    await quantity(page).fill('2');
    await totalIs(page, '₹2,501.00');
    await page.getByTestId('insufficient-balance').waitFor({ state: 'hidden' });
    assert(!(await payNow(page).isDisabled()), 'Pay Now disabled for an affordable quantity');
    await shot(page, 'payment');
  },
  { page: buyerPage },
);

await step(
  'Pay Now: Processing Payment..., Payment Successful!, then /orders after 2 s',
  async () => {
    const page = buyerPage;
    // The real answer, held back 800 ms, so that the processing state can be seen.
    const undelay = await delayAnswers(page, '/api/orders', 800);
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/orders'),
      payNow(page).click(),
    ]);
    const body = request.postDataJSON();
    assert(
      body.productId === state.product.id && body.quantity === 2 && body.totalPrice === '2501.00',
      `POST /api/orders sent ${request.postData()}`,
    );
    assert(UUID.test(request.headers()['idempotency-key'] ?? ''), 'the purchase carries an Idempotency-Key');
    await page.getByRole('button', { name: 'Processing Payment...' }).waitFor();
    assert(await payNow(page).isDisabled(), 'Pay Now enabled while processing');
    await shot(page, 'processing');
    await undelay();
    const order = await (await request.response()).json();
    state.order = order;
    await page.getByRole('button', { name: 'Payment Successful!' }).waitFor();
    const shownAt = Date.now();
    await toast(page, 'Purchase successful', 'Your order has been placed successfully.');
    // Success looks like success: what was bought, the stock and balance left, no low-balance warning.
    await page.getByTestId('purchase-success').waitFor();
    await page.getByTestId('available-stock').filter({ hasText: /^3$/ }).waitFor();
    await page.getByTestId('wallet-balance').filter({ hasText: '₹2,499.00' }).waitFor();
    await totalIs(page, '₹2,501.00');
    assert(
      (await page.getByTestId('insufficient-balance').count()) === 0,
      'a low-balance warning after paying',
    );
    await shot(page, 'success');
    await page.waitForURL((url) => url.pathname === '/orders');
    const after = Date.now() - shownAt;
    assert(after > 1_500, `went to /orders ${after} ms after the success`);
    return `order #${order.id} ${order.status}; redirected after ${(after / 1000).toFixed(1)} s`;
  },
  { page: buyerPage },
);

await step(
  "the buyer's Purchases show the order; Army has no Sales tab",
  async () => {
    const page = buyerPage;
    await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Purchases' }).waitFor();
    assert((await page.getByRole('tab', { name: 'Sales' }).count()) === 0, 'Army user sees a Sales tab');
    const card = orderCard(page, state.order.id);
    await card.getByRole('heading', { name: `Order #${state.order.id}` }).waitFor();
    await card.locator('[data-status="completed"]').waitFor();
    for (const text of [PRODUCT.name, PRODUCT.type, PRODUCT.description, '₹1,250.50', '₹2,501.00']) {
      await card.getByText(text, { exact: true }).first().waitFor();
    }
    await card.getByText('2', { exact: true }).waitFor();
    const date = await card.locator('time').innerText();
    assert(LONG_DATE.test(date), `the order date reads "${date}"`);
    await shot(page, 'purchases');

    await openPayment(page, state.product.id);
    await page.getByText('Selling Quickly! Only 3 left').waitFor();
    await page.getByTestId('wallet-balance').filter({ hasText: '₹2,499.00' }).waitFor();
  },
  { page: buyerPage },
);

await step(
  'the buyer gets the order confirmation by email and the seller the sale notice, once each',
  async () => {
    const { id } = state.order;
    const confirmation = await onlyMail({
      to: emailOf(BUYER),
      subject: `Order #${id} confirmed: ${PRODUCT.name}`,
      timeoutMs: TIMEOUT,
    });
    assertLines(confirmation, [
      'Your order is complete: ₹2,501.00 has been paid from your wallet.',
      `Order: #${id}`,
      'Quantity: 2',
      'Unit price: ₹1,250.50',
      `Seller: ${MAKER.firstName} ${MAKER.lastName} (${MAKER.username})`,
    ]);
    const sale = await onlyMail({
      to: emailOf(MAKER),
      subject: `You sold 2 × ${PRODUCT.name} (order #${id})`,
      timeoutMs: TIMEOUT,
    });
    assertLines(sale, [
      `${BUYER.firstName} ${BUYER.lastName} (${BUYER.username}) bought your product: ₹2,501.00 is held ` +
        "while the buyer may ask for a refund, and reaches your wallet's balance on",
      'Total: ₹2,501.00',
    ]);
    assert(
      new RegExp(`balance on ${LONG_DATE.source}\\.`, 'i').test(sale.text),
      `the sale notice names no release time: ${sale.text}`,
    );
  },
);

await step(
  "the manufacturer's wallet shows the sale's proceeds on hold until the refund window closes, not in the balance",
  async () => {
    const page = makerPage;
    const { id } = state.order;
    const wallet = await (await signedIn(MAKER))('GET', '/api/wallet');
    const held = wallet.heldProceeds.find((p) => p.reference === `order-${id}`);
    assert(held?.amount === '2501.00', `the wallet holds ${JSON.stringify(wallet.heldProceeds)}`);
    state.releaseAt = held.releaseAt;
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByTestId('wallet-balance').filter({ hasText: '₹0.00' }).waitFor();
    await page.getByTestId('proceeds-on-hold').filter({ hasText: '₹2,501.00' }).waitFor();
    const line = page.getByTestId('held-proceeds').getByText(`Order #${id}: ₹2,501.00, released`);
    await line.waitFor();
    const text = await line.textContent();
    assert(SHORT_DATE.test(text), `the held sale reads "${text}"`);
    await shot(page, 'proceeds-on-hold');
    for (const colorScheme of ['light', 'dark']) {
      const phone = await phoneContext(colorScheme, maker);
      try {
        const p = await phone.newPage();
        await p.goto(`${BASE_URL}/wallet`);
        await p.getByTestId('held-proceeds').getByText(`Order #${id}: ₹2,501.00, released`).waitFor();
        await p.waitForTimeout(300);
        assert((await overflow(p)) <= 0, `the wallet is ${await overflow(p)}px too wide`);
        await shot(p, `mobile-${colorScheme}-proceeds-on-hold`, true);
      } finally {
        await phone.close();
      }
    }
    return `released at ${held.releaseAt}`;
  },
  { page: makerPage },
);

await step(
  'the quantity resets to 1 when the product changes; a sold-out product says Out of Stock',
  async () => {
    const page = buyerPage;
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await totalIs(page, '₹2,501.00');
    // In-app navigation to another product (the page stays mounted, only the id changes).
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/market/payment/${state.soldOut.id}`);
    await page.getByRole('heading', { name: SOLD_OUT.name }).waitFor();
    await page.getByTestId('purchase-card').getByText('Out of Stock').first().waitFor();
    assert(await payNow(page).isDisabled(), 'a sold-out product can be paid for');
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/market/payment/${state.product.id}`);
    await page.getByRole('heading', { name: PRODUCT.name }).waitFor();
    assert((await quantity(page).inputValue()) === '1', 'the quantity kept its value across products');
    await totalIs(page, '₹1,250.50');
  },
  { page: buyerPage },
);

await step(
  'a missing product: "Product not found" with Back to Market',
  async () => {
    const page = buyerPage;
    await page.goto(`${BASE_URL}/market/payment/999999999`);
    await page.getByRole('heading', { name: 'Product not found' }).waitFor();
    await page
      .getByText("The product you're looking for may have been removed or is temporarily unavailable.")
      .waitFor();
    await page.getByRole('link', { name: 'Back to Market' }).click();
    await page.waitForURL((url) => url.pathname === '/market');
  },
  { page: buyerPage, independent: true },
);

await step(
  'a price changed after the page loaded is refused with its message and the new total shows',
  async () => {
    const page = buyerPage;
    await openPayment(page, state.product.id);
    await totalIs(page, '₹1,250.50');
    const makerApi = await signedIn(MAKER);
    const current = await makerApi('GET', `/api/products/${state.product.id}`);
    await makerApi('PATCH', `/api/products/${state.product.id}`, {
      price: '1300.00',
      version: current.version,
    });
    await payNow(page).click();
    const message = 'The price of this product has changed. Please review the new total and try again.';
    await page.getByRole('alert').filter({ hasText: message }).first().waitFor();
    await totalIs(page, '₹1,300.00');
    await shot(page, 'price-changed');
    await makerApi('PATCH', `/api/products/${state.product.id}`, {
      price: PRODUCT.price,
      version: (await makerApi('GET', `/api/products/${state.product.id}`)).version,
    });
  },
  { page: buyerPage, independent: true },
);

await step(
  'an under-funded buyer sees "Insufficient wallet balance" and a disabled Pay Now',
  async () => {
    // One unit through the API leaves ₹49.50 of ₹1,300.
    state.frugalOrder = await state.frugalApi('POST', '/api/orders', {
      productId: state.product.id,
      quantity: 1,
      totalPrice: PRODUCT.price,
    });
    assert(state.frugalOrder.status === 'completed', `the API purchase ended ${state.frugalOrder.status}`);
    const page = frugalPage;
    await openPayment(page, state.product.id);
    await page.getByTestId('wallet-balance').filter({ hasText: '₹49.50' }).waitFor();
    const warning = page.getByTestId('insufficient-balance');
    await warning.getByText('Insufficient wallet balance').waitFor();
    await warning
      .getByText('Your wallet balance is lower than the total amount. Please add money to your wallet.')
      .waitFor();
    assert(await payNow(page).isDisabled(), 'Pay Now enabled without the money');
    await shot(page, 'insufficient');
  },
  { page: frugalPage, independent: true },
);

await step(
  "the manufacturer sees both sales with the buyers' details; no purchases of their own",
  async () => {
    const page = makerPage;
    await page.goto(`${BASE_URL}/orders`);
    await page.getByText('No Purchases Yet').waitFor();
    await page.getByRole('tab', { name: 'Sales' }).click();
    const sale = orderCard(page, state.order.id);
    await sale.getByRole('heading', { name: `Order #${state.order.id}` }).waitFor();
    const details = sale.getByTestId('buyer-details');
    await details.getByText('Buyer Details').waitFor();
    for (const text of [`${BUYER.firstName} ${BUYER.lastName}`, 'Army', emailOf(BUYER), '+91 98765 43210']) {
      await details.getByText(text).waitFor();
    }
    const other = orderCard(page, state.frugalOrder.id).getByTestId('buyer-details');
    await other.getByText(`${FRUGAL.firstName} ${FRUGAL.lastName}`).waitFor();
    await other.getByText('Not provided').waitFor();
    // The sale's payment waits out its refund window (held until the purchase's deadline in CI).
    if (state.releaseAt && Date.parse(state.releaseAt) > Date.now() + 5_000)
      await sale
        .getByTestId('sale-proceeds')
        .getByText(/^Payment held until \d/)
        .waitFor();
    await shot(page, 'sales', true);
  },
  { page: makerPage, independent: true },
);

await step(
  'a card checkout says when it expires; left unpaid, its line reads Top-up (grey) and Pending',
  async () => {
    const page = frugalPage;
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByRole('button', { name: 'Add Money' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Money' });
    await dialog.getByLabel(/^Amount( \*)?$/).fill('500');
    const [answer] = await Promise.all([
      page.waitForResponse((res) => new URL(res.url()).pathname === '/api/create-order'),
      dialog.getByRole('button', { name: 'Proceed to Pay' }).click(),
    ]);
    const order = await answer.json();
    const left = Date.parse(order.expiresAt) - Date.now();
    assert(left > 0 && left <= 31 * 60_000, `the checkout expires in ${left} ms (${order.expiresAt})`);
    const checkout = page.getByRole('dialog', { name: 'Pay with card' });
    const note = `This checkout expires at ${istTime(order.expiresAt)} if it is not paid.`;
    const shown = await checkout.getByTestId('checkout-expiry').innerText();
    assert(
      shown.replace(/\s/g, ' ') === note.replace(/\s/g, ' '),
      `the checkout says "${shown}", not "${note}"`,
    );
    await shot(page, 'checkout-expiry');
    await checkout.getByRole('button', { name: 'Cancel' }).click();
    const row = topUpRow(page);
    await row.locator('[data-status="pending"]').first().waitFor();
    const badge = row.locator('[data-type="Top-up"]').first();
    await badge.waitFor();
    assert((await badge.getAttribute('style')).includes('gray'), 'a pending top-up is drawn as a credit');
    await page.getByText('Failed includes expired checkouts.').waitFor();
    state.checkoutExpiresAt = order.expiresAt;
    return `expires ${istTime(order.expiresAt)}`;
  },
  { page: frugalPage, independent: true },
);

await step(
  "an administrator's /wallet links to Admin → Wallets",
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByText('Administrators have no wallet').waitFor();
    await page
      .getByText('Every wallet, with its balance and transactions, is under Admin → Wallets.')
      .waitFor();
    await page.getByRole('link', { name: 'View all wallets' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/wallets');
    await page.getByRole('heading', { name: 'Wallet Management' }).waitFor();
  },
  { page: adminPage, independent: true },
);

await step(
  'the admin sees the order on /admin/orders, in each tab, and the dashboard counts it',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/orders`);
    await page.getByRole('heading', { name: 'Order Management' }).waitFor();
    for (const region of ['Total Orders', 'Army Purchases', 'Manufacturer Sales']) {
      await page.getByRole('region', { name: region }).waitFor();
    }
    await page
      .getByRole('region', { name: 'Total Orders' })
      .getByText(/\d+ completed · \d+ pending/)
      .waitFor();
    // Each card its own meaning: a count, the Army buyers' count with their completed value,
    // the Manufacturer sellers' completed value, as GET /api/orders counts them.
    const cards = await (await page.request.get(`${BASE_URL}/api/orders?pageSize=1`)).json();
    const army = page.getByRole('region', { name: 'Army Purchases' });
    await army.getByText(cards.armyCount.toLocaleString('en-IN'), { exact: true }).waitFor();
    await army.getByText(`Orders by Army buyers · ${inr(cards.armyCompletedAmount)} completed`).waitFor();
    const sales = page.getByRole('region', { name: 'Manufacturer Sales' });
    await sales.getByText(inr(cards.manufacturerCompletedAmount), { exact: true }).waitFor();
    await sales.getByText('Completed sales, all manufacturers').waitFor();
    assert(
      Number(cards.manufacturerCompletedAmount) >= 2 * Number(PRODUCT.price),
      `Manufacturer Sales ${cards.manufacturerCompletedAmount} lacks this run's sales`,
    );
    for (const column of ['Order ID', 'Product', 'Buyer', 'Seller', 'Amount', 'Quantity', 'Status', 'Date']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    const row = page.locator(`[data-testid="admin-order-row"][data-order-id="${state.order.id}"]`);
    await row.waitFor();
    // textContent: the badges are upper-cased by CSS only.
    const text = await row.textContent();
    for (const want of [PRODUCT.name, BUYER.username, MAKER.username, '₹2,501.00', 'Completed']) {
      assert(text.includes(want), `the admin row lacks "${want}": ${text}`);
    }
    const date = await row.locator('time').textContent();
    assert(SHORT_DATE.test(date), `the admin row's date reads "${date}"`);
    await shot(page, 'admin-orders');
    for (const tab of ['Army Orders', 'Manufacturer Sales']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      await row.waitFor();
    }
    await page.goto(`${BASE_URL}/admin/dashboard`);
    const count = Number((await page.getByTestId('dashboard-orders-total').innerText()).replace(/,/g, ''));
    assert(count >= 2, `the dashboard counts ${count} orders`);
    await shot(page, 'admin-dashboard');
  },
  { page: adminPage, independent: true },
);

/** The screens on a phone in one colour scheme: payment, purchases, sales and the admin's cards. */
async function phoneJourney(colorScheme) {
  const contexts = [];
  // The desktop contexts' sessions: signing in again per scheme would meet the per-IP sign-in limit
  // that the other journeys on the same stack share.
  const open = async (signedInAs) => {
    const context = await phoneContext(colorScheme, signedInAs);
    contexts.push(context);
    return context.newPage();
  };
  const fits = async (page, name) => {
    await page.waitForTimeout(300);
    assert((await overflow(page)) <= 0, `${name} is ${await overflow(page)}px too wide`);
    await shot(page, `mobile-${colorScheme}-${name}`, true);
  };
  try {
    const page = await open(buyer);
    await openPayment(page, state.product.id);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await totalIs(page, '₹2,501.00');
    await fits(page, 'payment');
    await page.goto(`${BASE_URL}/orders`);
    await orderCard(page, state.order.id).waitFor();
    await fits(page, 'purchases');

    const makerPhone = await open(maker);
    await makerPhone.goto(`${BASE_URL}/orders`);
    await makerPhone.getByRole('tab', { name: 'Sales' }).click();
    await orderCard(makerPhone, state.frugalOrder.id).getByText('Not provided').waitFor();
    await fits(makerPhone, 'sales');

    const adminPhone = await open(admin);
    await adminPhone.goto(`${BASE_URL}/admin/orders`);
    await adminPhone
      .getByTestId('admin-order-card')
      .filter({ hasText: `Order #${state.order.id}` })
      .waitFor();
    assert(
      !(await adminPhone.getByRole('table', { name: 'Orders' }).isVisible()),
      'the table shows at 375 px',
    );
    await fits(adminPhone, 'admin-orders');
  } finally {
    for (const context of contexts) await context.close();
  }
}

await step(
  '375 px, light: payment, purchases, sales and admin orders fit the screen',
  () => phoneJourney('light'),
  {
    page: buyerPage,
    independent: true,
  },
);
await step(
  '375 px, dark: payment, purchases, sales and admin orders fit the screen',
  () => phoneJourney('dark'),
  {
    page: buyerPage,
    independent: true,
  },
);

await step(
  "the unpaid checkout expires: 'Expired', a grey Top-up, found under Failed (wallet and admin), 375 px light and dark",
  async () => {
    assert(state.checkoutExpiresAt, 'no checkout was opened');
    const page = frugalPage;
    // The wallet's sweep expires it within a minute after its time (TOPUP_EXPIRY_MINUTES).
    const deadline = Date.parse(state.checkoutExpiresAt) + 150_000;
    for (;;) {
      await page.goto(`${BASE_URL}/wallet`);
      await topUpRow(page).waitFor();
      if ((await topUpRow(page).locator('[data-status="failed"]').count()) > 0) break;
      assert(Date.now() < deadline, `the checkout due ${state.checkoutExpiresAt} has not expired`);
      await page.waitForTimeout(10_000);
    }
    const row = topUpRow(page);
    const text = await row.textContent();
    assert(text.includes('Expired') && !text.includes('Credit'), `the expired line reads "${text}"`);
    assert(
      (await row.locator('[data-type="Top-up"]').first().getAttribute('style')).includes('gray'),
      'an expired top-up is drawn as a credit',
    );
    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await topUpRow(page).getByText('Expired', { exact: true }).waitFor();
    await shot(page, 'wallet-expired-failed-filter');

    await adminPage.goto(`${BASE_URL}/admin/transactions`);
    await adminPage.getByText('Failed includes expired checkouts.').waitFor();

    for (const colorScheme of ['light', 'dark']) {
      const phone = await phoneContext(colorScheme, frugal);
      try {
        const p = await phone.newPage();
        await p.goto(`${BASE_URL}/wallet`);
        await topUpRow(p).getByText('Expired', { exact: true }).waitFor();
        await p.waitForTimeout(300);
        assert((await overflow(p)) <= 0, `the wallet is ${await overflow(p)}px too wide`);
        await shot(p, `mobile-${colorScheme}-wallet-expired`, true);
        const adminPhone = await (await phoneContext(colorScheme, admin)).newPage();
        await adminPhone.goto(`${BASE_URL}/admin/orders`);
        await adminPhone.getByRole('region', { name: 'Manufacturer Sales' }).waitFor();
        await adminPhone.waitForTimeout(300);
        await shot(adminPhone, `mobile-${colorScheme}-admin-order-cards`);
        await adminPhone.context().close();
      } finally {
        await phone.close();
      }
    }
  },
  { page: frugalPage, independent: true },
);

await step(
  "when the refund window closes, the wallet releases the proceeds to the manufacturer's balance by itself",
  async () => {
    assert(state.releaseAt, 'no proceeds were held');
    const wait = Date.parse(state.releaseAt) - Date.now();
    // CI runs the journeys with REFUND_WINDOW_HOURS=0 (held until the purchase's deadline, 2 min).
    if (wait > 5 * 60_000) return `not waited for: released at ${state.releaseAt} (REFUND_WINDOW_HOURS)`;
    const makerApi = await signedIn(MAKER);
    // The sweeper releases within its interval (5 s) after the release time.
    const deadline = Date.now() + Math.max(wait, 0) + 60_000;
    let wallet;
    for (;;) {
      wallet = await makerApi('GET', '/api/wallet');
      if (!wallet.heldProceeds.some((p) => p.reference === `order-${state.order.id}`)) break;
      assert(
        Date.now() < deadline,
        `order #${state.order.id}'s proceeds still held after ${state.releaseAt}`,
      );
      await makerPage.waitForTimeout(5_000);
    }
    // Every completed sale paid once: what left escrow is what was sold.
    const sold = await makerApi('GET', '/api/orders/sold?pageSize=32');
    const cents = (a) => Math.round(Number(a) * 100);
    const paid = sold.orders
      .filter((o) => o.status === 'completed')
      .reduce((t, o) => t + cents(o.totalPrice), 0);
    const released = cents(wallet.balance) + cents(wallet.proceedsOnHold);
    assert(released === paid, `balance + on hold ₹${released / 100} ≠ the completed sales' ₹${paid / 100}`);
    await makerPage.goto(`${BASE_URL}/wallet`);
    await makerPage
      .getByTestId('wallet-balance')
      .filter({ hasText: inr(wallet.balance) })
      .waitFor();
    await shot(makerPage, 'proceeds-released');
    return `balance ${inr(wallet.balance)}, on hold ${inr(wallet.proceedsOnHold)}`;
  },
  { page: makerPage },
);

await browser.close();

done();
