#!/usr/bin/env node
// Code inside addInitScript()/evaluate() runs in the browser:
/* global document, window, MutationObserver, requestAnimationFrame */
// How long a page takes to show what makes it usable, in headless Chromium on a desktop viewport, signed
// in, against a running stack:
//   market  /market's first product card (as army_demo);
//   admin   /admin/dashboard with all seven of its figures (as admin; docs/architecture.md §8 budgets the
//           cold one in the production build at 1.5 s).
//
//   node load/first-content.mjs [market|admin] [--phone] [--floor]
//   BASE_URL=http://localhost:8080 FIRST_CONTENT_RUNS=5 node load/first-content.mjs admin
//
// Each "cold" run uses a fresh browser context (empty HTTP cache, signed in through POST /api/login) and
// opens the page; each "warm" run reloads it in one context. The time is measured inside the page: from
// the start of navigation (performance.timeOrigin) to the moment the last awaited element is in the DOM
// and painted. Prints min/median/max for both (for market, the catalogue's size first).
//
// --phone: Lighthouse's phone (412 × 823, CPU 4× slower) applied to Chromium itself, not simulated
// afterwards as Lighthouse does: the main thread really is four times slower, so work that competes
// with the page's own (another chunk evaluated first) shows in the time, where Lighthouse's model of
// the page's dependencies may not place it on the path of the largest paint.
//
// --floor (market): then the same cold runs on /market's phone floor (load/lib/phone-floor.mjs: the same
// first cards without a framework, with React alone, and with the design's libraries and the market's
// card in one bundle), and /market's cold median as a multiple of each floor's, all in the same run.
import { chromium } from 'playwright-core';
import { startPhoneFloor } from './lib/phone-floor.mjs';
import { signIn } from './lib/sign-in.cjs';

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
const NAME = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'market';
const PHONE = process.argv.includes('--phone');
const FLOOR = process.argv.includes('--floor');
/** Lighthouse's mobile preset: its screen, and the CPU slowdown it simulates. */
const PHONE_VIEWPORT = { width: 412, height: 823 };
const PHONE_CPU_SLOWDOWN = 4;
const TARGET = PAGES[NAME];
if (!TARGET) throw new Error(`no such page: ${NAME} (market or admin)`);
if (FLOOR && NAME !== 'market') throw new Error('--floor is the floor of /market: run it with market');
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

/** A context as the runs use it: the page's viewport (the phone's with --phone), the content recorder. */
async function measuredContext() {
  const context = await browser.newContext({
    viewport: PHONE ? PHONE_VIEWPORT : { width: 1280, height: 900 },
    ...(PHONE ? { isMobile: true, hasTouch: true } : {}),
  });
  context.setDefaultTimeout(TIMEOUT);
  await context.addInitScript(recordContent, { selector: TARGET.selector, count: TARGET.count });
  return context;
}

async function signedInContext() {
  const context = await measuredContext();
  const res = await context.request.post(`${BASE}/api/login`, {
    headers: { Origin: BASE, 'X-Requested-With': 'quartermaster' },
    data: { username: USER, password: PASSWORD, portal: PORTAL },
  });
  if (!res.ok()) {
    throw new Error(`sign in as ${USER}: HTTP ${res.status()} ${(await res.text()).slice(0, 200)}`);
  }
  return context;
}

/** A page of the context, on --phone with its CPU slowed as Lighthouse's phone is. */
async function newPage(context) {
  const page = await context.newPage();
  if (PHONE) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_CPU_SLOWDOWN });
  }
  return page;
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

/**
 * Cold runs on each page of /market's phone floor, served with the products the market's user reads;
 * each floor's median beside /market's (`marketMs`), as a multiple.
 */
async function measureFloor(marketMs) {
  const floor = await startPhoneFloor({
    base: BASE,
    cookie: (await signIn(BASE, USER, PASSWORD, PORTAL)).cookie,
  });
  try {
    for (const { name, url } of floor.pages) {
      const times = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await measuredContext();
        try {
          const page = await newPage(context);
          times.push(await contentMs(page, () => page.goto(url)));
        } finally {
          await context.close();
        }
      }
      const f = stats(times);
      console.log(
        `${name}: median ${f.median} ms cold (min ${f.min}, max ${f.max}); ` +
          `/market takes ${(marketMs / f.median).toFixed(2)}× as long`,
      );
    }
  } finally {
    await floor.close();
  }
}

let exitCode = 0;
try {
  const cold = [];
  let total = '?';
  for (let i = 0; i < RUNS; i++) {
    const context = await signedInContext();
    try {
      const page = await newPage(context);
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
    const page = await newPage(context);
    await contentMs(page, () => page.goto(`${BASE}${TARGET.path}`)); // fills the HTTP cache
    for (let i = 0; i < RUNS; i++) warm.push(await contentMs(page, () => page.reload()));
  } finally {
    await context.close();
  }

  const c = stats(cold);
  const w = stats(warm);
  const catalogue = NAME === 'market' ? `catalogue: ${total} products; ` : '';
  const device = PHONE ? `; phone ${PHONE_VIEWPORT.width} px, CPU ${PHONE_CPU_SLOWDOWN}× slower` : '';
  console.log(`${catalogue}user ${USER}; ${BASE}${TARGET.path}; ${RUNS} runs each${device}`);
  console.log(`cold (fresh context): ${cold.join(', ')} ms`);
  console.log(`warm (reload):        ${warm.join(', ')} ms`);
  console.log(
    `${NAME} first content: median ${c.median} ms cold (min ${c.min}, max ${c.max}), ` +
      `median ${w.median} ms warm (min ${w.min}, max ${w.max})`,
  );
  if (FLOOR) await measureFloor(c.median);
} catch (error) {
  console.error(
    `${NAME} first content: failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
  );
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
