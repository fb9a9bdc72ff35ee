#!/usr/bin/env node
/**
 * The buyer's refund (docs/adr/028) in a real browser against a running stack: on /orders a completed
 * purchase offers "Request refund" while its window is open; the dialog asks for a reason; the card
 * then says "Refund requested", the seller's proceeds stay held and the administrators are mailed; once
 * an administrator approves (through the API here; the admin page has its own journey), the buyer's
 * open page hears it live (a toast, the card says "Refunded"), the money is back in the buyer's wallet
 * and both parties are mailed. At 1280 px and at 375 px, light and dark.
 *
 *   BASE_URL=http://localhost:8080 node e2e/refunds.e2e.mjs
 *
 * CI runs the stack with REFUND_WINDOW_HOURS=0: the window is the purchase's 2-minute deadline, so the
 * request is made at once.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import { apiClient, emailOf, registerApproved, signInContext, topUp } from './lib/api.mjs';
import { assertLines, onlyMail } from './lib/maildev.mjs';
import { overflow, toast } from './lib/page.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
/** The orders service's REFUND_REQUESTS_MAIL_TO. */
const ADMIN_MAIL = process.env.REFUND_REQUESTS_MAIL_TO ?? 'admin@quartermaster.local';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.REFUNDS_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = { username: `e2e_rmfr_${RUN}`, firstName: 'Meera', lastName: 'Forge', role: 'Manufacturer' };
const BUYER = { username: `e2e_rbuy_${RUN}`, firstName: 'Arjun', lastName: 'Rao', role: 'Army' };
const PRODUCT = {
  name: `E2E Ration Pack ${RUN}`,
  type: 'Equipment',
  price: '100.00',
  stock: 10,
  description: 'One day of rations.',
};
const REASON = 'Two of the packs arrived torn open.';

const { step, shot, done } = await journeySteps('refunds', ARTIFACTS);

const signedIn = async (username, password = PASSWORD, portal = 'user') => {
  const call = apiClient(BASE_URL);
  await call('POST', '/api/login', { username, password, portal });
  return call;
};
const orderCard = (page, id) => page.locator(`[data-testid="order-card"][data-order-id="${id}"]`);

const browser = await launchBrowser();
const buyer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
buyer.setDefaultTimeout(TIMEOUT);
const page = await buyer.newPage();
const state = {};

await step('setup: a Manufacturer with a product, a funded Army buyer, and a purchase of 2', async () => {
  await registerApproved(BASE_URL, [MAKER, BUYER], PASSWORD, {
    username: ADMIN_USERNAME,
    password: ADMIN_PASSWORD,
  });
  state.maker = await signedIn(MAKER.username);
  state.buyer = await signedIn(BUYER.username);
  state.product = await state.maker('POST', '/api/products', PRODUCT);
  await topUp(state.buyer, '1000');
  state.order = await state.buyer('POST', '/api/orders', {
    productId: state.product.id,
    quantity: 2,
    totalPrice: '200.00',
  });
  assert(state.order.status === 'completed', `the purchase is ${state.order.status}`);
  assert(state.order.refundableUntil, 'the order names no refund window');
  await signInContext(BASE_URL, buyer, BUYER.username, PASSWORD);
  return `order #${state.order.id}, refundable until ${state.order.refundableUntil}`;
});

