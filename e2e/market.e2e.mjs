#!/usr/bin/env node
// Code inside page.evaluate()/waitForFunction() runs in the browser:
/* global document, window */
// Browser journey of the catalogue and market against the running stack, in headless Chromium.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/market.e2e.mjs
//
// Setup through the real API: registers a Manufacturer and an Army user (unique usernames), signs in as the
// administrator on the admin portal and approves both, and gives the manufacturer a license number and years
// of experience. Then, in the browser: the manufacturer creates a product using the AI description generator,
// edits its price and stock; the Army user (a second browser context) sees it with the manufacturer's details
// and the right stock indicator; the admin product list shows it; the manufacturer deletes it and it
// disappears from the Army user's open market page within the refetch interval. Screenshots go to
// e2e/artifacts/market-*.png. Last line: `market: N passed, M failed`; exits non-zero on failure.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import { registerApproved, signInContext as signIn } from './lib/api.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.MARKET_TIMEOUT_MS ?? 30_000);
/** The market list refetches every 10 s; a deleted product must be gone within that plus a little slack. */
const DISAPPEAR_WITHIN_MS = Number(process.env.MARKET_DISAPPEAR_MS ?? 12_500);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const MAKER = {
  username: `e2e_mfr_${RUN}`,
  firstName: 'Kavya',
  lastName: `Forge ${RUN}`,
  role: 'Manufacturer',
  licenseNumber: 'MFG-2024-7781',
  yearsOfExperience: 12,
};
const ARMY = { username: `e2e_army_${RUN}`, firstName: 'Arjun', lastName: 'Mehta', role: 'Army' };
const PRODUCT = {
  name: `E2E Night Vision Scope ${RUN}`,
  type: 'Weapon',
  price: '1250.5',
  stock: '10',
  features: 'thermal imaging, 6x zoom, waterproof housing',
  editedPrice: '999.99',
  editedStock: '3',
};

const { step, shot, done } = await journeySteps('market', ARTIFACTS);

// ---- API helpers (Node side) -------------------------------------------------------------------------

const signInContext = (context, ...args) => signIn(BASE_URL, context, ...args);

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

/** The market card of a product, found by its name. */
const cardOf = (page, name) =>
  page.getByTestId('product-card').filter({ has: page.getByRole('heading', { name }) });

/** Waits for a toast with this title (Mantine notifications render role="alert"). */
const toast = (page, title) =>
  page.getByRole('alert').filter({ hasText: title }).first().waitFor({ state: 'visible' });

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();

const maker = await newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
const army = await newContext();
const admin = await newContext();
const makerPage = await maker.newPage();
const armyPage = await army.newPage();
const adminPage = await admin.newPage();

