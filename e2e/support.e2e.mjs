#!/usr/bin/env node
// Code inside page.evaluate() runs in the browser:
/* global document, window */
// Browser journey of the contact form and the administrators' query inbox against the
// running stack.
//
//   BASE_URL=http://localhost:8080 MAILDEV_URL=http://localhost:1080 ADMIN_PASSWORD=Admin@12345 node e2e/support.e2e.mjs
//
// A visitor sends the /contact form (Send Message → Submitting..., the success toast, the form cleared);
// the admin finds the query on /admin/queries (the four cards, the status filter), opens it (Query
// Details), replies and marks it in progress (buttons disabled while the response is blank, Sending...),
// then resolves it (the response box gone afterwards); both replies arrive in maildev; the dashboard's
// Queries card shows the total; 1280 and 375 px in light and dark mode. Screenshots go to
// e2e/artifacts/support-*.png. Last line: `support: N passed, M failed`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signInContext as signIn } from './lib/api.mjs';
import { delayAnswers, launchBrowser } from './lib/browser.mjs';
import { mailsTo, waitForMail } from './lib/maildev.mjs';
import { assert, journeySteps } from './lib/steps.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.SUPPORT_TIMEOUT_MS ?? 30_000);

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const VISITOR = {
  fullName: 'Meera Nair',
  email: `e2e_sup_${RUN}@example.test`,
  subject: `Delivery status of my radio order ${RUN}, which has not arrived after two weeks`,
  message: 'I ordered a field radio two weeks ago and it has not arrived.\nCould you check on it?',
};
const FIRST_REPLY = 'We have asked the courier and will update you within a day.';
const SECOND_REPLY = 'The courier confirms delivery this morning. Closing this query.';

const { step, shot, done } = await journeySteps('support', ARTIFACTS);

// ---- helpers -------------------------------------------------------------------------------------------

async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