await step(
  "the purchase offers Request refund; the dialog wants a reason; sent, the card says 'Refund requested'",
  async () => {
    await page.goto(`${BASE_URL}/orders`);
    const card = orderCard(page, state.order.id);
    await card.getByRole('button', { name: 'Request refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request refund' });
    await dialog.getByText(`Order #${state.order.id}: ₹200.00 back to your wallet if approved.`).waitFor();
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await dialog.getByText('Please give a reason for the refund').waitFor();
    await shot(page, 'request-dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(REASON);
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await toast(page, 'Refund requested');
    await dialog.waitFor({ state: 'hidden' });
    const status = card.getByTestId('refund-status');
    await status.getByText('Refund requested').waitFor();
    await status.getByText(REASON).waitFor();
    assert(
      (await card.getByRole('button', { name: 'Request refund' }).count()) === 0,
      'the card still offers a refund request',
    );
    await shot(page, 'requested');
  },
  { page },
);

await step("the seller's proceeds stay held while the request is open", async () => {
  const wallet = await state.maker('GET', '/api/wallet');
  const held = wallet.heldProceeds.find((p) => p.reference === `order-${state.order.id}`);
  assert(held?.amount === '200.00', `the seller's held proceeds: ${JSON.stringify(wallet.heldProceeds)}`);
  const again = await state
    .buyer('POST', `/api/orders/${state.order.id}/refund-request`, { reason: 'again' })
    .then(
      () => 'accepted',
      (err) => err.message,
    );
  assert(/HTTP 409 A refund has already been requested/.test(again), `a second request: ${again}`);
});

await step('the administrators are mailed the request, once, with its reason', async () => {
  const mail = await onlyMail({
    to: ADMIN_MAIL,
    subject: `Refund requested for order #${state.order.id}`,
    timeoutMs: TIMEOUT,
  });
  assertLines(mail, [
    `Arjun Rao (${BUYER.username}) asked for a refund of ₹200.00 for order #${state.order.id}.`,
    `Reason: ${REASON}`,
    'Approve or reject it under Admin → Refunds.',
  ]);
});

await step(
  "approved by an administrator: the buyer's open page hears it live (a toast, the card says 'Refunded'), and the ₹200.00 is back in the wallet",
  async () => {
    const before = await state.buyer('GET', '/api/wallet');
    // The buyer's page stays open on /orders: the decision arrives without a reload.
    await page.goto(`${BASE_URL}/orders`);
    const card = orderCard(page, state.order.id);
    await card.getByTestId('refund-status').waitFor();
    const admin = await signedIn(ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
    const decided = await admin('PATCH', `/api/admin/refunds/${state.order.id}`, { decision: 'approved' });
    assert(decided.status === 'refunded', `the order is ${decided.status}`);
    await toast(page, 'Refund approved');
    await card.locator('[data-status="refunded"]').waitFor();
    await card.getByTestId('refund-status').getByText('Refunded').waitFor();
    await shot(page, 'refund-approved-live');
    const after = await state.buyer('GET', '/api/wallet');
    const paise = (a) => Math.round(Number(a) * 100);
    assert(
      paise(after.balance) - paise(before.balance) === 200_00,
      `balance ${before.balance} → ${after.balance}`,
    );
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByTestId('transaction-row').filter({ hasText: 'Refund:' }).first().waitFor();
    await shot(page, 'refunded-wallet');
    return `wallet ₹${before.balance} → ₹${after.balance}`;
  },
  { page },
);

await step('the buyer and the seller are each mailed the decision, once', async () => {
  const buyerMail = await onlyMail({
    to: emailOf(BUYER),
    subject: `Your refund for order #${state.order.id} is approved`,
    timeoutMs: TIMEOUT,
  });
  assertLines(buyerMail, ['Your refund is approved: ₹200.00 is back in your wallet.', 'Quantity: 2']);
  const sellerMail = await onlyMail({
    to: emailOf(MAKER),
    subject: `Order #${state.order.id} was refunded`,
    timeoutMs: TIMEOUT,
  });
  assertLines(sellerMail, ["The 2 units are back in your product's stock if it is still listed."]);
});

for (const colorScheme of ['light', 'dark']) {
  await step(
    `375 px, ${colorScheme}: the refunded order's card fits the screen`,
    async () => {
      const phone = await browser.newContext({
        viewport: { width: 375, height: 812 },
        deviceScaleFactor: 2,
        isMobile: true,
        colorScheme,
        storageState: await buyer.storageState(),
      });
      try {
        const p = await phone.newPage();
        await p.goto(`${BASE_URL}/orders`);
        await orderCard(p, state.order.id).getByTestId('refund-status').waitFor();
        await p.waitForTimeout(300);
        assert((await overflow(p)) <= 0, `the orders page is ${await overflow(p)}px too wide`);
        await shot(p, `mobile-${colorScheme}-refunded`, true);
      } finally {
        await phone.close();
      }
    },
    { page },
  );
}

await browser.close();
done();