await step('setup: register a Manufacturer and an Army user, approve both as admin', async () => {
  const [makerId, armyId] = await registerApproved(BASE_URL, [MAKER, ARMY], PASSWORD, {
    username: ADMIN_USERNAME,
    password: ADMIN_PASSWORD,
  });
  MAKER.id = makerId;
  await signInContext(maker, MAKER.username, PASSWORD);
  await signInContext(army, ARMY.username, PASSWORD);
  await signInContext(admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  // Details shown on product cards.
  const res = await maker.request.patch(`${BASE_URL}/api/user/profile`, {
    headers: { Origin: BASE_URL, 'X-Requested-With': 'quartermaster' },
    data: { licenseNumber: MAKER.licenseNumber, yearsOfExperience: MAKER.yearsOfExperience },
  });
  assert(res.ok(), `profile update: HTTP ${res.status()} ${(await res.text()).slice(0, 200)}`);
  return `${MAKER.username} (#${makerId}), ${ARMY.username} (#${armyId})`;
});

await step(
  'a signed-in /market arrives with its heading (prerendered), which stays put while the page loads',
  async () => {
    const page = armyPage;
    const html = await (
      await page.request.get(`${BASE_URL}/market`, { headers: { accept: 'text/html' } })
    ).text();
    assert(html.includes('data-prerendered="frame"'), 'GET /market with a session is not the frame');
    for (const text of ['Military Market', 'Browse and acquire military-grade equipment and supplies'])
      assert(html.includes(text), `the frame has no "${text}"`);
    // The shell's scripts open with V8's compile hint (compiled while they stream in, ADR 018): it
    // counts only as the very first line.
    const entries = [...html.matchAll(/<script[^>]+src="(\/main\.[0-9a-f]+\.js)"/g)].map((m) => m[1]);
    assert(entries.length === 1, `the frame loads ${entries.length} entry scripts`);
    const entry = await (await page.request.get(`${BASE_URL}${entries[0]}`)).text();
    assert(
      entry.startsWith('//# allFunctionsCalledOnLoad\n'),
      `${entries[0]} does not begin with the compile hint`,
    );
    // Layout shifts from the first paint (the frame) until the products are there: the heading drawn
    // first must be where the page draws its own.
    await page.addInitScript(() => {
      window.qmShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.qmShift += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${BASE_URL}/market`);
    // A card, whatever its action: Purchase is a link, Out of Stock a button, and a manufacturer's own
    // product has neither (waiting for the buttons alone timed out on a market of products in stock).
    await page.getByTestId('product-card').first().or(page.getByText('No Products Available')).waitFor();
    const headings = await page.getByRole('heading', { name: 'Military Market' }).count();
    assert(headings === 1, `${headings} "Military Market" headings once the page is there`);
    const shift = await page.evaluate(() => window.qmShift);
    assert(shift < 0.05, `the page shifted by ${shift.toFixed(3)} while loading`);
    return `layout shift ${shift.toFixed(3)}`;
  },
  { page: armyPage },
);

await step(
  'an Army user is sent from /create-product to /wallet',
  async () => {
    await armyPage.goto(`${BASE_URL}/create-product`);
    await armyPage.waitForURL((url) => url.pathname === '/wallet');
  },
  { page: armyPage },
);

await step(
  'manufacturer opens the market and follows Create Item',
  async () => {
    await makerPage.goto(`${BASE_URL}/market`);
    await makerPage.getByRole('heading', { name: 'Military Market' }).waitFor();
    // Visible: for a moment the frame the page replaces is still in the document, hidden by Suspense.
    await makerPage
      .getByText('Browse and acquire military-grade equipment and supplies')
      .filter({ visible: true })
      .waitFor();
    await makerPage.getByRole('link', { name: 'Create Item' }).click();
    await makerPage.waitForURL((url) => url.pathname === '/create-product');
    await makerPage.getByRole('heading', { name: 'Create New Product' }).waitFor();
  },
  { page: makerPage },
);

await step(
  'manufacturer drafts the description with the AI generator (generate, copy, apply)',
  async () => {
    const page = makerPage;
    // Defaults of the product reference: type Equipment, stock 0.
    assert((await page.getByRole('textbox', { name: 'Type' }).inputValue()) === 'Equipment', 'default type');
    assert((await page.getByRole('textbox', { name: 'Stock' }).inputValue()) === '0', 'default stock');

    // Without a name the generator refuses with "Missing information".
    await page.getByRole('button', { name: 'AI Description Generator' }).click();
    let dialog = page.getByRole('dialog', { name: 'Generate Product Description with AI' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Generate Description' }).click();
    await toast(page, 'Missing information');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('textbox', { name: 'Product Name' }).fill(PRODUCT.name);
    await page.getByRole('textbox', { name: 'Type' }).click();
    await page.getByRole('option', { name: PRODUCT.type, exact: true }).click();
    await page.getByRole('textbox', { name: 'Price' }).fill(PRODUCT.price);
    await page.getByRole('textbox', { name: 'Stock' }).fill(PRODUCT.stock);

    await page.getByRole('button', { name: 'AI Description Generator' }).click();
    dialog = page.getByRole('dialog', { name: 'Generate Product Description with AI' });
    await dialog.waitFor();
    await dialog.getByText(PRODUCT.name).waitFor();
    await dialog.getByRole('textbox', { name: 'Key features' }).fill(PRODUCT.features);
    await dialog.getByRole('button', { name: 'Generate Description' }).click();
    await toast(page, 'Description generated');
    const draft = await dialog.getByRole('textbox', { name: 'Generated description' }).inputValue();
    assert(draft.trim().length > 40, `generated description too short: "${draft}"`);
    await shot(page, 'ai-generator');

    await dialog.getByRole('button', { name: 'Copy' }).click();
    await toast(page, 'Copied to clipboard');
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    // The context may read the clipboard (permissions above): a failed read is a failure too.
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    assert(clip === draft, `clipboard holds the draft, not "${clip.slice(0, 80)}"`);
    // The confirmation reverts after 2 s.
    await dialog.getByRole('button', { name: 'Copy', exact: true }).waitFor({ timeout: 4_000 });

    await dialog.getByRole('button', { name: 'Apply Description' }).click();
    await toast(page, 'Description applied');
    await dialog.waitFor({ state: 'hidden' });
    const applied = await page.getByRole('textbox', { name: 'Description' }).inputValue();
    assert(applied === draft, 'the description field holds the generated text');
    await shot(page, 'create-filled', true);
    return `${draft.length} characters`;
  },
  { page: makerPage },
);

await step(
  'manufacturer creates the product and lands on /market with its card',
  async () => {
    const page = makerPage;
    const [request] = await Promise.all([
      page.waitForRequest(
        (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/api/products',
      ),
      page.getByRole('button', { name: 'Create Product' }).click(),
    ]);
    const sent = request.postDataJSON();
    assert(
      typeof sent.price === 'string' && sent.price === '1250.50',
      `price sent as ${JSON.stringify(sent.price)}`,
    );
    assert(sent.stock === 10, `stock sent as ${JSON.stringify(sent.stock)}`);
    await toast(page, 'Product created');
    await page.getByText('Your product has been listed in the marketplace.').waitFor();
    await page.waitForURL((url) => url.pathname === '/market');
    const card = cardOf(page, PRODUCT.name);
    await card.waitFor();
    await card.getByText('₹1,250.50').waitFor();
    await card.getByText('In Stock', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Edit' }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).waitFor();
    assert((await card.getByRole('link', { name: 'Purchase' }).count()) === 0, 'owner sees no Purchase');
    PRODUCT.id = Number(await card.getAttribute('data-product-id'));
    await shot(page, 'manufacturer-market');
    return `product #${PRODUCT.id}`;
  },
  { page: makerPage },
);

await step(
  'manufacturer edits price and stock in the Edit Product dialog',
  async () => {
    const page = makerPage;
    const card = cardOf(page, PRODUCT.name);
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    await dialog.waitFor();
    assert(
      (await dialog.getByRole('textbox', { name: 'Product Name' }).inputValue()) === PRODUCT.name,
      'the dialog starts from the product',
    );
    // The AI generator panel toggles.
    await dialog.getByRole('button', { name: 'Use AI Generator' }).click();
    await dialog.getByRole('textbox', { name: 'Key features' }).waitFor();
    await dialog.getByRole('button', { name: 'Hide AI Generator' }).click();
    await dialog.getByRole('button', { name: 'Use AI Generator' }).waitFor();

    await dialog.getByRole('textbox', { name: 'Price' }).fill(PRODUCT.editedPrice);
    await dialog.getByRole('textbox', { name: 'Stock Quantity' }).fill(PRODUCT.editedStock);
    await shot(page, 'edit-dialog');
    const [request] = await Promise.all([
      page.waitForRequest(
        (req) => req.method() === 'PATCH' && new URL(req.url()).pathname === `/api/products/${PRODUCT.id}`,
      ),
      dialog.getByRole('button', { name: 'Save Changes' }).click(),
    ]);
    // Only what changed, and the version it is based on: name and description are not sent back.
    const sent = request.postDataJSON();
    assert(
      JSON.stringify(Object.keys(sent).sort()) === '["price","stock","version"]' &&
        sent.price === PRODUCT.editedPrice &&
        sent.stock === Number(PRODUCT.editedStock) &&
        Number.isInteger(sent.version),
      `the edit sent ${JSON.stringify(sent)}`,
    );
    await toast(page, 'Product updated');
    await page.getByText('Your product has been updated successfully.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByText('₹999.99').waitFor();
    await card.getByText('Selling Quickly! Only 3 left').waitFor();
  },
  { page: makerPage },
);

await step(
  'an edit of a product changed meanwhile is refused with a clear message, not written over it',
  async () => {
    const page = makerPage;
    const card = cardOf(page, PRODUCT.name);
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    await dialog.waitFor();
    // While the dialog is open, the product changes behind its back (a second tab of the same maker).
    const headers = { Origin: BASE_URL, 'X-Requested-With': 'quartermaster' };
    const current = await (await page.request.get(`${BASE_URL}/api/products/${PRODUCT.id}`)).json();
    const other = await page.request.patch(`${BASE_URL}/api/products/${PRODUCT.id}`, {
      headers,
      data: { description: 'Changed in another tab', version: current.version },
    });
    assert(other.ok(), `the concurrent edit answered ${other.status()}`);
    await dialog.getByRole('textbox', { name: 'Price' }).fill('1.00');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Failed to update product');
    await page.getByText('This product was changed by someone else. Reload it and try again.').waitFor();
    await shot(page, 'edit-conflict');
    // The toast covers no primary action of the page (Create Item, at its heading's right).
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to update product' }).first();
    const [t, c] = [
      await alert.boundingBox(),
      await page.getByRole('link', { name: 'Create Item' }).boundingBox(),
    ];
    assert(t && c, 'the toast or Create Item is not shown');
    const overlaps =
      t.x < c.x + c.width && c.x < t.x + t.width && t.y < c.y + c.height && c.y < t.y + t.height;
    assert(!overlaps, `the toast (${Math.round(t.x)},${Math.round(t.y)}) covers Create Item`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // ...and does not follow the user to another page.
    assert(await alert.isVisible(), 'the toast closed before the user moved on');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL((url) => url.pathname === '/orders');
    await alert.waitFor({ state: 'hidden', timeout: 2_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market' }).click();
    await page.waitForURL((url) => url.pathname === '/market');
    const after = await (await page.request.get(`${BASE_URL}/api/products/${PRODUCT.id}`)).json();
    assert(
      after.price === PRODUCT.editedPrice && after.description === 'Changed in another tab',
      `after the refused edit: ${JSON.stringify({ price: after.price, description: after.description })}`,
    );
    await card.getByText('₹999.99').waitFor();
  },
  { page: makerPage },
);

await step(
  "Army user sees the product with the manufacturer's details and the stock indicator",
  async () => {
    const page = armyPage;
    await page.goto(`${BASE_URL}/market`);
    await page.getByRole('heading', { name: 'Military Market' }).waitFor();
    assert(
      (await page.getByRole('link', { name: 'Create Item' }).count()) === 0,
      'Army user sees no Create Item',
    );
    const card = cardOf(page, PRODUCT.name);
    await card.waitFor();
    await card.getByText(PRODUCT.type, { exact: true }).waitFor();
    await card.getByText('Military Grade').waitFor();
    const details = card.getByTestId('manufacturer-details');
    await details.getByText(`${MAKER.firstName} ${MAKER.lastName}`).waitFor();
    await details.getByText(`${MAKER.yearsOfExperience} years of experience`).waitFor();
    await details.getByText(`License: ${MAKER.licenseNumber}`).waitFor();
    await card.getByText('Selling Quickly! Only 3 left').waitFor();
    await card.getByText('₹999.99').waitFor();
    assert((await card.getByRole('button', { name: 'Edit' }).count()) === 0, 'Army user sees no Edit');
    const purchase = card.getByRole('link', { name: 'Purchase' });
    assert(
      (await purchase.getAttribute('href')) === `/market/payment/${PRODUCT.id}`,
      'Purchase goes to /market/payment/{id}',
    );
    await card.scrollIntoViewIfNeeded();
    await shot(page, 'army-market');

    await purchase.click();
    await page.waitForURL((url) => url.pathname === `/market/payment/${PRODUCT.id}`);
    await page.getByRole('heading', { name: PRODUCT.name }).waitFor();
    await page.getByRole('heading', { name: 'Complete Your Purchase' }).waitFor();
    await page.getByTestId('purchase-total').filter({ hasText: '₹999.99' }).waitFor();
    await shot(page, 'army-payment');
    await page.getByRole('link', { name: 'Back to Market' }).click();
    await page.waitForURL((url) => url.pathname === '/market');
    await cardOf(page, PRODUCT.name).waitFor();
  },
  { page: armyPage },
);

await step(
  'admin product list shows the product with its manufacturer and status',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/products`);
    await page.getByRole('heading', { name: 'Product Management' }).waitFor();
    for (const column of ['ID', 'Name', 'Price', 'Stock', 'Manufacturer', 'Status']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    const row = page.getByRole('row').filter({ hasText: PRODUCT.name });
    await row.waitFor();
    await row.getByText('₹999.99').waitFor();
    await row.getByText(`${MAKER.firstName} ${MAKER.lastName}`).waitFor();
    await row.getByText('In Stock', { exact: true }).waitFor();
    await shot(page, 'admin-products');
  },
  { page: adminPage, independent: true },
);

await step(
  "manufacturer deletes the product; it leaves the Army user's open market within the refetch interval",
  async () => {
    const page = makerPage;
    const card = cardOf(page, PRODUCT.name);
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete product' });
    await confirm.waitFor();
    await shot(page, 'delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const deletedAt = Date.now();
    await toast(page, 'Product deleted');
    await page.getByText('The product has been removed from the marketplace.').waitFor();
    await card.waitFor({ state: 'detached' });

    // The Army user's page has stayed open since the previous step; only polling can remove the card.
    await cardOf(armyPage, PRODUCT.name).waitFor({ state: 'detached', timeout: DISAPPEAR_WITHIN_MS });
    const took = Date.now() - deletedAt;
    await shot(armyPage, 'army-after-delete');
    return `gone from the Army market after ${(took / 1000).toFixed(1)} s`;
  },
  { page: makerPage },
);

await step(
  'a missing product shows "Product not found" on the payment page',
  async () => {
    const page = armyPage;
    await page.goto(`${BASE_URL}/market/payment/${PRODUCT.id ?? 999_999_999}`);
    await page.getByRole('heading', { name: 'Product not found' }).waitFor();
    await page
      .getByText("The product you're looking for may have been removed or is temporarily unavailable.")
      .waitFor();
    await page.getByRole('link', { name: 'Back to Market' }).waitFor();
    await shot(page, 'payment-not-found');
  },
  { page: armyPage, independent: true },
);

await step(
  'a large catalogue pages with page/pageSize; search and type filter send ?q= and ?type=',
  async () => {
    // The list answers are stubbed here (10,000 products) so the shared catalogue is left alone.
    const context = await newContext();
    try {
      await signInContext(context, ARMY.username, PASSWORD);
      const page = await context.newPage();
      const seen = [];
      await page.route(
        (url) => url.pathname === '/api/products',
        async (route) => {
          const url = new URL(route.request().url());
          seen.push(url.search);
          const pageNo = Number(url.searchParams.get('page') ?? 1);
          const size = Number(url.searchParams.get('pageSize') ?? 24);
          const items = Array.from({ length: size }, (_, i) => {
            const id = 10_000 - ((pageNo - 1) * size + i);
            return {
              id,
              name: `Catalogue Item ${id}`,
              type: 'Equipment',
              price: '1500.00',
              description: 'Stubbed product for the paging check.',
              stock: id % 7,
              manufacturerId: MAKER.id ?? 1,
              status: 'active',
              createdAt: new Date().toISOString(),
              updatedAt: new Date().toISOString(),
            };
          });
          await route.fulfill({
            status: 200,
            contentType: 'application/json',
            headers: { 'X-Total-Count': '10000' },
            body: JSON.stringify(items),
          });
        },
      );
      await page.goto(`${BASE_URL}/market`);
      await page.getByRole('heading', { name: 'Catalogue Item 10000' }).waitFor();
      assert(seen[0]?.includes('page=1') && seen[0]?.includes('pageSize=24'), `first request ${seen[0]}`);
      // The shell's prefetch (RemoteRoute.prefetch) and the page ask with one key: one request, not two.
      assert(seen.length === 1, `one products request on opening /market, not ${seen.length}`);
      await page.getByText('10,000 products').waitFor();
      await page.getByRole('button', { name: 'Page 417' }).waitFor();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByRole('heading', { name: 'Catalogue Item 9976' }).waitFor();
      assert(/[?&]page=2(&|$)/.test(page.url()), `URL keeps the page: ${page.url()}`);
      await shot(page, 'paging', true);

      await page.getByRole('textbox', { name: 'Search products' }).fill('radio');
      await page.waitForRequest((req) => new URL(req.url()).searchParams.get('q') === 'radio');
      // The type filter's list is built when it opens (theme: Combobox keepMounted false), not on load.
      assert(
        (await page.getByRole('option', { includeHidden: true }).count()) === 0,
        'the closed type filter has its options in the page',
      );
      await page.getByRole('textbox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'Vehicle', exact: true }).click();
      await page.waitForRequest((req) => {
        const params = new URL(req.url()).searchParams;
        return params.get('type') === 'Vehicle' && params.get('q') === 'radio' && params.get('page') === '1';
      });
    } finally {
      await context.close();
    }
  },
  { independent: true },
);

await step(
  'market fits a 375 px wide screen',
  async () => {
    const context = await newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
    try {
      await signInContext(context, ARMY.username, PASSWORD);
      const page = await context.newPage();
      await page.goto(`${BASE_URL}/market`);
      await page.getByRole('heading', { name: 'Military Market' }).waitFor();
      await page.getByTestId('product-card').first().or(page.getByText('No Products Available')).waitFor();
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      await shot(page, 'mobile');
      assert(overflow <= 0, `page is ${overflow}px wider than the screen`);
    } finally {
      await context.close();
    }
  },
  { independent: true },
);

await browser.close();

done();
