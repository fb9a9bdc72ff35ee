#!/usr/bin/env node
// Code inside addInitScript()/evaluate() runs in the browser:
/* global document, window, MutationObserver, requestAnimationFrame */
// How long the market page takes to show its first product cards in headless Chromium, signed in as a given
// user, against a running stack.
//
//   node load/market-first-cards.mjs
//   MARKET_URL=http://localhost:8080 MARKET_USER=army_demo MARKET_PASSWORD=Army@12345 MARKET_RUNS=5 \
//     node load/market-first-cards.mjs
//
// Each "cold" run uses a fresh browser context (empty HTTP cache, signed in through POST /api/login) and
// opens /market; each "warm" run reloads the page in one context. The time is measured inside the page:
// from the start of navigation (performance.timeOrigin) to the moment the first product card is in the
// DOM and painted. Prints the catalogue size (X-Total-Count) and min/median/max for both.
import { chromium } from 'playwright-core';

const BASE = (process.env.MARKET_URL ?? process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const USER = process.env.MARKET_USER ?? 'army_demo';
const PASSWORD = process.env.MARKET_PASSWORD ?? 'Army@12345';
const PORTAL = process.env.MARKET_PORTAL ?? 'user';
const RUNS = Math.max(1, Number(process.env.MARKET_RUNS ?? 5));
const TIMEOUT = Number(process.env.MARKET_TIMEOUT_MS ?? 60_000);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
});

/** Records, in the page, when the first product card appears (after the next paint). */
function recordFirstCard() {
  const seen = () => document.querySelector('[data-testid="product-card"]');
  const mark = () => {
    if (window.__qmFirstCardMs !== undefined) return true;
    if (!seen()) return false;
    requestAnimationFrame(() => {
      window.__qmFirstCardMs = performance.now();
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
  await context.addInitScript(recordFirstCard);
  return context;
}

async function firstCardsMs(page, load) {
  await load();
  await page.waitForFunction(() => window.__qmFirstCardMs !== undefined, null, { timeout: TIMEOUT });
  return page.evaluate(() => Math.round(window.__qmFirstCardMs));
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
      if (i === 0) {
        const res = await context.request.get(`${BASE}/api/products?page=1&pageSize=1`);
        total = res.headers()['x-total-count'] ?? '?';
        if (total === '0') throw new Error('the catalogue is empty: no cards to wait for');
      }
      cold.push(await firstCardsMs(page, () => page.goto(`${BASE}/market`)));
    } finally {
      await context.close();
    }
  }

  const warm = [];
  const context = await signedInContext();
  try {
    const page = await context.newPage();
    await firstCardsMs(page, () => page.goto(`${BASE}/market`)); // fills the HTTP cache
    for (let i = 0; i < RUNS; i++) warm.push(await firstCardsMs(page, () => page.reload()));
  } finally {
    await context.close();
  }

  const c = stats(cold);
  const w = stats(warm);
  console.log(`catalogue: ${total} products; user ${USER}; ${BASE}/market; ${RUNS} runs each`);
  console.log(`cold (fresh context): ${cold.join(', ')} ms`);
  console.log(`warm (reload):        ${warm.join(', ')} ms`);
  console.log(
    `market first cards: median ${c.median} ms cold (min ${c.min}, max ${c.max}), ` +
      `median ${w.median} ms warm (min ${w.min}, max ${w.max})`,
  );
} catch (error) {
  console.error(
    `market first cards: failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
  );
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
