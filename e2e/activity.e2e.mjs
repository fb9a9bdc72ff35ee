#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window */
// Browser journey of the administrators' activity log (docs/adr/011) against the running stack.
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/activity.e2e.mjs
//
// Setup through the real API: registers an Army user and approves them. In the browser, the user
// (signed in once) views the profile, updates it and views the wallet. The admin, on
// /admin/user-activities, finds the user among the cards, opens their activity and sees the login,
// profile view, profile update and wallet view; the Wallet and Profile tabs and the "Select specific
// action" filter narrow the rows (on the server: the requests carry the filter); a search for nothing
// shows the empty text. 1280 px and 375 px, light and dark.
// Screenshots go to e2e/artifacts/activity-*.png. Last line: `activity: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';
import { emailOf, registerApproved, signInContext } from './lib/api.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.ACTIVITY_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'E2e-Pass-123';
const SOLDIER = { username: `e2e_act_${RUN}`, firstName: 'Kavya', lastName: 'Menon', role: 'Army' };
const label = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

const { step, shot, done } = await journeySteps('activity', ARTIFACTS);

// ---- helpers -------------------------------------------------------------------------------------------

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const rows = (page) => page.locator('table tbody tr');
const actionsShown = async (page) =>
  [...new Set(await rows(page).locator('td:nth-child(2)').allTextContents())].sort();

/** Waits until the request of the list with `param` answers; asserts the filter went to the server. */
const listed = (page, param) =>
  page.waitForResponse((res) => {
    const url = new URL(res.url());
    return (
      url.pathname === '/api/admin/user-activities' &&
      Object.entries(param).every(([k, v]) => url.searchParams.get(k) === v) &&
      res.ok()
    );
  });

/** The user's activities view; events arrive through NATS, so Refresh until `count` rows show. */
async function openActivities(page, count) {
  await page.goto(`${BASE_URL}/admin/user-activities`);
  await page.getByRole('heading', { name: 'User Management' }).waitFor();
  await page.getByLabel('Search users').fill(SOLDIER.username);
  await page.getByTestId(`activity-user-${SOLDIER.username}`).click();
  await page
    .getByRole('heading', { name: `Activities for ${SOLDIER.firstName} ${SOLDIER.lastName}` })
    .waitFor();
  const deadline = Date.now() + TIMEOUT;
  while ((await rows(page).count()) < count) {
    assert(Date.now() < deadline, `only ${await rows(page).count()} of ${count} activities arrived`);
    await page.waitForTimeout(500);
    const answered = listed(page, { userId: String(state.userId) });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await answered;
  }
}

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();
const soldier = await newContext();
const admin = await newContext();
const soldierPage = await soldier.newPage();
const adminPage = await admin.newPage();
const state = {};

await step('setup: an approved Army user and the admin, each signed in once', async () => {
  [state.userId] = await registerApproved(BASE_URL, [SOLDIER], PASSWORD, {
    username: ADMIN_USERNAME,
    password: ADMIN_PASSWORD,
  });
  await signInContext(BASE_URL, soldier, SOLDIER.username, PASSWORD);
  await signInContext(BASE_URL, admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
  return `user #${state.userId}`;
});

await step(
  'the Army user views and updates the profile, then views the wallet',
  async () => {
    const page = soldierPage;
    const viewed = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/api/user/activity' && res.request().method() === 'POST',
    );
    await page.goto(`${BASE_URL}/profile`);
    assert((await viewed).ok(), 'profile_view was not recorded');
    await page.getByLabel(label('Address')).fill('7 Parade Ground Road, Jalandhar');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.locator('.mantine-Notification-root').filter({ hasText: 'Profile updated' }).first().waitFor();
    await page.goto(`${BASE_URL}/wallet`);
    await page.getByText('Current Balance').first().waitFor();
  },
  { page: soldierPage },
);

