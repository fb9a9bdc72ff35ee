#!/usr/bin/env node
// Code inside page.evaluate()/waitForFunction() runs in the browser:
/* global document, getComputedStyle, window */
// Browser journey of identity and access in headless Chromium, against the running stack.
//
//   BASE_URL=http://localhost:8080 MAILDEV_URL=http://localhost:1080 ADMIN_PASSWORD=... node e2e/identity.e2e.mjs
//
// register a unique user → its sign-in shows Account Under Review → the admin signs in at /admin and
// approves it on /admin/users (and rejects a second registration through the reason dialog) → the user
// signs in and lands on /wallet → edits the profile → changes the email (current password, code sent
// to the new address) → changes the password with the code read from
// maildev → signs out → resets the password through /forgot-password (code from maildev) → signs in
// with the new one. Also: the SQL Injector dialog, the admin-username note, Access Denied both ways
// (a user on /admin, the admin on /auth through "Sign in with SSO"), SSO for a user, the route guards,
// and the drawer at 375 px for a user and the admin.
//
// Screenshots go to e2e/artifacts/identity-*.png. Prints "identity: N passed, M failed"; exits non-zero
// on failure. Keycloak locks an account after two failed sign-ins within a second: this journey makes
// no deliberate failed Keycloak sign-in.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finish, launchBrowser, pageErrors } from './lib/browser.mjs';
import { codeIn, mailIds, waitForMail } from './lib/maildev.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const TIMEOUT = Number(process.env.IDENTITY_TIMEOUT_MS ?? 20_000);
// Notifications show one at a time (docs/product.md §9), 5 s each: a toast may wait behind the previous one.
const TOAST_TIMEOUT = TIMEOUT + 12_000;
// Development-server noise, not the application's (React Fast Refresh runtime wiring).
const IGNORED_PAGE_ERRORS = [/ReactRefreshRuntime/];

await mkdir(ARTIFACTS, { recursive: true });

const browser = await launchBrowser({ ignore: IGNORED_PAGE_ERRORS });

const results = [];
const stamp = Date.now().toString(36);
const user = {
  username: `idn_${stamp}`,
  email: `idn_${stamp}@example.test`,
  firstName: 'Meera',
  lastName: 'Iyer',
  phoneNumber: '+91 98765 43210',
  password: `Start#${stamp}1`,
  changedPassword: `Changed#${stamp}2`,
  resetPassword: `Reset#${stamp}3`,
};
const rejectee = {
  username: `idn_rej_${stamp}`,
  email: `idn_rej_${stamp}@example.test`,
  firstName: 'Vikram',
  lastName: 'Das',
  password: `Reject#${stamp}1`,
};

/** A field's label, with or without the required marker (" *"). */
const label = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const shot = (page, name, fullPage = false) =>
  page.screenshot({ path: path.join(ARTIFACTS, `identity-${name}.png`), fullPage, animations: 'disabled' });

/** A browser context with its own cookies; pages record their errors. */
async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  context.setDefaultTimeout(TIMEOUT);
  // Against the dev servers: their error overlay (for the ignored Fast Refresh error) would cover the page.
  await context.addInitScript(() => {
    const style = document.createElement('style');
    style.textContent = '#webpack-dev-server-client-overlay { display: none !important; }';
    document.addEventListener('DOMContentLoaded', () => document.head.appendChild(style));
  });
  return context;
}

/** Runs one check and records it; a failed check leaves a screenshot of the page it was on. */
async function check(name, page, fn) {
  const started = Date.now();
  const errorsBefore = pageErrors.length;
  try {
    await fn(page);
    const newErrors = pageErrors.slice(errorsBefore);
    assert(newErrors.length === 0, `page error: ${newErrors[0]}`);
    results.push({ name, ok: true });
    console.log(`ok   - ${name} (${Date.now() - started} ms)`);
    return true;
  } catch (error) {
    results.push({ name, ok: false });
    const lines = error instanceof Error ? error.message.split('\n') : [String(error)];
    console.log(`FAIL - ${name}: ${lines[0]}`);
    // Playwright's call log says what the locator waited for (e.g. another element taking the click).
    for (const line of lines
      .slice(1)
      .filter((l) => l.trim())
      .slice(-4))
      console.log(`       ${line.trim()}`);
    await page
      .screenshot({ path: path.join(ARTIFACTS, `failed-identity-${name.replace(/\W+/g, '-')}.png`) })
      .catch(() => {});
    return false;
  }
}

