#!/usr/bin/env node
// Code inside page.evaluate()/waitForFunction() runs in the browser:
/* global document, window */
// Browser smoke test of the frontends (shell + Module Federation remotes) in headless Chromium.
//
//   BASE_URL=http://localhost:8080 node e2e/smoke.e2e.mjs
//
// Checks: the shell renders the landing page; every remote's mf-manifest.json and remoteEntry.js load and
// the shell loads each remote's ./health module (/_remotes shows "loaded"); unknown paths show the 404 page;
// the theme toggle persists across a reload. Screenshots go to e2e/artifacts/. Exits non-zero on failure.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finish, launchBrowser } from './lib/browser.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const REMOTES = ['market', 'wallet', 'admin'];
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.SMOKE_TIMEOUT_MS ?? 30_000);

await mkdir(ARTIFACTS, { recursive: true });

const browser = await launchBrowser();

const results = [];

/** Runs one check in a fresh browser context (clean localStorage) and records the outcome. */
async function check(name, fn, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  const started = Date.now();
  try {
    await fn(page);
    results.push({ name, ok: true });
    console.log(`ok   - ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL - ${name}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    await page
      .screenshot({ path: path.join(ARTIFACTS, `failed-${name.replace(/\W+/g, '-')}.png`), fullPage: true })
      .catch(() => {});
  } finally {
    await context.close();
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const shot = (page, name, fullPage = false) =>
  page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage, animations: 'disabled' });

await check('shell renders the landing page (prerendered, then hydrated)', async (page) => {
  // The HTML itself carries the page (ADR 018); a hydration mismatch would be an uncaught page error.
  const html = await (await page.request.get(`${BASE_URL}/`, { headers: { accept: 'text/html' } })).text();
  assert(
    html.includes('data-prerendered') && html.includes('Secure. Efficient. Reliable.'),
    'GET / is not the prerendered landing page',
  );
  // It is a visitor's page (only a request without a session gets it): the sign-in link is in the
  // markup, and the page does not ask who is signed in (a 401 the browser logs as an error).
  assert(/<a [^>]*href="\/auth"/.test(html), 'the prerendered header has no sign-in link');
  const askedForUser = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/user') askedForUser.push(request.url());
  });
  await page.goto(`${BASE_URL}/`);
  await page.getByRole('heading', { name: 'Secure. Efficient. Reliable.' }).waitFor({ state: 'visible' });
  await page.getByText('MILITARY INVENTORY MANAGEMENT').first().waitFor({ state: 'visible' });
  for (const card of ['Advanced Security', 'Compliance Ready', 'Command & Control', 'Smart Integration']) {
    await page.getByRole('heading', { name: card }).waitFor({ state: 'visible' });
  }
  assert(
    (await page.getByRole('link', { name: 'Learn More' }).getAttribute('href')) === '/readme',
    'Learn More link',
  );
  await shot(page, 'landing-desktop', true);
  assert(askedForUser.length === 0, `a visitor's landing page asked GET /api/user ${askedForUser.length}×`);
});

await check("remotes load (manifest, remoteEntry, ./health) on the shell's shared modules", async (page) => {
  const fetched = new Set();
  page.on('request', (request) => fetched.add(new URL(request.url()).pathname));
  /** Each remote's own copies of the shared packages: used only when it runs without the shell. */
  const fallbacks = [];
  for (const remote of REMOTES) {
    const manifestRes = await page.request.get(`${BASE_URL}/remotes/${remote}/mf-manifest.json`);
    assert(manifestRes.ok(), `${remote} mf-manifest.json: HTTP ${manifestRes.status()}`);
    const manifest = await manifestRes.json();
    assert(manifest?.metaData?.remoteEntry?.name, `${remote} mf-manifest.json has no remoteEntry`);
    const exposes = (manifest.exposes ?? []).map((expose) => expose.path);
    assert(
      exposes.includes('./routes') && exposes.includes('./health'),
      `${remote} exposes ${exposes.join(', ')}`,
    );
    const publicPath = manifest.metaData.publicPath ?? `/remotes/${remote}/`;
    const entryUrl = new URL(
      `${manifest.metaData.remoteEntry.path ?? ''}${manifest.metaData.remoteEntry.name}`,
      new URL(publicPath, `${BASE_URL}/`),
    ).href;
    const entryRes = await page.request.get(entryUrl);
    assert(entryRes.ok(), `${remote} remoteEntry.js (${entryUrl}): HTTP ${entryRes.status()}`);
    assert((await entryRes.text()).length > 1000, `${remote} remoteEntry.js looks empty`);
    for (const shared of manifest.shared ?? []) {
      for (const file of [...shared.assets.js.sync, ...shared.assets.js.async])
        fallbacks.push({
          file: new URL(file, new URL(publicPath, `${BASE_URL}/`)).pathname,
          shared: shared.name,
        });
    }
  }
  await page.goto(`${BASE_URL}/_remotes`);
  for (const remote of REMOTES) {
    const status = page.getByTestId(`remote-status-${remote}`);
    await status.filter({ hasText: /^(loaded|failed)$/ }).waitFor();
    assert((await status.textContent()) === 'loaded', `${remote} status is "${await status.textContent()}"`);
    await page.getByTestId(`remote-health-${remote}`).waitFor({ state: 'visible' });
  }
  const own = fallbacks.filter(({ file }) => fetched.has(file));
  assert(
    own.length === 0,
    `remotes loaded their own copies of ${[...new Set(own.map((f) => f.shared))].join(', ')}, not the shell's`,
  );
  await shot(page, 'remotes-status');
});

await check(
  'Inter is loaded from our own origin (its Latin subset, woff2) and set on the text',
  async (page) => {
    const fonts = [];
    page.on('response', (response) => {
      if (/\.woff2$/.test(new URL(response.url()).pathname)) fonts.push(response);
    });
    const html = await (await page.goto(`${BASE_URL}/`)).text();
    await page.getByRole('heading', { name: 'Secure. Efficient. Reliable.' }).waitFor({ state: 'visible' });
    // Asked for by the HTML beside the stylesheet, so that it is there for the first paint (fonts.css:
    // font-display optional draws the page in the system font for good when Inter comes late).
    const preload = html.match(/<link [^>]*rel="preload"[^>]*>/)?.[0] ?? '';
    assert(
      /as="font"/.test(preload) && /href="\/[0-9a-f]+\.woff2"/.test(preload),
      `no font preload: ${preload}`,
    );
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        inter:
          document.fonts.check('16px "Inter Variable"') &&
          [...document.fonts].some((f) => f.family.includes('Inter') && f.status === 'loaded'),
        family: window.getComputedStyle(document.body).fontFamily,
        heading: window.getComputedStyle(document.querySelector('h1')).fontFamily,
      };
    });
    assert(loaded.inter, 'Inter Variable did not load');
    assert(/^"?Inter Variable"?,/.test(loaded.family), `the body's font is ${loaded.family}`);
    assert(/^"?Inter Variable"?,/.test(loaded.heading), `the heading's font is ${loaded.heading}`);
    assert(fonts.length === 1, `${fonts.length} font files fetched (one subset expected)`);
    const [font] = fonts;
    assert(new URL(font.url()).origin === new URL(BASE_URL).origin, `the font comes from ${font.url()}`);
    assert(font.status() === 200, `the font answered ${font.status()}`);
    assert(/immutable/.test(font.headers()['cache-control'] ?? ''), 'the hashed font is not cached for good');
    assert(preload.includes(new URL(font.url()).pathname), `the preload names another file: ${preload}`);
  },
);

