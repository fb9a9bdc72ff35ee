#!/usr/bin/env node
// Browser journey of live updates (docs/API.md "Live updates") against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/live.e2e.mjs
//
// Setup through the real API: a Manufacturer lists a product with 6 units; an Army buyer is approved
// and funded through the sandbox. The Manufacturer keeps /market open; the buyer buys one unit through
// the API. Without any reload, the Manufacturer's page shows the "New sale" toast (only /api/live can
// bring it: pushed from the orders service's event) and the product's card turns from "In Stock" to
// "Selling Quickly! Only 5 left" (pushed from the catalog's stock event; the market's 10 s poll is the
// fallback, so that check alone would also pass without the push). A second browser signed in as
// another buyer sees the new stock but gets no sale toast. That buyer then sends the contact form
// signed in; an administrator replies, and the buyer's page shows "Your query was answered" (pushed
// from the support service's reply event), which the Manufacturer's page does not. Screenshots go to e2e/artifacts/live-*.png. Last line: `live: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerApproved, signedInClient, signInContext, topUp } from './lib/api.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.LIVE_TIMEOUT_MS ?? 20_000);
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = { username: `e2e_lmkr_${RUN}`, firstName: 'Leela', lastName: 'Forge', role: 'Manufacturer' };
const BUYER = { username: `e2e_lbuy_${RUN}`, firstName: 'Ravi', lastName: 'Singh', role: 'Army' };
const OTHER = { username: `e2e_loth_${RUN}`, firstName: 'Isha', lastName: 'Verma', role: 'Army' };
const PRODUCT = {
  name: `E2E Live Scope ${RUN}`,
  type: 'Equipment',
  price: '100.00',
  description: 'Scope.',
  stock: 6,
};

const { step, shot, done } = await journeySteps('live', ARTIFACTS);
const browser = await launchBrowser();
let product;
let buyer;
let makerPage;
let otherPage;
let admin;

async function signedInPage(user) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(TIMEOUT);
  await signInContext(BASE_URL, context, user.username, PASSWORD);
  const page = await context.newPage();
  await page.goto(`${BASE_URL}/market`, { waitUntil: 'networkidle' });
  return page;
}

const card = (page) => page.locator('.mantine-Card-root').filter({ hasText: PRODUCT.name });

await step('setup: a Manufacturer with a 6-unit product, two funded Army buyers', async () => {
  const adminUser = { username: 'admin', password: ADMIN_PASSWORD };
  await registerApproved(BASE_URL, [MAKER, BUYER, OTHER], PASSWORD, adminUser);
  admin = await signedInClient(BASE_URL, adminUser.username, adminUser.password, 'admin');
  const maker = await signedInClient(BASE_URL, MAKER.username, PASSWORD);
  product = await maker('POST', '/api/products', PRODUCT);
  buyer = await signedInClient(BASE_URL, BUYER.username, PASSWORD);
  await topUp(buyer, 1000);
  return `product #${product.id}`;
});

await step('the Manufacturer and another buyer keep /market open: the card says In Stock', async () => {
  [makerPage, otherPage] = await Promise.all([signedInPage(MAKER), signedInPage(OTHER)]);
  for (const page of [makerPage, otherPage]) await card(page).getByText('In Stock').waitFor();
  // The stream is open once the shell has asked for it.
  await makerPage.waitForTimeout(1000);
});

await step(
  'a purchase elsewhere: "New sale" pushed to the seller, the stock label updated without a reload',
  async () => {
    const order = await buyer('POST', '/api/orders', {
      productId: product.id,
      quantity: 1,
      totalPrice: '100.00',
    });
    const toast = makerPage.locator('.mantine-Notification-root').filter({ hasText: 'New sale' });
    await toast.first().waitFor({ state: 'visible' });
    const text = await toast.first().innerText();
    assert(text.includes(`Order #${order.id}`), `the toast says "${text}"`);
    await card(makerPage).getByText('Selling Quickly! Only 5 left').waitFor();
    await shot(makerPage, 'new-sale');
    return `order #${order.id}`;
  },
  { page: makerPage },
);

await step('the other buyer sees the new stock but no sale toast', async () => {
  await card(otherPage).getByText('Selling Quickly! Only 5 left').waitFor();
  const toasts = await otherPage
    .locator('.mantine-Notification-root')
    .filter({ hasText: 'New sale' })
    .count();
  assert(toasts === 0, `the other buyer got ${toasts} sale toast(s)`);
});

await step(
  'a reply to the query the other buyer sent signed in: pushed to them alone as a toast',
  async () => {
    const subject = `Live reply ${RUN}`;
    const sent = await otherPage.evaluate(
      async (body) => {
        const res = await fetch('/api/contact', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      },
      { fullName: 'Isha Verma', email: `${OTHER.username}@example.test`, subject, message: 'Any news?' },
    );
    assert(sent.status === 201, `the contact form answered ${sent.status}`);
    await admin('PATCH', `/api/admin/queries/${sent.body.id}/status`, {
      status: 'resolved',
      response: 'Dispatched today.',
    });
    const toast = otherPage
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Your query was answered' });
    await toast.first().waitFor({ state: 'visible' });
    const text = await toast.first().innerText();
    assert(text.includes(`"${subject}" is resolved`), `the toast says "${text}"`);
    await shot(otherPage, 'query-reply');
    const seen = await makerPage
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Your query was answered' })
      .count();
    assert(seen === 0, `the Manufacturer got ${seen} reply toast(s)`);
  },
  { page: otherPage },
);

await browser.close();
done();
