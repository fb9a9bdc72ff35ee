#!/usr/bin/env node
// Code inside addInitScript()/evaluate() runs in the browser:
/* global document, window, MutationObserver, requestAnimationFrame */
// How long a page takes to show what makes it usable, in headless Chromium on a desktop viewport, signed
// in, against a running stack:
//   market  /market's first product card (as army_demo);
//   admin   /admin/dashboard with all seven of its figures (as admin; docs/architecture.md §8 budgets the
//           cold one in the production build at 1.5 s).
//
//   node load/first-content.mjs [market|admin]
//   BASE_URL=http://localhost:8080 FIRST_CONTENT_RUNS=5 node load/first-content.mjs admin
//
// Each "cold" run uses a fresh browser context (empty HTTP cache, signed in through POST /api/login) and
// opens the page; each "warm" run reloads it in one context. The time is measured inside the page: from
// the start of navigation (performance.timeOrigin) to the moment the last awaited element is in the DOM
// and painted. Prints min/median/max for both (for market, the catalogue's size first).
import { chromium } from 'playwright-core';

const PAGES = {
  market: {
    path: '/market',
    user: ['army_demo', 'Army@12345', 'user'],
    selector: '[data-testid="product-card"]',
    count: 1,
  },
  admin: {
    path: '/admin/dashboard',
    user: ['admin', process.env.ADMIN_PASSWORD ?? 'Admin@12345', 'admin'],
    selector: '[data-testid^="dashboard-"][data-testid$="-total"]',
    count: 7,
  },
};
const NAME = process.argv[2] ?? 'market';
const TARGET = PAGES[NAME];
if (!TARGET) throw new Error(`no such page: ${NAME} (market or admin)`);
const BASE = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const [USER, PASSWORD, PORTAL] = TARGET.user;
const RUNS = Math.max(1, Number(process.env.FIRST_CONTENT_RUNS ?? 5));
const TIMEOUT = Number(process.env.FIRST_CONTENT_TIMEOUT_MS ?? 60_000);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
});

/** Records, in the page, when `count` elements matching `selector` are there (after the next paint). */
function recordContent({ selector, count }) {
  const seen = () => document.querySelectorAll(selector).length >= count;
  const mark = () => {
    if (window.__qmContentMs !== undefined) return true;
    if (!seen()) return false;
    requestAnimationFrame(() => {
      window.__qmContentMs = performance.now();
    });
    return true;
  };
  new MutationObserver((_, observer) => {
    if (mark()) observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

async function signedInContext() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(TIMEOUT);
  const res = await context.request.post(`${BASE}/api/login`, {
    headers: { Origin: BASE, 'X-Requested-With': 'quartermaster' },
    data: { username: USER, password: PASSWORD, portal: PORTAL },
  });
  if (!res.ok()) {
    throw new Error(`sign in as ${USER}: HTTP ${res.status()} ${(await res.text()).slice(0, 200)}`);
  }
  await context.addInitScript(recordContent, { selector: TARGET.selector, count: TARGET.count });
  return context;
}

async function contentMs(page, load) {
  await load();
  await page.waitForFunction(() => window.__qmContentMs !== undefined, null, { timeout: TIMEOUT });
  return page.evaluate(() => Math.round(window.__qmContentMs));
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : Math.round((sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2);
  return { min: sorted[0], median, max: sorted[sorted.length - 1] };
};

let exitCode = 0;
try {
  const cold = [];
  let total = '?';
  for (let i = 0; i < RUNS; i++) {
    const context = await signedInContext();
    try {
      const page = await context.newPage();
      if (i === 0 && NAME === 'market') {
        const res = await context.request.get(`${BASE}/api/products?page=1&pageSize=1`);
        total = res.headers()['x-total-count'] ?? '?';
        if (total === '0') throw new Error('the catalogue is empty: no cards to wait for');
      }
      cold.push(await contentMs(page, () => page.goto(`${BASE}${TARGET.path}`)));
    } finally {
      await context.close();
    }
  }

  const warm = [];
  const context = await signedInContext();
  try {
    const page = await context.newPage();
    await contentMs(page, () => page.goto(`${BASE}${TARGET.path}`)); // fills the HTTP cache
    for (let i = 0; i < RUNS; i++) warm.push(await contentMs(page, () => page.reload()));
  } finally {
    await context.close();
  }

  const c = stats(cold);
  const w = stats(warm);
  const catalogue = NAME === 'market' ? `catalogue: ${total} products; ` : '';
  console.log(`${catalogue}user ${USER}; ${BASE}${TARGET.path}; ${RUNS} runs each`);
  console.log(`cold (fresh context): ${cold.join(', ')} ms`);
  console.log(`warm (reload):        ${warm.join(', ')} ms`);
  console.log(
    `${NAME} first content: median ${c.median} ms cold (min ${c.min}, max ${c.max}), ` +
      `median ${w.median} ms warm (min ${w.min}, max ${w.max})`,
  );
} catch (error) {
  console.error(
    `${NAME} first content: failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
  );
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