await step(
  'the users view: cards with initials, name, username, email and role; the search narrows them',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/user-activities`);
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByText('Select a user to view their activity history').waitFor();
    const adminCard = page.getByTestId(`activity-user-${ADMIN_USERNAME}`);
    await adminCard.getByText('Admin', { exact: true }).waitFor();
    await shot(page, 'users');

    await page.getByPlaceholder('Search users by name, email, role...').fill(SOLDIER.lastName.toUpperCase());
    const card = page.getByTestId(`activity-user-${SOLDIER.username}`);
    for (const text of [
      'KM',
      `${SOLDIER.firstName} ${SOLDIER.lastName}`,
      `@${SOLDIER.username}`,
      emailOf(SOLDIER),
      'Army',
    ])
      await card.getByText(text, { exact: true }).waitFor();
    assert(!(await adminCard.isVisible()), 'the search kept the admin card');
    await page.getByPlaceholder('Search users by name, email, role...').fill(`nobody-${RUN}`);
    await page.getByText('No users found matching your search criteria').waitFor();
  },
  { page: adminPage },
);

await step(
  "the activities view lists the user's login, profile view, profile update and wallet view",
  async () => {
    const page = adminPage;
    await openActivities(page, 4);
    await page.getByText(`@${SOLDIER.username} · ${emailOf(SOLDIER)} · Army`).waitFor();
    for (const column of ['User', 'Action', 'Details', 'Time'])
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    const actions = await actionsShown(page);
    for (const want of ['Login', 'Profile View', 'Profile Update', 'Wallet View'])
      assert(actions.includes(want), `no "${want}" among ${actions.join(', ')}`);
    const text = await rows(page).first().textContent();
    assert(text.includes(SOLDIER.username) && text.includes(emailOf(SOLDIER)), `a row reads "${text}"`);
    assert(/ago|now/i.test(await rows(page).first().locator('td').nth(3).textContent()), 'time not relative');
    // The exact time, in India Standard Time, is in a tooltip.
    await rows(page).first().locator('td').nth(3).locator('time').hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}\s?[ap]m IST$/i })
      .waitFor();
    await page.mouse.move(0, 0);
    await shot(page, 'activities');
  },
  { page: adminPage },
);

await step(
  'the Wallet and Profile tabs and the action filter narrow the rows on the server',
  async () => {
    const page = adminPage;
    let answered = listed(page, { category: 'wallet' });
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await answered;
    await rows(page).filter({ hasText: 'Wallet View' }).first().waitFor();
    assert((await actionsShown(page)).join() === 'Wallet View', `Wallet tab: ${await actionsShown(page)}`);

    answered = listed(page, { category: 'profile' });
    await page.getByRole('tab', { name: 'Profile' }).click();
    await answered;
    await rows(page).filter({ hasText: 'Profile Update' }).first().waitFor();
    const profile = await actionsShown(page);
    assert(profile.join() === 'Profile Update,Profile View', `Profile tab: ${profile}`);

    await page.getByRole('textbox', { name: 'Select specific action' }).click();
    const options = await page.getByRole('option').allTextContents();
    assert(options.includes('Profile Update') && !options.includes('Wallet View'), `options: ${options}`);
    answered = listed(page, { category: 'profile', action: 'profile_update' });
    await page.getByRole('option', { name: 'Profile Update' }).click();
    await answered;
    await page.waitForFunction(() =>
      [...document.querySelectorAll('table tbody tr')].every((r) => r.textContent.includes('Profile Update')),
    );
    // The details' full text is in a tooltip.
    await rows(page).first().locator('td').nth(2).locator('p').hover();
    await page.getByRole('tooltip').waitFor();
    await shot(page, 'action-filter');

    answered = listed(page, { search: `nothing-${RUN}` });
    await page.getByPlaceholder('Search by action or details...').fill(`nothing-${RUN}`);
    await answered;
    await page.getByText('No activities found matching your filter criteria').waitFor();
  },
  { page: adminPage },
);

await step(
  'All User Activities (every user), and Back to the cards',
  async () => {
    const page = adminPage;
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByRole('button', { name: 'All User Activities' }).click();
    await page.getByRole('heading', { name: 'All User Activities' }).waitFor();
    await rows(page).first().waitFor();
  },
  { page: adminPage, independent: true },
);

/** Both views on a phone, and on a desktop in dark mode, in `colorScheme`. */
async function schemeJourney(colorScheme) {
  const contexts = [];
  // The desktop session: signing in again would meet the per-IP sign-in limit the journeys share.
  const open = async (options) => {
    const context = await newContext({ colorScheme, storageState: await admin.storageState(), ...options });
    contexts.push(context);
    return context.newPage();
  };
  try {
    const phone = await open({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true });
    await phone.goto(`${BASE_URL}/admin/user-activities`);
    await phone.getByLabel('Search users').fill(SOLDIER.username);
    await phone.getByTestId(`activity-user-${SOLDIER.username}`).waitFor();
    await phone.waitForTimeout(300);
    assert((await overflow(phone)) <= 0, `the users view is ${await overflow(phone)}px too wide`);
    await shot(phone, `mobile-${colorScheme}-users`, true);
    await openActivities(phone, 4);
    await phone.waitForTimeout(300);
    assert((await overflow(phone)) <= 0, `the activities view is ${await overflow(phone)}px too wide`);
    assert(await phone.getByTestId('activity-cards').isVisible(), 'no activity cards at 375 px');
    assert(!(await phone.locator('table').isVisible()), 'the table shows at 375 px');
    await shot(phone, `mobile-${colorScheme}-activities`, true);
    if (colorScheme === 'dark') {
      const desktop = await open();
      await openActivities(desktop, 4);
      await shot(desktop, 'dark-activities');
    }
  } finally {
    for (const context of contexts) await context.close();
  }
}

await step('375 px, light: both views fit the screen', () => schemeJourney('light'), {
  page: adminPage,
  independent: true,
});
await step('375 px and 1280 px, dark: both views', () => schemeJourney('dark'), {
  page: adminPage,
  independent: true,
});

await browser.close();

done();