async function toast(page, title, message) {
  const alert = page.locator('.mantine-Notification-root').filter({ hasText: title });
  await alert.first().waitFor({ state: 'visible' });
  if (message) await alert.filter({ hasText: message }).first().waitFor({ state: 'visible' });
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const row = (page) => page.locator(`[data-testid="query-row"][data-query-id="${state.id}"]`);
const dialog = (page) => page.getByRole('dialog', { name: /Query Details/ });

async function openQueries(page) {
  await page.goto(`${BASE_URL}/admin/queries`);
  await page.getByRole('heading', { name: 'User Queries' }).waitFor();
}

/** Replies through the dialog with `button`, seeing "Sending..." while the answer is held back. */
async function replyWith(page, button, text) {
  await row(page)
    .getByRole('button', { name: /^View query/ })
    .click();
  const box = dialog(page);
  await box.getByText('View and respond to user query').waitFor();
  const send = box.getByRole('button', { name: button });
  assert(await send.isDisabled(), `"${button}" is enabled while the response is blank`);
  await box.getByRole('textbox', { name: 'Your Response' }).fill('   ');
  assert(await send.isDisabled(), `"${button}" is enabled for a blank response`);
  await box.getByRole('textbox', { name: 'Your Response' }).fill(text);
  assert(await send.isEnabled(), `"${button}" stays disabled with a response`);
  const release = await delayAnswers(page, `/api/admin/queries/${state.id}/status`, 800);
  await send.click();
  await box.getByRole('button', { name: 'Sending...' }).first().waitFor();
  await release();
  await toast(page, 'Success', 'Query status has been updated');
  await box.waitFor({ state: 'hidden' });
}

// ---- the journey ---------------------------------------------------------------------------------------

const browser = await launchBrowser();
const visitor = await newContext();
const admin = await newContext();
const visitorPage = await visitor.newPage();
const adminPage = await admin.newPage();
const state = {};

await step(
  'a visitor sends the contact form: Submitting..., the success toast, the form cleared',
  async () => {
    const page = visitorPage;
    await page.goto(`${BASE_URL}/contact`);
    await page.getByRole('heading', { name: 'Contact Us' }).waitFor();
    const send = page.getByRole('button', { name: 'Send Message' });
    // The footer has an email box of its own (the newsletter).
    const form = page.locator('form', { has: send });
    await send.click();
    await page.getByText('Full name is required').waitFor(); // nothing is sent with blank fields
    await form.getByRole('textbox', { name: 'Full name' }).fill(VISITOR.fullName);
    await form.getByRole('textbox', { name: 'Email' }).fill(VISITOR.email);
    await form.getByRole('textbox', { name: 'Subject' }).fill(VISITOR.subject);
    await form.getByRole('textbox', { name: 'Message' }).fill(VISITOR.message);
    await shot(page, 'contact-filled');
    const answered = page.waitForResponse(
      (res) => res.url().endsWith('/api/contact') && res.request().method() === 'POST',
    );
    const release = await delayAnswers(page, '/api/contact', 800);
    await send.click();
    await page.getByRole('button', { name: 'Submitting...' }).waitFor();
    await release();
    const res = await answered;
    assert(res.status() === 201, `POST /api/contact answered ${res.status()}`);
    state.id = (await res.json()).id;
    await toast(
      page,
      'Query Submitted Successfully',
      'Thank you for contacting us. Our team will review your query and get back to you shortly.',
    );
    for (const name of ['Full name', 'Email', 'Subject', 'Message'])
      assert((await form.getByRole('textbox', { name }).inputValue()) === '', `${name} was not cleared`);
    await shot(page, 'contact-sent');
  },
  { page: visitorPage },
);

await step(
  'the admin sees the query pending on /admin/queries with the four cards',
  async () => {
    await signIn(BASE_URL, admin, ADMIN_USERNAME, ADMIN_PASSWORD, 'admin');
    const page = adminPage;
    await openQueries(page);
    for (const label of ['Total Queries', 'Pending', 'In Progress', 'Resolved'])
      await page.getByRole('region', { name: label }).waitFor();
    // textContent: the badge's label as written (Mantine shows it in capitals).
    const text = (await row(page).textContent()) ?? '';
    for (const want of [VISITOR.fullName, VISITOR.email, 'Pending', 'View'])
      assert(text.includes(want), `the row lacks "${want}": ${text.replace(/\s+/g, ' ')}`);
    assert(/seconds? ago|a minute ago|minutes ago/.test(text), `the date is not relative: ${text}`);
    const subject = row(page).getByText(VISITOR.subject.slice(0, 20));
    assert(
      await subject.evaluate((el) => el.scrollWidth > el.clientWidth),
      'the long subject is not truncated',
    );
    await shot(page, 'queries');
  },
  { page: adminPage },
);

await step(
  'the admin replies and marks it in progress (blank: disabled; Sending...; the toast)',
  async () => {
    const page = adminPage;
    await row(page)
      .getByRole('button', { name: /^View query/ })
      .click();
    const box = dialog(page);
    for (const text of [VISITOR.fullName, VISITOR.email, VISITOR.subject, 'has not arrived'])
      await box.getByText(text, { exact: false }).first().waitFor();
    await box.getByRole('textbox', { name: 'Your Response' }).waitFor();
    assert(
      (await box.getByRole('textbox', { name: 'Your Response' }).getAttribute('placeholder')) ===
        'Type your response here...',
      'the response box has another placeholder',
    );
    await shot(page, 'query-dialog');
    await box.getByRole('button', { name: 'Cancel' }).click();
    await box.waitFor({ state: 'hidden' });
    await replyWith(page, 'Reply & Mark In Progress', FIRST_REPLY);
    await row(page).getByText('In Progress').waitFor();
  },
  { page: adminPage },
);

await step(
  'an in-progress query offers only Respond & Resolve; resolving it leaves no response box',
  async () => {
    const page = adminPage;
    await row(page)
      .getByRole('button', { name: /^View query/ })
      .click();
    const box = dialog(page);
    await box.getByRole('button', { name: 'Respond & Resolve' }).waitFor();
    assert(
      (await box.getByRole('button', { name: 'Reply & Mark In Progress' }).count()) === 0,
      '"Reply & Mark In Progress" shows for an in-progress query',
    );
    await box.getByRole('button', { name: 'Cancel' }).click();
    await box.waitFor({ state: 'hidden' });
    await replyWith(page, 'Respond & Resolve', SECOND_REPLY);
    await row(page).getByText('Resolved').waitFor();
    await row(page)
      .getByRole('button', { name: /^View query/ })
      .click();
    await box.getByText('View and respond to user query').waitFor();
    assert(
      (await box.getByRole('textbox', { name: 'Your Response' }).count()) === 0,
      'a resolved query still has a response box',
    );
    assert(
      (await box.getByRole('button', { name: /Resolve|In Progress/ }).count()) === 0,
      'reply buttons show',
    );
    await shot(page, 'query-dialog-resolved');
    await box.getByRole('button', { name: 'Cancel' }).click();
  },
  { page: adminPage },
);

await step(
  'the status filter narrows the list',
  async () => {
    const page = adminPage;
    const select = page.getByRole('textbox', { name: 'Status' });
    const listed = () =>
      page
        .locator('[data-testid="query-row"] [data-status]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
    /** Picks a filter and waits until only its status is listed (the previous page stays until then). */
    const pick = async (label, status) => {
      await select.click();
      await page.getByRole('option', { name: label }).click();
      const deadline = Date.now() + TIMEOUT;
      for (;;) {
        const statuses = await listed();
        if (statuses.every((s) => s === status)) return;
        assert(Date.now() < deadline, `the ${label} filter lists ${statuses}`);
        await page.waitForTimeout(200);
      }
    };
    await pick('Resolved', 'resolved');
    await row(page).waitFor();
    await pick('Pending', 'pending');
    assert((await row(page).count()) === 0, 'the resolved query is listed under Pending');
    await select.click();
    await page.getByRole('option', { name: 'All Queries' }).click();
    await row(page).waitFor();
  },
  { page: adminPage },
);

await step('both replies arrive in maildev at the visitor’s address', async () => {
  const first = await waitForMail({ to: VISITOR.email, text: FIRST_REPLY, timeoutMs: TIMEOUT });
  const second = await waitForMail({ to: VISITOR.email, text: SECOND_REPLY, timeoutMs: TIMEOUT });
  for (const mail of [first, second])
    assert(mail.subject === `Re: ${VISITOR.subject}`, `the mail's subject is "${mail.subject}"`);
  const all = await mailsTo(VISITOR.email);
  assert(all.length === 2, `${all.length} mails reached the visitor, not 2`);
});

await step(
  'the dashboard’s Queries card shows the total',
  async () => {
    const page = adminPage;
    await page.goto(`${BASE_URL}/admin/dashboard`);
    const counts = await page.evaluate(async () => {
      const res = await fetch('/api/admin/queries?pageSize=1', { credentials: 'include' });
      return res.json();
    });
    const figure = page.getByTestId('dashboard-queries-total');
    await figure.waitFor();
    const shown = Number((await figure.innerText()).replace(/,/g, ''));
    assert(shown >= counts.allCount && shown > 0, `the card shows ${shown}, the API ${counts.allCount}`);
    await shot(page, 'admin-dashboard');
  },
  { page: adminPage, independent: true },
);

/** The contact form and the inbox on a phone and on a dark desktop, in one colour scheme. */
async function screens(colorScheme) {
  const contexts = [];
  // A pending query too, so the dialog is seen with both reply buttons.
  state.pending ??= await fetch(`${BASE_URL}/api/contact`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: BASE_URL, 'X-Requested-With': 'quartermaster' },
    body: JSON.stringify({ ...VISITOR, fullName: 'Kabir Sethi', subject: `Invoice copy ${RUN}` }),
  }).then((res) => {
    assert(res.status === 201, `POST /api/contact answered ${res.status}`);
    return res.json();
  });
  try {
    for (const [width, height, suffix] of [
      [375, 812, 'mobile'],
      [1280, 900, 'desktop'],
    ]) {
      const phone = width === 375;
      // The desktop admin's session: signing in again would meet the per-IP sign-in limit that the
      // other journeys on the same stack share.
      const context = await newContext({
        viewport: { width, height },
        ...(phone ? { deviceScaleFactor: 2, isMobile: true } : {}),
        colorScheme,
        storageState: await admin.storageState(),
      });
      contexts.push(context);
      const page = await context.newPage();
      const fits = async (name) => {
        await page.waitForTimeout(300);
        assert((await overflow(page)) <= 0, `${name} is ${await overflow(page)}px too wide at ${width}px`);
        await shot(page, `${suffix}-${colorScheme}-${name}`, true);
      };
      await page.goto(`${BASE_URL}/contact`);
      await page.getByRole('button', { name: 'Send Message' }).waitFor();
      await fits('contact');
      await openQueries(page);
      if (phone) {
        await page.getByTestId('query-card').filter({ hasText: VISITOR.fullName }).first().waitFor();
        assert(
          !(await page.getByRole('table', { name: 'User queries' }).isVisible()),
          'the table shows at 375 px',
        );
      } else await row(page).waitFor();
      await fits('queries');
      const card = phone
        ? page.getByTestId('query-card').filter({ hasText: `Invoice copy ${RUN}` })
        : page.locator(`[data-testid="query-row"][data-query-id="${state.pending.id}"]`);
      await card.getByRole('button', { name: /^View query/ }).click();
      const box = dialog(page);
      await box.getByRole('textbox', { name: 'Your Response' }).fill('Attached to this mail.');
      await box.getByRole('button', { name: 'Respond & Resolve' }).waitFor();
      await page.waitForTimeout(300);
      const wide = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
      assert(wide <= 0, `the dialog is ${wide}px too wide at ${width}px`);
      await shot(page, `${suffix}-${colorScheme}-query-dialog`);
    }
  } finally {
    for (const context of contexts) await context.close();
  }
}

await step('375 and 1280 px, light: contact, queries and the dialog fit', () => screens('light'), {
  page: adminPage,
  independent: true,
});
await step('375 and 1280 px, dark: contact, queries and the dialog fit', () => screens('dark'), {
  page: adminPage,
  independent: true,
});

await browser.close();

done();
