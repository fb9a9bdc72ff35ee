// Shared by the browser journeys: headless Chromium whose pages' uncaught errors fail the journey.
import { chromium } from 'playwright-core';
import { report } from './report.mjs';

/** Uncaught exceptions (`pageerror`) of every page of the journey, as "url: message". */
export const pageErrors = [];

/**
 * Launches Chromium. Every context it creates records its pages' uncaught errors in `pageErrors`, except
 * those matching `ignore` (e.g. development-server noise).
 */
export async function launchBrowser({ ignore = [] } = {}) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
  });
  const watch = (page) =>
    page.on('pageerror', (error) => {
      if (ignore.some((pattern) => pattern.test(error.message))) return;
      pageErrors.push(`${page.url()}: ${error.message}`);
      console.log(`       page error: ${error.message}`);
    });
  // browser.newPage() goes through browser.newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('page', watch);
    return context;
  };
  return browser;
}

/**
 * Ends a journey: its checks (`{ ok }` each) plus one that no page threw an uncaught error, reported
 * to the runner (see report.mjs).
 */
export function finish(journey, results) {
  const checks = results.length;
  const all = checks ? [...results, { ok: pageErrors.length === 0 }] : results;
  if (pageErrors.length) {
    console.log(`FAIL - ${pageErrors.length} uncaught page error(s):`);
    for (const error of pageErrors) console.log(`       ${error}`);
  }
  const passed = all.filter((result) => result.ok).length;
  report(journey, passed, all.length - passed);
}

/**
 * Holds back the real answers to requests for `pathname` by `ms`, so that a progress state can be
 * seen; resolves to the function that stops it once the requests held now have gone on (Playwright
 * unroutes by the same matcher and handler, and would otherwise answer a held request itself).
 */
export async function delayAnswers(page, pathname, ms) {
  const matches = (url) => url.pathname === pathname;
  const held = new Set();
  const handler = (route) => {
    const going = new Promise((resolve) => setTimeout(resolve, ms)).then(() => route.continue());
    held.add(going);
    return going.finally(() => held.delete(going));
  };
  await page.route(matches, handler);
  return async () => {
    await Promise.all(held);
    await page.unroute(matches, handler);
  };
}
