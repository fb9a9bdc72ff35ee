#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window */
// Browser journey of the wallet (docs/product.md §2) against the running stack, in headless Chromium.
//
//   BASE_URL=http://localhost:8080 MAILDEV_URL=http://localhost:1080 ADMIN_PASSWORD=Admin@12345 \
//     node e2e/wallet.e2e.mjs
//
// Setup through the real API: registers two Army users (unique usernames) and approves both as the
// administrator. Then, in the browser: the sender tops up ₹500 through the sandbox checkout (a declined
// card first, then 4242…) and finds its receipt in maildev, sets a wallet PIN with the code mailed to
// maildev, transfers ₹123.45 to the receiver (after one wrong PIN); both histories show it (the
// receiver's as received) and so does the admin's /admin/transactions. The key steps are repeated on
// a 375 px screen in light and dark mode.
// Screenshots go to e2e/artifacts/wallet-*.png. Last line: `wallet: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { delayAnswers, launchBrowser } from './lib/browser.mjs';
import { emailOf, registerApproved, signInContext as signIn } from './lib/api.mjs';
import { checkA11y } from './lib/a11y.mjs';
import { assertLines, codeIn, mailIds, onlyMail } from './lib/maildev.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.WALLET_TIMEOUT_MS ?? 30_000);
/** The payment the ₹500 top-up was paid with (its receipt names it). */
let topUpPaymentId = '';

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const PIN = '246810';
const SENDER = { username: `e2e_pay_${RUN}`, firstName: 'Meera', lastName: 'Rao', role: 'Army' };
const RECEIVER = { username: `e2e_get_${RUN}`, firstName: 'Vikram', lastName: 'Singh', role: 'Army' };
/** Opens a checkout and walks away from it (the expiry of TOPUP_EXPIRY_MINUTES). */
const ABANDONER = { username: `e2e_gone_${RUN}`, firstName: 'Kiran', lastName: 'Das', role: 'Army' };
/**
 * The wallet's TOPUP_EXPIRY_MINUTES, when the stack was started with it (the stack passes the
 * environment to its services): with a short one (1 or 2) the journey waits for the abandoned checkout to
 * expire. With the default 30 minutes, the sweeper's integration test (services/wallet/test/
 * topups.int.test.ts) is what shows it.
 */
const EXPIRY_MINUTES = Number(process.env.TOPUP_EXPIRY_MINUTES ?? 30);
const CARD = { ok: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', expiry: '12/34', cvc: '123' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const { step, shot, done } = await journeySteps('wallet', ARTIFACTS);

/** A label as Mantine renders it, with or without the required asterisk. */
const label = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

// ---- API helpers (Node side) -------------------------------------------------------------------------

const signInContext = (context, ...args) => signIn(BASE_URL, context, ...args);

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

/** A phone-sized context (375 px wide) in the given colour scheme. */
const phoneContext = (colorScheme) =>
  newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, colorScheme });

/** Waits for a toast with this title (and message), as Mantine notifications render it (role="alert"). */
async function toast(page, title, message) {
  const alert = page.locator('.mantine-Notification-root').filter({ hasText: title });
  await alert.first().waitFor({ state: 'visible' });
  if (message) await alert.filter({ hasText: message }).first().waitFor({ state: 'visible' });
}

/** How much wider than the screen the page is (0 when it fits). */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

// ---- screens -------------------------------------------------------------------------------------------

async function openWallet(page) {
  const [request] = await Promise.all([
    // The page's load records the view: POST /api/wallet/views (a GET never records one).
    page.waitForRequest((req) => new URL(req.url()).pathname === '/api/wallet/views'),
    page.goto(`${BASE_URL}/wallet`),
  ]);
  await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
  await page.getByText('Current Balance').waitFor();
  await page.getByTestId('wallet-balance').waitFor();
  return request;
}

const balance = (page) => page.getByTestId('wallet-balance');

async function expectBalance(page, text) {
  await page.getByTestId('wallet-balance').filter({ hasText: text }).waitFor();
}