/**
 * page.goto that waits out a restarting gateway (the dev stack restarts it when its code changes): a
 * refused connection is retried for a while.
 */
async function visit(page, url) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    try {
      return await page.goto(url);
    } catch (error) {
      if (
        !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ECONNREFUSED/.test(String(error)) ||
        Date.now() > deadline
      )
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** A toast with this title (and message, if given) shows up. */
async function toast(page, title, message) {
  const alert = page.getByRole('alert').filter({ hasText: title });
  await alert.first().waitFor({ state: 'visible', timeout: TOAST_TIMEOUT });
  if (message) await alert.filter({ hasText: message }).first().waitFor({ state: 'visible' });
}

async function waitForPath(page, pathname) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: TIMEOUT });
}

// ---- screens --------------------------------------------------------------------------------------

async function openAuth(page, query = '') {
  await visit(page, `${BASE_URL}/auth${query}`);
  await page
    .getByRole('heading', { name: query.includes('register') ? 'Create Account' : 'Welcome Back' })
    .waitFor();
}

async function signInAtAuth(page, username, password) {
  await openAuth(page);
  await page.getByLabel(label('Username')).fill(username);
  await page.getByLabel(label('Password')).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function signInAtAdmin(page, username, password) {
  await visit(page, `${BASE_URL}/admin`);
  await page.getByRole('heading', { name: 'System Admin Login' }).waitFor();
  await page.getByLabel(label('Admin Username')).fill(username);
  await page.getByLabel(label('Password')).fill(password);
  await page.getByRole('button', { name: 'Sign In to Admin Portal' }).click();
}

/** "Sign in with SSO" through Keycloak's own sign-in page. */
async function signInWithSso(page, username, password) {
  await openAuth(page);
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.waitForURL((url) => url.port === '8081' || url.pathname.includes('/realms/'), {
    timeout: TIMEOUT,
  });
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
}

// ==================================================================================================

const visitor = await newContext();
const userPage = await visitor.newPage();

await check(
  'SQL-like password opens "Hey SQL Injector"; Back to Login resets the form',
  userPage,
  async (page) => {
    await openAuth(page);
    await page.getByLabel(label('Username')).fill('mallory');
    await page.getByLabel(label('Password')).fill("' OR '1'='1' --");
    // By keyboard: Enter submits, the dialog takes the focus, Enter on its button goes back.
    await page.getByLabel(label('Password')).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Hey SQL Injector' });
    await dialog.waitFor();
    await shot(page, 'sql-injector');
    const back = dialog.getByRole('button', { name: 'Back to Login' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Back to Login');
    assert(
      await back.evaluate((element) => element === document.activeElement),
      'focus is not in the dialog',
    );
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    assert((await page.getByLabel(label('Username')).inputValue()) === '', 'username not reset');
    assert((await page.getByLabel(label('Password')).inputValue()) === '', 'password not reset');
  },
);

await check(
  'typing admin on /auth shows the moved-login note and disables Sign In',
  userPage,
  async (page) => {
    await openAuth(page);
    await page.getByLabel(label('Username')).fill('admin');
    await page.getByText('Admin login has moved').waitFor();
    const link = page.getByRole('link', { name: 'Go to the admin login' });
    assert((await link.getAttribute('href')) === '/admin', 'note link does not go to /admin');
    assert(await page.getByRole('button', { name: 'Sign In', exact: true }).isDisabled(), 'Sign In enabled');
    assert(
      (await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')) ===
        '/forgot-password',
      'Forgot password link',
    );
    assert(
      (await page.getByRole('link', { name: 'Login as Admin' }).getAttribute('href')) === '/admin',
      'Login as Admin link',
    );
    await shot(page, 'admin-note');
  },
);

await check('the admin signing in on /auth gets Access Denied', userPage, async (page) => {
  // "admin" as typed disables Sign In (the note above); another letter case reaches the server, which
  // refuses the administrator on /auth.
  await signInAtAuth(page, 'ADMIN', ADMIN_PASSWORD);
  const dialog = page.getByRole('dialog', { name: 'Access Denied' });
  await dialog.waitFor();
  await dialog.getByText('Please use the admin portal').waitFor();
  assert(
    (await dialog.getByRole('link', { name: 'Go to Admin Login' }).getAttribute('href')) === '/admin',
    'Access Denied does not lead to /admin',
  );
  await shot(page, 'access-denied-auth');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert(new URL(page.url()).pathname === '/auth', 'left /auth');
  const me = await page.request.get(`${BASE_URL}/api/user`);
  assert(me.status() === 401, `GET /api/user after refusal: HTTP ${me.status()}`);
});

await check('guards: anonymous /profile goes to /auth, /admin/users goes to /', userPage, async (page) => {
  await visit(page, `${BASE_URL}/profile`);
  await waitForPath(page, '/auth');
  await visit(page, `${BASE_URL}/admin/users`);
  await waitForPath(page, '/');
});

await check('registration: live username note, 6 s toast, back to sign-in', userPage, async (page) => {
  await openAuth(page, '?tab=register');
  const note = page.getByTestId('username-note');
  await page.getByLabel(label('Username')).fill('admin');
  await page.getByLabel(label('Password')).click();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await page.getByText('This username is reserved').waitFor();

  // A failed check says so (and counts as unavailable).
  await page.route('**/api/check-username/broken_check', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  await page.getByLabel(label('Username')).fill('broken_check');
  await note.filter({ hasText: 'Error checking username' }).waitFor();

  await page.getByLabel(label('Username')).fill(user.username);
  await note.filter({ hasText: 'Checking username...' }).waitFor();
  await note.filter({ hasText: 'Username is available' }).waitFor();
  await page.getByLabel(label('Password')).fill(user.password);
  await page.getByLabel(label('Confirm Password')).fill(`${user.password}x`);
  await page.getByLabel(label('Email')).fill(user.email);
  await page.getByLabel(label('First Name')).fill(user.firstName);
  await page.getByLabel(label('Last Name')).fill(user.lastName);
  await page.getByLabel(label('Phone Number')).fill(user.phoneNumber);
  assert(await page.getByRole('radio', { name: 'Army' }).isChecked(), 'role does not default to Army');
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await page.getByText("Passwords don't match").waitFor();
  await page.getByLabel(label('Confirm Password')).fill(user.password);
  await shot(page, 'register-form', true);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await toast(page, 'Registration successful', 'submitted for approval');
  const shownAt = Date.now();
  // Back in sign-in mode with the new username filled in (the reading chosen for registration).
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  assert((await page.getByLabel(label('Username')).inputValue()) === user.username, 'username not prefilled');
  await shot(page, 'registered');
  // The toast stays about 6 s (the library default is 5 s).
  await page.waitForTimeout(Math.max(0, 5_400 - (Date.now() - shownAt)));
  assert(
    await page.getByRole('alert').filter({ hasText: 'Registration successful' }).isVisible(),
    'registration toast gone before 6 s',
  );
  await page
    .getByRole('alert')
    .filter({ hasText: 'Registration successful' })
    .waitFor({ state: 'hidden', timeout: 4_000 });

  // The same name in another letter case is taken.
  await openAuth(page, '?tab=register');
  await page.getByLabel(label('Username')).fill(user.username.toUpperCase());
  await note.filter({ hasText: 'Username is already taken' }).waitFor();
  assert(
    await page.getByRole('button', { name: 'Register', exact: true }).isDisabled(),
    'Register enabled for a taken name',
  );
});

await check('a pending account signing in sees Account Under Review', userPage, async (page) => {
  await signInAtAuth(page, user.username, user.password);
  const dialog = page.getByRole('dialog', { name: 'Account Under Review' });
  await dialog.waitFor();
  for (const text of [
    'pending administrative approval',
    '2-3 business days',
    'What happens next?',
    'Our team will review your application',
    'You will receive an email once your account is approved',
    'After approval, you can log in and use the platform',
    'regular updates to your registered email',
  ]) {
    await dialog.getByText(text).first().waitFor();
  }
  assert(
    (await dialog.getByRole('link', { name: 'Contact Support' }).getAttribute('href')) === '/contact',
    'Contact Support does not go to /contact',
  );
  await shot(page, 'under-review');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert(new URL(page.url()).pathname === '/auth', 'left /auth');
});

// A second registration, to be rejected (through the API, like any client).
const registered = await visitor.request
  .post(`${BASE_URL}/api/register`, {
    headers: { Origin: BASE_URL, 'X-Requested-With': 'quartermaster' },
    data: { ...rejectee, confirmPassword: rejectee.password, phoneNumber: '', role: 'Manufacturer' },
  })
  .then((res) => ({ ok: () => res.ok(), status: () => res.status() }))
  .catch((error) => ({ ok: () => false, status: () => error.message.split('\n')[0] }));
if (!registered.ok()) console.log(`note - second registration: ${registered.status()}`);

const adminContext = await newContext();
const adminPage = await adminContext.newPage();

await check('the admin signs in at /admin and lands on /admin/dashboard', adminPage, async (page) => {
  await signInAtAdmin(page, 'admin', ADMIN_PASSWORD);
  await waitForPath(page, '/admin/dashboard');
  await toast(page, 'Login successful', 'Welcome back!');
  await page.getByRole('button', { name: 'Admin', exact: true }).waitFor();
  await shot(page, 'admin-dashboard');
  // Already an admin: /admin goes straight to the dashboard.
  await visit(page, `${BASE_URL}/admin`);
  await waitForPath(page, '/admin/dashboard');
});

await check('the admin rejects with a reason and approves on /admin/users', adminPage, async (page) => {
  await page.getByRole('button', { name: 'Admin', exact: true }).click();
  await page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Users' }).click();
  await waitForPath(page, '/admin/users');
  await page.getByRole('heading', { name: 'User Management' }).waitFor();
  for (const column of ['Username', 'Full Name', 'Email', 'Role', 'Status', 'Actions']) {
    await page.getByRole('columnheader', { name: column }).waitFor();
  }
  const row = page.getByTestId(`user-row-${user.username}`);
  await row.waitFor();
  assert(
    (await page
      .getByTestId('user-row-admin')
      .getByRole('button', { name: /^(Approve|Reject) / })
      .count()) === 0,
    'admin row has actions',
  );

  if (registered.ok()) {
    const rejectRow = page.getByTestId(`user-row-${rejectee.username}`);
    await rejectRow.getByRole('button', { name: `Reject ${rejectee.username}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject User' });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Confirm Rejection' });
    assert(await confirm.isDisabled(), 'Confirm Rejection enabled without a reason');
    await dialog.getByLabel(label('Reason for rejection')).fill('   ');
    assert(await confirm.isDisabled(), 'Confirm Rejection enabled for a blank reason');
    await dialog.getByLabel(label('Reason for rejection')).fill('License documents could not be verified');
    assert(await confirm.isEnabled(), 'Confirm Rejection disabled with a reason');
    await shot(page, 'reject-dialog');
    await confirm.click();
    await toast(page, 'Success', 'User status has been updated');
    await rejectRow.getByText('rejected', { exact: true }).waitFor();
  }

  await shot(page, 'users-before-approval');
  await row.getByRole('button', { name: `Approve ${user.username}` }).click();
  await toast(page, 'Success', 'User status has been updated');
  await row.getByText('approved', { exact: true }).waitFor();
  // The username stays a button (it opens the user's details); the decisions are gone.
  assert(
    (await row.getByRole('button', { name: /^(Approve|Reject) / }).count()) === 0,
    'approved user still has actions',
  );
  await shot(page, 'users-approved');
});

await check(
  'admin drawer at 375 px: "Admin Dashboard", "Logged in as Administrator"',
  adminPage,
  async (page) => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await visit(page, `${BASE_URL}/admin/users`);
      await page.getByRole('heading', { name: 'User Management' }).waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = page.getByRole('dialog', { name: 'Admin Dashboard' });
      await drawer.waitFor();
      await drawer.getByText('Logged in as Administrator').waitFor();
      await page.waitForTimeout(400);
      await shot(page, 'admin-drawer-375');
      await drawer.getByRole('link', { name: 'Activity Log' }).click();
      await waitForPath(page, '/admin/user-activities');
      await drawer.waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  },
);

await check('a rejected account signing in sees Account Rejected', userPage, async (page) => {
  assert(registered.ok(), 'second registration failed');
  await signInAtAuth(page, rejectee.username, rejectee.password);
  const dialog = page.getByRole('dialog', { name: 'Account Rejected' });
  await dialog.waitFor();
  await dialog.getByText('License documents could not be verified').waitFor();
  await dialog.getByRole('link', { name: 'Contact Support' }).waitFor();
  await shot(page, 'rejected');
  await dialog.getByRole('button', { name: 'Close' }).click();
});

await check('a user signing in at /admin gets Access Denied', userPage, async (page) => {
  await signInAtAdmin(page, user.username, user.password);
  const dialog = page.getByRole('dialog', { name: 'Access Denied' });
  await dialog.waitFor();
  await dialog
    .getByText('Normal user logins are not allowed in the admin portal. Please use the regular login page.')
    .waitFor();
  await shot(page, 'access-denied-admin-portal');
  await dialog.getByRole('button', { name: 'Close' }).click();
  assert(new URL(page.url()).pathname === '/admin', 'left /admin');
  // Nobody was signed in by that attempt.
  const me = await page.request.get(`${BASE_URL}/api/user`);
  assert(me.status() === 401, `GET /api/user after refusal: HTTP ${me.status()}`);
});

await check('the approved user signs in and lands on /wallet', userPage, async (page) => {
  await signInAtAuth(page, user.username, user.password);
  await waitForPath(page, '/wallet');
  await toast(page, 'Login successful', 'Welcome back!');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menu').getByText(user.username).first().waitFor();
  await page.getByRole('menuitem', { name: 'Sign Out' }).waitFor();
  await shot(page, 'user-menu');
  await page.keyboard.press('Escape');
  // Signed in: /auth goes to /, and / goes to /wallet; admin pages send a user away.
  await visit(page, `${BASE_URL}/auth`);
  await waitForPath(page, '/wallet');
  await visit(page, `${BASE_URL}/admin/users`);
  await page.getByText('Loading admin dashboard...').waitFor({ state: 'detached' });
  await waitForPath(page, '/wallet');
});

await check(
  'user drawer at 375 px: "Logged in as", username, Home; closes on navigation',
  userPage,
  async (page) => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      // A fresh page: no redirect still under way that would close the drawer again.
      await visit(page, `${BASE_URL}/wallet`);
      await page.getByRole('heading', { name: 'Wallet', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = page.getByRole('dialog', { name: 'Menu' });
      await drawer.getByText('Logged in as', { exact: true }).waitFor();
      await drawer.getByText(user.username).waitFor();
      await drawer.getByRole('link', { name: 'Home' }).waitFor();
      await page.waitForTimeout(400);
      await shot(page, 'user-drawer-375');
      await drawer.getByRole('link', { name: 'Profile' }).click();
      await waitForPath(page, '/profile');
      await drawer.waitFor({ state: 'hidden' });
      await shot(page, 'profile-375', true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  },
);

await check('the user edits the profile', userPage, async (page) => {
  await visit(page, `${BASE_URL}/profile`);
  await page.getByRole('tab', { name: 'Profile Information' }).waitFor();
  await page.getByRole('tab', { name: 'Security Settings' }).waitFor();
  assert((await page.getByLabel(label('License Number')).count()) === 0, 'an Army user sees License Number');
  assert(
    (await page.getByLabel(label('First Name')).inputValue()) === user.firstName,
    'first name not loaded',
  );
  await page.getByLabel(label('Address')).fill('14 Cantonment Road, Pune');
  await page.getByLabel(label('Bio')).fill('Logistics officer, Southern Command.');
  await page.getByLabel(label('Last Name')).fill('Iyer-Rao');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, 'Profile updated');
  await shot(page, 'profile-saved', true);
  await page.reload();
  await page.getByRole('tab', { name: 'Profile Information' }).waitFor();
  assert(
    (await page.getByLabel(label('Address')).inputValue()) === '14 Cantonment Road, Pune',
    'address not saved',
  );
  assert((await page.getByLabel(label('Last Name')).inputValue()) === 'Iyer-Rao', 'last name not saved');
});

await check(
  'the user changes the email with the password and the code sent to the new address',
  userPage,
  async (page) => {
    const newEmail = `idn_${stamp}.new@example.test`;
    await visit(page, `${BASE_URL}/profile`);
    await page.getByRole('tab', { name: 'Profile Information' }).waitFor();
    const seen = await mailIds();
    await page.getByLabel(label('Email')).fill(newEmail);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change email' });
    await dialog.waitFor();
    await dialog.getByLabel(label('Current Password')).fill(user.password);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByText(`We sent a code to ${newEmail}. Enter it to confirm your new email.`).waitFor();
    await waitForMail({ to: user.email, subject: 'Your Quartermaster email is about to change', seen });
    // Nothing changed before the code is confirmed.
    const before = await (await page.request.get(`${BASE_URL}/api/user`)).json();
    assert(before.email === user.email, `email changed before confirmation: ${before.email}`);
    const code = await codeIn({
      to: newEmail,
      subject: 'Your Quartermaster email confirmation code',
      seen,
    });
    await dialog.getByPlaceholder('Enter 6-digit code').fill(code);
    await shot(page, 'email-change-code');
    await dialog.getByRole('button', { name: 'Confirm email' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await toast(page, 'Email changed', 'Your email address has been changed');
    await waitForMail({ to: user.email, subject: 'Your Quartermaster email was changed', seen });
    const after = await (await page.request.get(`${BASE_URL}/api/user`)).json();
    assert(after.email === newEmail, `email after confirmation: ${after.email}`);
    // The journey continues with the new address (the password change code goes there).
    user.email = newEmail;
  },
);

await check('the user changes the password with the code from maildev', userPage, async (page) => {
  await visit(page, `${BASE_URL}/profile`);
  await page.getByRole('tab', { name: 'Security Settings' }).click();
  const seen = await mailIds();
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Password' });
  await dialog.waitFor();
  const codeInput = dialog.getByPlaceholder('Enter 6-digit code');
  await codeInput.waitFor();
  await toast(page, 'OTP Sent', 'Please check your email for the OTP');
  const resend = dialog.getByRole('button', { name: /Resend OTP/ });
  await resend.filter({ hasText: /Resend OTP in 00:(2\d|30)/ }).waitFor();
  assert(await resend.isDisabled(), 'Resend OTP enabled right after a send');
  await shot(page, 'change-password-otp');
  // The countdown runs (mm:ss).
  await resend.filter({ hasText: /Resend OTP in 00:2[0-8]/ }).waitFor();
  const code = await codeIn({ to: user.email, subject: 'Your Quartermaster password change code', seen });
  await codeInput.fill(code);
  await dialog.getByRole('button', { name: 'Verify OTP' }).click();
  await dialog.getByLabel(label('Current Password')).waitFor();
  await dialog.getByLabel(label('Current Password')).fill(user.password);
  await dialog.getByLabel(label('New Password')).fill(user.changedPassword);
  await dialog.getByLabel(label('Confirm New Password')).fill(user.changedPassword);
  await dialog.getByRole('button', { name: 'Change Password' }).click();
  await dialog.getByText('Password Changed').waitFor();
  await shot(page, 'password-changed');
  const shownAt = Date.now();
  await dialog.waitFor({ state: 'hidden', timeout: 6_000 });
  const closedAfter = Date.now() - shownAt;
  assert(closedAfter > 2_000, `success step closed after ${closedAfter} ms, expected about 3 s`);
  await toast(page, 'Success', 'Your password has been changed successfully.');
  await waitForMail({ to: user.email, subject: 'Your Quartermaster password was changed', seen });

  // Reopening starts again at step 1.
  await page.getByRole('button', { name: 'Change Password' }).click();
  await dialog.getByPlaceholder('Enter 6-digit code').waitFor();
  await shot(page, 'change-password-reopened');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
});

await check('the user signs out', userPage, async (page) => {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await waitForPath(page, '/auth');
  await toast(page, 'Logged out', 'You have been successfully logged out');
  const me = await page.request.get(`${BASE_URL}/api/user`);
  assert(me.status() === 401, `GET /api/user after sign-out: HTTP ${me.status()}`);
});

await check('the user resets the password through /forgot-password', userPage, async (page) => {
  await openAuth(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await waitForPath(page, '/forgot-password');
  await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
  await page.getByRole('link', { name: 'Sign in', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await page.getByText('Email or username is required').waitFor();
  const seen = await mailIds();
  await page.getByLabel(label('Email or Username')).fill(user.username);
  await page.getByRole('button', { name: 'Send OTP' }).click();
  await toast(page, 'OTP Sent', 'Please check your email for the OTP');
  await page.getByRole('heading', { name: 'Verify OTP' }).waitFor();
  const code = await codeIn({ to: user.email, subject: 'Your Quartermaster password reset code', seen });
  // A wrong code first (codes are 6 digits; this one differs from the real one).
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel(label('OTP')).fill(wrong);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await toast(page, 'Invalid OTP');
  await page.getByRole('button', { name: 'Back' }).waitFor();
  await page.getByRole('button', { name: /Resend OTP/ }).waitFor();
  await shot(page, 'forgot-verify');
  await page.getByLabel(label('OTP')).fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await toast(page, 'OTP Verified', 'Please set your new password');
  await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
  await page.getByLabel(label('New Password')).fill(user.resetPassword);
  await page.getByLabel(label('Confirm New Password')).fill(`${user.resetPassword}x`);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByText("Passwords don't match").waitFor();
  await page.getByLabel(label('Confirm New Password')).fill(user.resetPassword);
  await shot(page, 'forgot-reset');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await waitForPath(page, '/auth');
  await toast(page, 'Password Reset Successfully', 'You can now login with your new password');
});

await check('the user signs in with the new password', userPage, async (page) => {
  await signInAtAuth(page, user.username, user.resetPassword);
  await waitForPath(page, '/wallet');
  await toast(page, 'Login successful', 'Welcome back!');
  await shot(page, 'signed-in-again');
});

/**
 * keycloak-js exchanges the code with Keycloak from the page, so the page's Content-Security-Policy must
 * allow connecting to Keycloak. Returns why SSO cannot work here, if it cannot.
 */
async function ssoBlocker() {
  const config = await fetch(`${BASE_URL}/api/auth/config`).then((res) => (res.ok ? res.json() : null));
  if (!config?.url) return 'GET /api/auth/config gives no Keycloak URL';
  const keycloak = new URL(config.url).origin;
  const csp = (await fetch(`${BASE_URL}/auth`)).headers.get('content-security-policy') ?? '';
  const directive = (name) => new RegExp(`(?:^|;)\\s*${name}([^;]*)`).exec(csp)?.[1]?.trim().split(/\s+/);
  const connect = directive('connect-src') ?? directive('default-src');
  if (!connect) return undefined;
  const allowed = connect.some((source) => source === '*' || source.replace(/\/$/, '') === keycloak);
  return allowed ? undefined : `the page's CSP connect-src (${connect.join(' ')}) does not allow ${keycloak}`;
}

const ssoBlocked = await ssoBlocker().catch((error) => `cannot check: ${error.message}`);
if (ssoBlocked) {
  console.log(`skip - "Sign in with SSO" checks: ${ssoBlocked}`);
} else {
  // Keycloak's sign-in page is ours (the realm's loginTheme, k8s/keycloak/themes/quartermaster).
  for (const [width, scheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [375, 'light'],
    [375, 'dark'],
  ]) {
    const themeContext = await newContext({
      viewport: { width, height: width < 768 ? 812 : 900 },
      colorScheme: scheme,
    });
    const themePage = await themeContext.newPage();
    await check(
      `Keycloak's sign-in page wears the Quartermaster theme (${width} px, ${scheme}): stylesheet, logo, colours`,
      themePage,
      async (page) => {
        await openAuth(page);
        await page.getByRole('button', { name: 'Sign in with SSO' }).click();
        await page.locator('#username').waitFor();
        // The stylesheets load, and the theme's script picks the colour scheme, after the form is drawn.
        await page
          .waitForFunction(
            (dark) => {
              const header = document.querySelector('#kc-header-wrapper');
              return (
                document.readyState === 'complete' &&
                header !== null &&
                getComputedStyle(header, '::before').backgroundImage !== 'none' &&
                document.documentElement.classList.contains('pf-v5-theme-dark') === dark
              );
            },
            scheme === 'dark',
            { timeout: 10_000 },
          )
          .catch(() => undefined); // what is still missing is reported below
        const seen = await page.evaluate(() => {
          const header = document.querySelector('#kc-header-wrapper');
          const button = document.querySelector('#kc-login');
          return {
            sheet: [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) =>
              /\/login\/quartermaster\/css\/quartermaster\.css$/.test(l.href),
            ),
            logo: header ? getComputedStyle(header, '::before').backgroundImage : '',
            name: header?.textContent?.trim(),
            dark: document.documentElement.classList.contains('pf-v5-theme-dark'),
            page: getComputedStyle(document.body).backgroundColor,
            button: button ? getComputedStyle(button).backgroundColor : '',
          };
        });
        assert(seen.sheet, "the page does not load the Quartermaster theme's stylesheet");
        assert(
          /\/login\/quartermaster\/img\/logo\.svg/.test(seen.logo),
          `no Quartermaster logo: ${seen.logo}`,
        );
        assert(seen.name === 'Quartermaster', `the header names ${seen.name}`);
        assert(seen.dark === (scheme === 'dark'), `dark variant ${seen.dark} in the ${scheme} scheme`);
        const want = scheme === 'dark' ? 'rgb(26, 27, 30)' : 'rgb(243, 247, 238)';
        assert(seen.page === want, `the page is ${seen.page}, not ${want}`);
        assert(seen.button === 'rgb(90, 123, 41)', `Sign In is ${seen.button}, not the army green`);
        await shot(page, `keycloak-${width}-${scheme}`);
      },
    );
    await themeContext.close();
  }

  const ssoAdminContext = await newContext();
  const ssoAdminPage = await ssoAdminContext.newPage();
  await check('the admin signing in on /auth (with SSO) gets Access Denied', ssoAdminPage, async (page) => {
    await signInWithSso(page, 'admin', ADMIN_PASSWORD);
    const dialog = page.getByRole('dialog', { name: 'Access Denied' });
    await dialog.waitFor();
    await dialog.getByRole('link', { name: 'Go to Admin Login' }).waitFor();
    await shot(page, 'sso-access-denied-auth');
    assert(new URL(page.url()).pathname === '/auth', 'left /auth');
    const me = await page.request.get(`${BASE_URL}/api/user`);
    assert(me.status() === 401, `GET /api/user after refusal: HTTP ${me.status()}`);
  });

  const ssoUserContext = await newContext();
  const ssoUserPage = await ssoUserContext.newPage();
  await check('"Sign in with SSO" gives an approved user the same session', ssoUserPage, async (page) => {
    await signInWithSso(page, user.username, user.resetPassword);
    await waitForPath(page, '/wallet');
    await toast(page, 'Login successful', 'Welcome back!');
    const me = await page.request.get(`${BASE_URL}/api/user`);
    assert(me.ok(), `GET /api/user after SSO: HTTP ${me.status()}`);
    assert((await me.json()).username === user.username, 'SSO session belongs to someone else');
    // No token is left in the browser.
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...window.localStorage, ...window.sessionStorage }),
    );
    assert(!/eyJ[\w-]{20,}\./.test(stored), 'a token was left in web storage');
    await shot(page, 'sso-signed-in');
  });
}

await browser.close();

finish('identity', results);