await check('unknown path shows the 404 page', async (page) => {
  const res = await page.goto(`${BASE_URL}/this-page-does-not-exist-${Date.now()}`);
  assert(res && res.status() < 500, `HTTP ${res?.status()}`);
  await page.getByText('404 Page Not Found').waitFor({ state: 'visible' });
  await page.getByText('Did you forget to add the page to the router?').waitFor({ state: 'visible' });
  await page
    .getByText('The page you are looking for does not exist or has moved.', { exact: false })
    .waitFor();
  await shot(page, 'not-found');
});

await check("the footer's Careers link opens a Careers page, not the 404", async (page) => {
  // Clicked as soon as it can be, while React is adopting the prerendered page: its router's first
  // render once scrolled the page back to the top under the click (shell/src/bootstrap.tsx).
  await page.goto(`${BASE_URL}/`, { waitUntil: 'commit' });
  await page.getByRole('contentinfo').getByRole('link', { name: 'Careers' }).click();
  await page.waitForURL((url) => url.pathname === '/careers');
  await page.getByRole('heading', { name: 'Careers', level: 1 }).waitFor();
  assert((await page.getByText('404 Page Not Found').count()) === 0, 'Careers is the 404 page');
});

await check('theme toggle persists across reload', async (page) => {
  await page.goto(`${BASE_URL}/`);
  await page.getByRole('heading', { name: 'Secure. Efficient. Reliable.' }).waitFor();
  const scheme = () =>
    page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  const stored = () => page.evaluate(() => window.localStorage.getItem('theme'));
  const before = await scheme();
  assert(before === 'light' || before === 'dark', `initial data-mantine-color-scheme is ${before}`);
  const expected = before === 'dark' ? 'light' : 'dark';
  await shot(page, `landing-${before}`);

  await page.getByTestId('theme-toggle').first().click();
  await page.waitForFunction(
    (want) => document.documentElement.getAttribute('data-mantine-color-scheme') === want,
    expected,
  );
  assert((await stored()) === expected, `localStorage theme is ${await stored()}, expected ${expected}`);

  await page.reload();
  await page.getByRole('heading', { name: 'Secure. Efficient. Reliable.' }).waitFor();
  assert((await scheme()) === expected, `after reload data-mantine-color-scheme is ${await scheme()}`);
  assert((await stored()) === expected, `after reload localStorage theme is ${await stored()}`);
  await shot(page, `landing-${expected}`);

  // Back again, so both directions are covered.
  await page.getByTestId('theme-toggle').first().click();
  await page.waitForFunction(
    (want) => document.documentElement.getAttribute('data-mantine-color-scheme') === want,
    before,
  );
  assert((await stored()) === before, `localStorage theme is ${await stored()}, expected ${before}`);
});

// Not counted as a check: screenshots of the mobile layout (375 px) with the navigation drawer open.
{
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  try {
    await page.goto(`${BASE_URL}/`);
    await page.getByRole('heading', { name: 'Secure. Efficient. Reliable.' }).waitFor({ timeout: TIMEOUT });
    await shot(page, 'landing-mobile');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').waitFor({ timeout: TIMEOUT });
    await page.waitForTimeout(400);
    await shot(page, 'landing-mobile-drawer');
  } catch (error) {
    console.log(
      `note - mobile screenshots skipped: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
    );
  } finally {
    await context.close();
  }
}

await browser.close();

finish('smoke', results);
