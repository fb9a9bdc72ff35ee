#!/usr/bin/env node
// Error isolation of the micro-frontends: a remote that cannot be loaded shows an error with Retry inside
// the layout, the rest of the app keeps working, and Retry really reloads the remote once it is back.
//
// Runs against the real gateway (BASE_URL, default http://localhost:8080); the remote's outage is made in
// the browser: its files answer 503 until the test lets them through again.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finish, launchBrowser } from './lib/browser.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
await mkdir(ARTIFACTS, { recursive: true });

const browser = await launchBrowser();
const results = [];
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.setDefaultTimeout(30_000);
const status = (remote) => page.getByTestId(`remote-status-${remote}`);

/** Each check builds on the previous one: the first failure ends the journey. */
function ok(name) {
  results.push({ name, ok: true });
  console.log(`ok   - ${name}`);
}

/** A remote down or back: every request for its files answers 503 while it is down. */
async function setFailure(remote, on) {
  const pattern = `**/remotes/${remote}/**`;
  if (on) await page.route(pattern, (route) => route.fulfill({ status: 503, body: 'remote unavailable' }));
  else await page.unroute(pattern);
}

try {
  await setFailure('wallet', true);
  await page.goto(`${BASE_URL}/_remotes`);
  await status('wallet').filter({ hasText: 'failed' }).waitFor();
  await status('market').filter({ hasText: 'loaded' }).waitFor();
  await status('admin').filter({ hasText: 'loaded' }).waitFor();
  await page.getByTestId('remote-error-wallet').getByRole('button', { name: 'Retry' }).waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, 'remote-failed.png'), animations: 'disabled' });
  ok('a failing remote shows an error with Retry; the others load');

  // Still failing: Retry goes back to the network and fails again (no stale success, no crash).
  await page.getByTestId('remote-error-wallet').getByRole('button', { name: 'Retry' }).click();
  await status('wallet').filter({ hasText: 'failed' }).waitFor();
  ok('Retry while the remote is still down fails cleanly');

  await setFailure('wallet', false);
  await page.getByTestId('remote-error-wallet').getByRole('button', { name: 'Retry' }).click();
  await status('wallet').filter({ hasText: 'loaded' }).waitFor();
  await page.getByTestId('remote-health-wallet').waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, 'remote-recovered.png'), animations: 'disabled' });
  ok('Retry loads the remote once it is back');

  // The rest of the app kept working throughout.
  await page.getByRole('link', { name: 'About Us' }).first().click();
  await page.getByRole('heading', { name: 'About Us', level: 1 }).waitFor();
  ok('navigation keeps working');
} catch (error) {
  results.push({ name: 'remote isolation (the check after the last ok)', ok: false });
  console.log(`FAIL - ${error instanceof Error ? error.message.split('\n')[0] : error}`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'failed-remote-isolation.png') }).catch(() => {});
} finally {
  await setFailure('wallet', false).catch(() => {});
  await browser.close();
}
finish('remote-isolation', results);
