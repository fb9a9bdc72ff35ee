#!/usr/bin/env node
// The landing page's JavaScript budget (docs/architecture.md §8): loads / in headless Chromium as a visitor and sums
// the gzipped size of every JavaScript response, until the network has been idle and a little longer,
// so that code fetched right after the first render counts too. Fails above the budget.
// The gateway's compression answers Chromium with brotli (smaller); the budget is in gzip, so each body
// is gzipped here at zlib's default level, the level the gateway uses for clients that take only gzip.
//
//   node scripts/dev.mjs --prod   (the production build: make build, or npm run build:frontends)
//   node load/landing-js.mjs [--budget=150] [--path=/] [--as=<username>:<password>]
//   (--as signs in first, for a signed-in page such as --path=/market; the budget is the landing page's)
//
// Prints one row per script and writes the total to load/results/landing-js.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { loopbackOnly } from './lib/loopback.cjs';
import { signIn } from './lib/sign-in.cjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
loopbackOnly(BASE_URL);
const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const BUDGET_KIB = Number(arg('budget', process.env.LANDING_JS_BUDGET_KIB ?? '150'));
const PAGE = arg('path', '/');
const AS = arg('as', '');
/** After network idle: code a page fetches on a timer or idle callback shortly after loading. */
const SETTLE_MS = 2000;
const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

/** Signs in through the API (as a browser would, with Origin) and hands the session cookie to the context. */
async function signInTo(context, username, password) {
  const { cookies } = await signIn(BASE_URL, username, password);
  await context.addCookies(cookies.map((c) => ({ ...c, url: BASE_URL })));
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
});
const scripts = [];
try {
  const context = await browser.newContext();
  if (AS) await signInTo(context, ...AS.split(':'));
  const page = await context.newPage();
  const pending = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (response.request().resourceType() !== 'script' && !type.includes('javascript')) return;
    pending.push(
      (async () => {
        const sizes = await response.request().sizes();
        const body = await response.body().catch(() => Buffer.alloc(0));
        scripts.push({
          url: new URL(response.url()).pathname,
          status: response.status(),
          encoding: response.headers()['content-encoding'] ?? 'identity',
          wireBytes: sizes.responseBodySize,
          bytes: body.length,
          gzipBytes: gzipSync(body).length,
        });
      })(),
    );
  });
  const res = await page.goto(`${BASE_URL}${PAGE}`, { waitUntil: 'networkidle' });
  if (!res?.ok()) throw new Error(`GET ${PAGE}: ${res?.status()}`);
  await page.waitForTimeout(SETTLE_MS);
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
} finally {
  await browser.close();
}

const kib = (n) => (n / 1024).toFixed(1);
scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
const total = (key) => scripts.reduce((sum, s) => sum + s[key], 0);
const [gzip, wire, raw] = [total('gzipBytes'), total('wireBytes'), total('bytes')];
console.log(`JavaScript loaded by ${BASE_URL}${PAGE}`);
console.log('  KiB gzip  KiB sent  encoding  KiB raw  script');
const row = (g, w, e, r, name) =>
  `${kib(g).padStart(10)} ${kib(w).padStart(9)}  ${e.padEnd(8)}  ${kib(r).padStart(7)}  ${name}`;
for (const s of scripts)
  console.log(
    row(s.gzipBytes, s.wireBytes, s.encoding, s.bytes, s.url + (s.status === 200 ? '' : ` (${s.status})`)),
  );
console.log(row(gzip, wire, '', raw, `total of ${scripts.length} scripts; budget ${BUDGET_KIB} KiB gzip`));
// compression() leaves bodies under 1 KiB alone; anything larger sent as is means compression is off.
const uncompressed = scripts.filter((s) => s.encoding === 'identity' && s.bytes > 1024);
if (uncompressed.length) console.log(`note: sent uncompressed: ${uncompressed.map((s) => s.url).join(', ')}`);

mkdirSync(RESULTS, { recursive: true });
writeFileSync(
  path.join(RESULTS, 'landing-js.json'),
  JSON.stringify(
    {
      page: PAGE,
      budgetKiB: BUDGET_KIB,
      gzipKiB: Number(kib(gzip)),
      sentKiB: Number(kib(wire)),
      rawKiB: Number(kib(raw)),
      scripts,
    },
    null,
    2,
  ),
);
if (gzip > BUDGET_KIB * 1024) {
  console.log(`FAIL - ${kib(gzip)} KiB of gzipped JavaScript is over the ${BUDGET_KIB} KiB budget`);
  process.exitCode = 1;
} else console.log(`ok - ${kib(gzip)} KiB of gzipped JavaScript is within the ${BUDGET_KIB} KiB budget`);