/** Add Money → amount → Proceed to Pay; resolves with the create-order request and the checkout dialog. */
async function startTopUp(page, amount) {
  await page.getByRole('button', { name: 'Add Money' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Money' });
  await dialog.waitFor();
  await dialog.getByLabel(label('Amount')).fill(amount);
  const [request] = await Promise.all([
    page.waitForRequest(
      (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/create-order',
    ),
    dialog.getByRole('button', { name: 'Proceed to Pay' }).click(),
  ]);
  const checkout = page.getByRole('dialog', { name: 'Pay with card' });
  await checkout.waitFor();
  await checkout.getByText('Sandbox — no real money').waitFor();
  return { request, checkout };
}

async function fillCard(checkout, number) {
  await checkout.getByLabel(label('Card number')).fill(number);
  await checkout.getByLabel(label('Expiry')).fill(CARD.expiry);
  await checkout.getByLabel(label('CVC')).fill(CARD.cvc);
}

/** Pays in the open checkout with the good test card; resolves with the verify-payment request. */
async function payOk(page, checkout) {
  await fillCard(checkout, CARD.ok);
  const [verify] = await Promise.all([
    page.waitForRequest(
      (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/verify-payment',
    ),
    checkout.getByRole('button', { name: /^Pay ₹/ }).click(),
  ]);
  await toast(page, 'Payment Successful', 'Your wallet has been credited.');
  await checkout.waitFor({ state: 'hidden' });
  return verify;
}

/** Fills the transfer dialog and waits until the receiver shows as eligible. */
async function fillTransfer(dialog, { receiver, amount, pin }) {
  await dialog.getByLabel(label("Receiver's Username")).fill(receiver);
  await dialog.locator('[data-testid="receiver-eligibility"][data-state="eligible"]').waitFor();
  await dialog.getByLabel(label('Amount')).fill(amount);
  await dialog.getByLabel(label('PIN')).fill(pin);
}

/** A history row (table row or card) holding all these texts. */
const historyRow = (page, ...texts) => {
  let row = page.getByTestId('transaction-row');
  for (const text of texts) row = row.filter({ hasText: text });
  return row.first();
};

/** The colour Mantine draws money in with (the wallet history's arrived credits). */
const greenText = (page) =>
  page.evaluate(() =>
    window.getComputedStyle(document.body).getPropertyValue('--mantine-color-green-text').trim(),
  );

/**
 * The admin's transactions narrowed to one user (?userId=, the wallets list's link): the failed top-up of
 * `amount` shows the badge `badge` (Failed, or Expired for a checkout nobody paid) and its reason line, is
 * not drawn as money in (no "+", not green), and is listed under the Failed filter, not under Completed.
 * A table row from 768 px up, a card below.
 */
async function adminFailedTopUp(page, { userId, amount, badge, reason }) {
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  const lines = page.getByTestId(phone ? 'admin-transaction-card' : 'admin-transaction-row');
  const line = lines.filter({ hasText: amount }).filter({ hasText: reason });
  const list = `${BASE_URL}/admin/transactions?userId=${userId}`;
  await page.goto(list);
  await page.getByTestId('transactions-user-filter').waitFor();
  await line.first().waitFor();
  assert((await line.count()) === 1, `${await line.count()} lines of ${amount} with "${reason}"`);
  // textContent: the badge's CSS writes it in capitals.
  const shown = (await line.locator('[data-status="failed"]').first().textContent())?.trim();
  assert(shown === badge, `the badge reads ${shown}, not ${badge}`);
  await line.getByTestId('failure-reason').filter({ hasText: reason }).waitFor();
  const text = (await line.textContent()) ?? '';
  assert(!text.includes(`+${amount}`), `the failed top-up reads as money in: "${text}"`);
  const green = await greenText(page);
  const colours = await line
    .getByText(amount, { exact: true })
    .evaluateAll((els) => els.map((el) => window.getComputedStyle(el).color));
  assert(colours.length > 0, `no amount ${amount} in the line`);
  assert(!green || !colours.includes(green), `the failed amount ${amount} is drawn green`);
  await page.goto(`${list}&status=failed`);
  await line.first().waitFor();
  await page.goto(`${list}&status=completed`);
  await lines.first().or(page.getByText('No transactions found')).waitFor();
  assert((await line.count()) === 0, 'the failed top-up is listed under Completed');
  await page.goto(list);
  await line.first().waitFor();
}

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();
const sender = await newContext();
const receiver = await newContext();
const admin = await newContext();
const senderPage = await sender.newPage();
const receiverPage = await receiver.newPage();
const adminPage = await admin.newPage();
const abandoner = await newContext();
const abandonerPage = await abandoner.newPage();

/** The users' ids, for the admin's list narrowed to one user (?userId=). */
const ids = {};

await step('setup: register three Army users and approve them as admin', async () => {
  const [senderId, receiverId, abandonerId] = await registerApproved(
    BASE_URL,
    [SENDER, RECEIVER, ABANDONER],
    PASSWORD,
    { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  );
  Object.assign(ids, { sender: senderId, receiver: receiverId, abandoner: abandonerId });
  await signInContext(sender, SENDER.username, PASSWORD);
  await signInContext(receiver, RECEIVER.username, PASSWORD);
  await signInContext(abandoner, ABANDONER.username, PASSWORD);
  await signInContext(admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  return `${SENDER.username} (#${senderId}) → ${RECEIVER.username} (#${receiverId})`;
});

let abandonedAt = 0;
await step(
  'an abandoned checkout is a pending line, not a credit: the balance stays ₹0.00',
  async () => {
    const page = abandonerPage;
    await openWallet(page);
    const { checkout } = await startTopUp(page, '250');
    abandonedAt = Date.now();
    await checkout.getByRole('button', { name: 'Cancel' }).click();
    await checkout.waitFor({ state: 'hidden' });
    const row = historyRow(page, '₹250.00', 'Pending');
    await row.waitFor();
    const color = await row.getByText('₹250.00').evaluate((el) => window.getComputedStyle(el).color);
    const green = await page.evaluate(() =>
      window.getComputedStyle(document.body).getPropertyValue('--mantine-color-green-text'),
    );
    assert(!green || color !== green, 'a pending top-up is drawn as money received');
    await expectBalance(page, '₹0.00');
  },
  { page: abandonerPage, independent: true },
);

await step(
  'a new wallet shows ₹0.00, the actions and an empty history, drawn in the HTML (ADR 031); the page load counts as a view',
  async () => {
    const page = senderPage;
    const calls = [];
    const record = (req) => {
      const { pathname, search } = new URL(req.url());
      if (pathname.startsWith('/api/wallet') || pathname === '/api/transactions')
        calls.push(`${req.method()} ${pathname}${search}`);
    };
    page.on('request', record);
    const document = page.waitForResponse((res) => new URL(res.url()).pathname === '/wallet');
    const request = await openWallet(page);
    // Before any script ran: the frame the gateway sent has the empty history where the page has it.
    const html = await (await document).text();
    assert(html.includes('No transactions found'), "the HTML of a new wallet's page has no empty history");
    assert(request.method() === 'POST', `wallet loaded as ${request.method()} ${request.url()}`);
    await expectBalance(page, '₹0.00');
    await page.getByText('Actions', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await page.getByText('No transactions found').waitFor();
    await page.waitForTimeout(500);
    page.off('request', record);
    // One view recorded per visit; the history's first page came with the page, so none is asked for.
    const views = calls.filter((call) => call === 'POST /api/wallet/views');
    const histories = calls.filter((call) => call.startsWith('GET /api/transactions'));
    assert(views.length === 1 && histories.length === 0, `opening /wallet asked ${calls.join(', ')}`);
    // On a phone the page takes the frame's place without moving what the frame drew: the history's
    // heading stands where it stood while the wallet's scripts were still on their way.
    const phone = await sender.newPage({ viewport: { width: 375, height: 800 } });
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await phone.route('**/remotes/wallet/**', async (route) => {
      await held;
      await route.continue();
    });
    await phone.goto(`${BASE_URL}/wallet`);
    const heading = phone.getByRole('heading', { name: 'Transaction History' });
    const inFrame = await heading.boundingBox();
    release();
    await phone.getByRole('button', { name: 'Add Money' }).waitFor();
    const inPage = await heading.boundingBox();
    assert(
      inFrame && inPage && Math.abs(inFrame.y - inPage.y) < 1,
      `the history moved from y=${inFrame?.y} in the frame to y=${inPage?.y} in the page at 375 px`,
    );
    await phone.close();
    await shot(page, 'empty');
  },
  { page: senderPage },
);

await step(
  'Add Money refuses an amount outside ₹100 to ₹1,00,000',
  async () => {
    const page = senderPage;
    await page.getByRole('button', { name: 'Add Money' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Money' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Proceed to Pay' }).click();
    await dialog.getByText('Amount is required').waitFor();
    await dialog.getByLabel(label('Amount')).fill('50');
    await dialog.getByRole('button', { name: 'Proceed to Pay' }).click();
    await dialog.getByText('Amount must be between ₹100 and ₹1,00,000').waitFor();
    await dialog.getByLabel(label('Amount')).fill('100001');
    await dialog.getByRole('button', { name: 'Proceed to Pay' }).click();
    await dialog.getByText('Amount must be between ₹100 and ₹1,00,000').waitFor();
    await shot(page, 'add-money-invalid');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  },
  { page: senderPage },
);

await step(
  'a declined card shows "Your card was declined." in the checkout and as a toast; nothing is credited',
  async () => {
    const page = senderPage;
    const { request, checkout } = await startTopUp(page, '500');
    assert(request.postDataJSON()?.amount === '500', `create-order sent ${request.postData()}`);
    assert(UUID.test(request.headers()['idempotency-key'] ?? ''), 'create-order carries an Idempotency-Key');
    await checkout.getByText('₹500.00').first().waitFor();
    await fillCard(checkout, CARD.declined);
    await checkout.getByRole('button', { name: 'Pay ₹500.00' }).click();
    await checkout.getByText('Your card was declined.').waitFor();
    await toast(page, 'Payment Failed', 'Your card was declined.');
    await shot(page, 'declined');
    await expectBalance(page, '₹0.00');
    // The attempt failed at once, with the reason, and is not drawn as money received.
    const failed = historyRow(page, '₹500.00', 'Failed');
    await failed.getByTestId('failure-reason').filter({ hasText: 'Your card was declined.' }).waitFor();
    const decoration = await failed
      .getByText('₹500.00')
      .evaluate((el) => window.getComputedStyle(el).textDecorationLine);
    assert(decoration.includes('line-through'), `a failed amount is struck through, not ${decoration}`);
    // The checkout stays open on the same order for another card.
    return 'checkout still open';
  },
  { page: senderPage },
);

await step(
  'paying ₹500 with 4242… credits the wallet; balance and history refresh',
  async () => {
    const page = senderPage;
    const checkout = page.getByRole('dialog', { name: 'Pay with card' });
    const verify = await payOk(page, checkout);
    const proof = verify.postDataJSON();
    assert(proof.providerOrderId && proof.providerPaymentId, `verify-payment sent ${verify.postData()}`);
    assert(UUID.test(verify.headers()['idempotency-key'] ?? ''), 'verify-payment carries an Idempotency-Key');
    await expectBalance(page, '₹500.00');
    const row = historyRow(page, '₹500.00', 'Completed');
    await row.waitFor();
    await row.getByText('Credit', { exact: true }).waitFor();
    await row.getByText(/ago|seconds|minute/).waitFor();
    await shot(page, 'topped-up');
    topUpPaymentId = proof.providerPaymentId;
  },
  { page: senderPage },
);

await step(
  '/wallet arrives with its balance drawn in the HTML, and the page asks for no session check (ADR 031)',
  async () => {
    const page = await sender.newPage();
    const asked = [];
    page.on('request', (req) => asked.push(`${req.method()} ${new URL(req.url()).pathname}`));
    const viewed = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/wallet/views');
    const html = await (await page.goto(`${BASE_URL}/wallet`)).text();
    // Before any script ran: the frame the gateway sent shows the balance where the page shows it.
    const frameBalance = html.match(/data-testid="wallet-balance"[^>]*>([^<]*)</)?.[1];
    assert(frameBalance === '₹500.00', `the HTML's balance is ${frameBalance}`);
    assert(html.includes('id="qm-page-data"'), 'the page came without its data');
    await page.getByRole('button', { name: 'Add Money' }).waitFor();
    await expectBalance(page, '₹500.00');
    // The theme's CSS variables came with the frame and were kept, not worked out again: one copy,
    // beside #root rather than in it (frontends/shell/src/themeVariables.ts).
    const variables = await page.evaluate(() =>
      [...document.querySelectorAll('style[data-mantine-styles="true"]')].map(
        (style) => style.parentElement?.id || style.parentElement?.tagName,
      ),
    );
    assert(
      variables.length === 1 && variables[0] === 'BODY',
      `the theme's variables are in ${variables.join(', ') || 'no element'}`,
    );
    // The view is still recorded by the page's own POST; who is signed in came with the page.
    await viewed;
    assert(asked.includes('POST /api/wallet/views'), `the page did not record its view: ${asked.join(', ')}`);
    assert(
      !asked.includes('GET /api/user'),
      'the page asked GET /api/user although the session came with it',
    );
    await page.close();
  },
  { page: senderPage },
);

await step('the receipt of the ₹500 top-up arrives by email, once, naming its payment', async () => {
  const receipt = await onlyMail({ to: emailOf(SENDER), subject: /^Receipt: /, timeoutMs: TIMEOUT });
  assert(receipt.subject === 'Receipt: ₹500.00 added to your Quartermaster wallet', receipt.subject);
  assertLines(receipt, [
    'Amount: ₹500.00',
    `Payment reference: ${topUpPaymentId}`,
    'Wallet balance now: ₹500.00',
  ]);
});

await step(
  'Transfer checks the PIN status, then Setup Wallet PIN asks for valid PIN fields before sending a code (both axe clean)',
  async () => {
    const page = senderPage;
    // The real answer, held back 4 s, so that the progress dialog can be seen and checked by axe.
    const undelay = await delayAnswers(page, '/api/wallet/pin-status', 4_000);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await page.getByRole('dialog', { name: 'Checking PIN Status' }).waitFor();
    await checkA11y(page, 'Checking PIN Status dialog');
    await undelay();
    const dialog = page.getByRole('dialog', { name: 'Setup Wallet PIN' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Send OTP' }).click();
    await toast(page, 'Error', 'Please fill in the PIN fields correctly before requesting OTP');
    await dialog.getByText('PIN must be at least 6 digits').waitFor();
    await dialog.getByLabel(label('New PIN')).fill(PIN);
    await dialog.getByLabel(label('Confirm PIN')).fill('135790');
    await dialog.getByRole('button', { name: 'Send OTP' }).click();
    await dialog.getByText("PINs don't match").waitFor();
    assert(await dialog.getByRole('button', { name: 'Verify OTP' }).isDisabled(), 'Verify OTP before a code');
    await shot(page, 'pin-invalid');
    await checkA11y(page, 'Setup Wallet PIN dialog, fields refused');
  },
  { page: senderPage },
);

await step(
  'the PIN is set with the code from maildev (the code step axe clean): "Success!" for 2 s, then the transfer dialog',
  async () => {
    const page = senderPage;
    const dialog = page.getByRole('dialog', { name: 'Setup Wallet PIN' });
    await dialog.getByLabel(label('Confirm PIN')).fill(PIN);
    const seen = await mailIds();
    await dialog.getByRole('button', { name: 'Send OTP' }).click();
    await toast(page, 'OTP Sent', 'Please check your email for the OTP');
    const code = await codeIn({ to: emailOf(SENDER), seen, timeoutMs: TIMEOUT });
    await dialog.getByLabel(label('OTP')).fill(code);
    await shot(page, 'pin-otp');
    await checkA11y(page, 'Setup Wallet PIN dialog, emailed code');
    await dialog.getByRole('button', { name: 'Verify OTP' }).click();
    const success = page.getByRole('dialog', { name: 'Success!' });
    await success.waitFor();
    await success.getByText('PIN setup completed successfully. You can now make transactions.').waitFor();
    const shownAt = Date.now();
    await shot(page, 'pin-success');
    await page.getByRole('dialog', { name: 'Transfer Money' }).waitFor();
    const shownFor = Date.now() - shownAt;
    assert(shownFor > 1_000, `the success message closed after ${shownFor} ms`);
    return `code ${code}; success shown ${(shownFor / 1000).toFixed(1)} s`;
  },
  { page: senderPage },
);

await step(
  'the receiver field shows a red cross for an unknown user (axe clean) and a green tick for the receiver',
  async () => {
    const page = senderPage;
    const dialog = page.getByRole('dialog', { name: 'Transfer Money' });
    const note = dialog.getByTestId('receiver-eligibility');
    await dialog.getByLabel(label("Receiver's Username")).fill(`nobody_${RUN}`);
    await dialog.locator('[data-testid="receiver-eligibility"][data-state="ineligible"]').waitFor();
    assert((await note.innerText()).trim().length > 0, 'an ineligible receiver comes with a message');
    assert(
      await dialog.getByRole('button', { name: 'Transfer', exact: true }).isDisabled(),
      'Transfer enabled',
    );
    await shot(page, 'receiver-ineligible');
    await checkA11y(page, 'Transfer Money dialog, unknown receiver');
    await dialog.getByLabel(label("Receiver's Username")).fill(SENDER.username);
    await dialog.locator('[data-testid="receiver-eligibility"][data-state="ineligible"]').waitFor();
    const self = (await note.innerText()).trim();
    await dialog.getByLabel(label("Receiver's Username")).fill(RECEIVER.username);
    await dialog.locator('[data-testid="receiver-eligibility"][data-state="eligible"]').waitFor();
    assert(
      !(await dialog.getByRole('button', { name: 'Transfer', exact: true }).isDisabled()),
      'Transfer disabled',
    );
    return `to self: "${self}"`;
  },
  { page: senderPage },
);

await step(
  'a wrong PIN is refused with the attempts left (the dialog axe clean); nothing moves',
  async () => {
    const page = senderPage;
    const dialog = page.getByRole('dialog', { name: 'Transfer Money' });
    await fillTransfer(dialog, { receiver: RECEIVER.username, amount: '123.45', pin: '999999' });
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await toast(page, 'Transfer failed', 'Incorrect PIN.');
    await dialog.getByText(/Incorrect PIN\. \d+ attempts? left\./).waitFor();
    await shot(page, 'wrong-pin');
    await checkA11y(page, 'Transfer Money dialog, wrong PIN');
    await expectBalance(page, '₹500.00');
  },
  { page: senderPage },
);

await step(
  'the sender transfers ₹123.45: toast, balance ₹376.55 and the history row',
  async () => {
    const page = senderPage;
    const dialog = page.getByRole('dialog', { name: 'Transfer Money' });
    await dialog.getByLabel(label('PIN')).fill(PIN);
    const [request] = await Promise.all([
      page.waitForRequest(
        (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/wallet/transfer',
      ),
      dialog.getByRole('button', { name: 'Transfer', exact: true }).click(),
    ]);
    const sent = request.postDataJSON();
    assert(
      sent.receiverUsername === RECEIVER.username && sent.amount === '123.45' && sent.pin === PIN,
      `transfer sent ${request.postData()}`,
    );
    assert(UUID.test(request.headers()['idempotency-key'] ?? ''), 'transfer carries an Idempotency-Key');
    await toast(page, 'Money transferred successfully');
    await dialog.waitFor({ state: 'hidden' });
    await expectBalance(page, '₹376.55');
    const row = historyRow(page, '₹123.45');
    await row.waitFor();
    // textContent: the badges are upper-cased by CSS only.
    const text = await row.textContent();
    assert(text.includes('−') && !text.includes('Received'), `the sender's row reads "${text}"`);
    await shot(page, 'sent', true);
  },
  { page: senderPage },
);

await step(
  "the receiver's wallet shows ₹123.45 received",
  async () => {
    const page = receiverPage;
    await openWallet(page);
    await expectBalance(page, '₹123.45');
    const row = historyRow(page, '₹123.45', 'Received');
    await row.waitFor();
    assert((await row.innerText()).includes('+'), 'a received credit reads as money in');
    await shot(page, 'received');
    // The status filter: nothing of the receiver's is pending.
    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Pending', exact: true }).click();
    await page.getByText('No transactions found').waitFor();
    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'All Transactions', exact: true }).click();
    await historyRow(page, '₹123.45', 'Received').waitFor();
  },
  { page: receiverPage },
);

await step(
  "the admin's Transaction Management lists the transfer; sorting and the status filter work",
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/transactions`);
    await page.getByRole('heading', { name: 'Transaction Management' }).waitFor();
    for (const card of ['Total Balance', 'Pending Transactions', 'Completed Transactions']) {
      await page.getByRole('region', { name: card }).waitFor();
    }
    const date = page.getByRole('columnheader', { name: 'Date' });
    assert((await date.getAttribute('aria-sort')) === 'descending', 'default sort is date descending');
    const rows = page.getByTestId('admin-transaction-row').filter({ hasText: '₹123.45' });
    await rows.filter({ hasText: SENDER.username }).first().waitFor();
    await rows.filter({ hasText: RECEIVER.username }).first().waitFor();
    await shot(page, 'admin-transactions');

    await date.getByRole('button').click();
    await page.waitForFunction(() =>
      document.querySelector('th[aria-sort="ascending"]')?.textContent?.includes('Date'),
    );
    const amount = page.getByRole('columnheader', { name: 'Amount' });
    await amount.getByRole('button').click();
    await page.waitForFunction(() =>
      document.querySelector('th[aria-sort="descending"]')?.textContent?.includes('Amount'),
    );
    // The status filter is a segmented control: its visible labels are what a user clicks.
    const filter = (name) => page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
    await filter('Completed').click();
    await page
      .getByRole('radio', { name: 'Completed' })
      .and(page.locator(':checked'))
      .waitFor({ state: 'attached' });
    await page.getByTestId('admin-transaction-row').first().waitFor();
    await filter('Failed').click();
    await page
      .getByTestId('admin-transaction-row')
      .first()
      .or(page.getByText('No transactions found'))
      .waitFor();

    await page.goto(`${BASE_URL}/admin/dashboard`);
    await page.getByTestId('dashboard-transactions-total').waitFor();
    await shot(page, 'admin-dashboard');
  },
  { page: adminPage, independent: true },
);

await step(
  "the admin's list of the sender: the declined top-up is a Failed line with its reason, not money in",
  async () => {
    await adminFailedTopUp(adminPage, {
      userId: ids.sender,
      amount: '₹500.00',
      badge: 'Failed',
      reason: 'Your card was declined.',
    });
    await shot(adminPage, 'admin-declined');
  },
  { page: adminPage, independent: true },
);

await step(
  'an administrator on /wallet sees that administrators have no wallet, with no money actions; on /market no Purchase',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByText('Administrators have no wallet').waitFor();
    assert((await page.getByRole('button', { name: 'Add Money' }).count()) === 0, 'no Add Money');
    assert((await page.getByRole('button', { name: 'Transfer', exact: true }).count()) === 0, 'no Transfer');
    assert((await page.getByText('Failed to fetch').count()) === 0, 'no fetch error');
    await shot(page, 'admin-no-wallet');
    await page.getByRole('link', { name: 'View all transactions' }).click();
    await page.getByRole('heading', { name: 'Transaction Management' }).waitFor();
    await page.goto(`${BASE_URL}/market`);
    // Other journeys' products may or may not be listed yet: either way, no Purchase for an administrator.
    await page.getByTestId('product-card').first().or(page.getByText('No Products Available')).waitFor();
    assert((await page.getByRole('link', { name: 'Purchase' }).count()) === 0, 'no Purchase for admins');
    await page.goto(`${BASE_URL}/market/payment/1`);
    await page.getByText('Administrators do not make purchases').waitFor();
    assert((await page.getByRole('button', { name: /Pay Now/ }).count()) === 0, 'no Pay Now for admins');
  },
  { page: adminPage, independent: true },
);

/** The key steps on a phone, in one colour scheme: top-up, transfer (PIN already set), history. */
async function phoneJourney(colorScheme, amount) {
  const context = await phoneContext(colorScheme);
  try {
    await signInContext(context, SENDER.username, PASSWORD);
    const page = await context.newPage();
    await openWallet(page);
    await page.waitForTimeout(300);
    assert((await overflow(page)) <= 0, `the wallet page is ${await overflow(page)}px too wide`);
    await shot(page, `mobile-${colorScheme}`, true);

    const { checkout } = await startTopUp(page, '100');
    const box = await checkout.boundingBox();
    assert(box && box.width >= 370, `the checkout is ${box?.width}px wide, not full-screen`);
    await fillCard(checkout, CARD.ok);
    await shot(page, `mobile-${colorScheme}-checkout`);
    await checkout.getByRole('button', { name: 'Pay ₹100.00' }).click();
    await toast(page, 'Payment Successful', 'Your wallet has been credited.');
    await checkout.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Money' });
    await dialog.waitFor();
    await fillTransfer(dialog, { receiver: RECEIVER.username, amount, pin: PIN });
    await shot(page, `mobile-${colorScheme}-transfer`);
    await checkA11y(page, `Transfer Money dialog, 375 px ${colorScheme}`);
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await toast(page, 'Money transferred successfully');
    await dialog.waitFor({ state: 'hidden' });
    await historyRow(page, `₹${amount}`).waitFor();
    await page.waitForTimeout(300);
    assert((await overflow(page)) <= 0, `the history is ${await overflow(page)}px too wide`);
    await shot(page, `mobile-${colorScheme}-history`, true);
  } finally {
    await context.close();
  }
}

await step(
  '375 px, light: top-up, transfer (axe clean) and history fit the screen',
  () => phoneJourney('light', '1.50'),
  {
    page: senderPage,
  },
);
await step(
  '375 px, dark: top-up, transfer (axe clean) and history fit the screen',
  () => phoneJourney('dark', '2.25'),
  {
    page: senderPage,
  },
);

await step(
  "the receiver's balance adds up on a 375 px screen in dark mode",
  async () => {
    const context = await phoneContext('dark');
    try {
      await signInContext(context, RECEIVER.username, PASSWORD);
      const page = await context.newPage();
      await openWallet(page);
      // 123.45 + 1.50 + 2.25
      await expectBalance(page, '₹127.20');
      await historyRow(page, '₹2.25', 'Received').waitFor();
      await page.waitForTimeout(300);
      assert((await overflow(page)) <= 0, `the page is ${await overflow(page)}px too wide`);
      await shot(page, 'mobile-dark-received', true);
      return await balance(page).innerText();
    } finally {
      await context.close();
    }
  },
  { page: receiverPage },
);

if (EXPIRY_MINUTES <= 2) {
  await step(
    `the abandoned checkout expires after TOPUP_EXPIRY_MINUTES (${EXPIRY_MINUTES}): an Expired badge, "Expired: …", no money`,
    async () => {
      assert(abandonedAt > 0, 'no abandoned checkout to watch');
      const page = abandonerPage;
      const reason = `Expired: the checkout was not completed within ${EXPIRY_MINUTES} ${EXPIRY_MINUTES === 1 ? 'minute' : 'minutes'}`;
      // The sweep runs every minute: the line fails within the expiry and a sweep or two more.
      const deadline = abandonedAt + (EXPIRY_MINUTES + 2.5) * 60_000;
      for (;;) {
        await openWallet(page);
        const failed = historyRow(page, '₹250.00', reason);
        if (await failed.isVisible()) {
          // A failed line, labelled Expired (not Failed) because nobody paid it in time.
          const badge = failed.locator('[data-status="failed"]').first();
          // textContent: the badge's CSS writes it in capitals.
          const label = (await badge.textContent())?.trim();
          assert(label === 'Expired', `badge reads ${label}`);
          await failed.getByTestId('failure-reason').filter({ hasText: reason }).waitFor();
          break;
        }
        assert(
          Date.now() < deadline,
          `still not expired ${Math.round((Date.now() - abandonedAt) / 1000)} s on`,
        );
        await page.waitForTimeout(10_000);
      }
      assert(Date.now() - abandonedAt >= EXPIRY_MINUTES * 60_000 - 5_000, 'expired before its time');
      await expectBalance(page, '₹0.00');
      await shot(page, 'expired');
      return `expired ${Math.round((Date.now() - abandonedAt) / 1000)} s after it was abandoned`;
    },
    { page: abandonerPage, independent: true },
  );
  await step(
    "the admin's list on a 375 px screen, dark: the expired checkout is an Expired card with its reason, not money in",
    async () => {
      const context = await phoneContext('dark');
      try {
        await signInContext(context, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
        const page = await context.newPage();
        await adminFailedTopUp(page, {
          userId: ids.abandoner,
          amount: '₹250.00',
          badge: 'Expired',
          reason: `Expired: the checkout was not completed within ${EXPIRY_MINUTES} ${EXPIRY_MINUTES === 1 ? 'minute' : 'minutes'}`,
        });
        assert((await overflow(page)) <= 0, `the list is ${await overflow(page)}px too wide`);
        await shot(page, 'mobile-dark-admin-expired', true);
      } finally {
        await context.close();
      }
    },
    { page: adminPage, independent: true },
  );
} else {
  console.log(
    `note - the expiry of an abandoned checkout is not watched here: TOPUP_EXPIRY_MINUTES=${EXPIRY_MINUTES} (run the stack with 1 for it; the sweeper's integration test covers the default)`,
  );
}

await browser.close();

done();
