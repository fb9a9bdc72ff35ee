import { IDENTITY_MESSAGES } from '@qm/contracts/rest';
import { OTP_MAX_ATTEMPTS, OTP_MESSAGES } from '@qm/platform';
import { eventually } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  Browser,
  deleteMailsTo,
  latestCode,
  type Registered,
  registerUser,
  type Stack,
  startIdentityStack,
} from '@qm/testkit/src/identity-stack';
import { mailsTo, waitForMail } from '@qm/testkit/src/maildev';

/**
 * Security: attempt limits that hold under concurrency, the email change step-up, sessions ended
 * on deletion, and reset requests that do not tell which accounts exist. Through the real gateway
 * (its session cache on, as in production) and the real identity service.
 */
describe('identity under attack', () => {
  let stack: Stack;
  let admin: Browser;
  const emails: string[] = [];

  beforeAll(async () => {
    stack = await startIdentityStack({
      cacheMs: 5_000,
      // The per-address limit would stop a burst of 100 first, and the gateway's admission control
      // (docs/adr/026) would let only 8 at a time through; these tests are about the code's own limit,
      // so all 100 reach it at once.
      gateway: { AUTH_RATE_LIMIT_SCALE: '100', ADMISSION_MAX_IN_FLIGHT: '1000' },
    });
    admin = new Browser(stack.url);
    expect((await admin.login('admin', ADMIN_PASSWORD, 'admin')).status).toBe(200);
  });
  afterAll(async () => {
    await deleteMailsTo(emails).catch(() => undefined);
    await stack?.stop();
  });

  const user = async (prefix: string): Promise<Registered> => {
    const u = await registerUser(stack, prefix, 'Army', admin);
    emails.push(u.email);
    return u;
  };
  const wrongCodeFor = (right: string, i: number) => {
    const guess = String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
    return guess;
  };

  /**
   * 100 guesses sent at once, the right code 80th. At most OTP_MAX_ATTEMPTS may have been compared:
   * each compared wrong guess reserved its own attempt, so its "N attempts left" is unique; every
   * other answer is the lock, the right code's too.
   */
  function expectAtMostFiveCompared(answers: { status: number; body: { message?: string } }[]) {
    const messages = answers.map((a) => a.body?.message ?? '');
    const accepted = answers.filter((a) => a.status === 200);
    const wrong = messages.filter((m) => /^Invalid OTP\. \d attempts? left\.$/.test(m));
    const locked = answers.filter((a) => a.status === 429 && a.body?.message === OTP_MESSAGES.locked);
    expect(accepted).toEqual([]);
    expect(new Set(wrong).size).toBe(wrong.length);
    expect(wrong.length).toBeLessThanOrEqual(OTP_MAX_ATTEMPTS - 1);
    expect(wrong.length + locked.length).toBe(answers.length);
    expect(answers.length - locked.length).toBeLessThanOrEqual(OTP_MAX_ATTEMPTS);
  }

  const otpDoc = (userId: number, purpose: string) =>
    stack.identity.rt.conn.collection('otps').findOne({ userId, purpose });

  it('reset code: 100 parallel guesses compare at most 5, and the right one is refused after them', async () => {
    const u = await user('BurstReset');
    const anon = new Browser(stack.url);
    const t = Date.now() - 1000;
    expect((await anon.post('/api/request-password-reset', { emailOrUsername: u.username })).status).toBe(
      200,
    );
    const code = await latestCode(u.email, /reset code/, t);

    const guesses = Array.from({ length: 100 }, (_, i) => (i === 79 ? code : wrongCodeFor(code, i)));
    const answers = await Promise.all(
      guesses.map((otp) =>
        new Browser(stack.url).post('/api/verify-password-reset-otp', { emailOrUsername: u.username, otp }),
      ),
    );
    expectAtMostFiveCompared(answers);
    expect((await otpDoc(u.id, 'reset'))?.attempts).toBe(OTP_MAX_ATTEMPTS);

    const late = await anon.post('/api/verify-password-reset-otp', {
      emailOrUsername: u.username,
      otp: code,
    });
    expect([late.status, late.body.message]).toEqual([429, OTP_MESSAGES.locked]);
    const reset = await anon.post('/api/reset-password', {
      emailOrUsername: u.username,
      password: 'Taken#Over1',
      confirmPassword: 'Taken#Over1',
    });
    expect(reset.status).toBe(409);
  });

  it('password-change code: 100 parallel guesses compare at most 5, and the right one is refused after them', async () => {
    const u = await user('BurstChange');
    const b = new Browser(stack.url);
    expect((await b.login(u.username, u.password)).status).toBe(200);
    const t = Date.now() - 1000;
    expect((await b.post('/api/user/request-password-change-otp')).status).toBe(200);
    const code = await latestCode(u.email, /change code/, t);

    const guesses = Array.from({ length: 100 }, (_, i) => (i === 79 ? code : wrongCodeFor(code, i)));
    const answers = await Promise.all(guesses.map((otp) => b.post('/api/user/verify-password-otp', { otp })));
    expectAtMostFiveCompared(answers);

    const late = await b.post('/api/user/verify-password-otp', {
      otp: code,
      currentPassword: u.password,
      newPassword: 'Taken#Over2',
    });
    expect([late.status, late.body.message]).toEqual([429, OTP_MESSAGES.locked]);
  });

  it('a right code costs no attempt: the change flow checks it twice after four wrong ones', async () => {
    const u = await user('RightFree');
    const b = new Browser(stack.url);
    expect((await b.login(u.username, u.password)).status).toBe(200);
    const t = Date.now() - 1000;
    await b.post('/api/user/request-password-change-otp');
    const code = await latestCode(u.email, /change code/, t);
    for (let i = 0; i < OTP_MAX_ATTEMPTS - 1; i++)
      expect((await b.post('/api/user/verify-password-otp', { otp: wrongCodeFor(code, i) })).status).toBe(
        400,
      );
    expect((await b.post('/api/user/verify-password-otp', { otp: code })).status).toBe(200);
    const changed = await b.post('/api/user/verify-password-otp', {
      otp: code,
      currentPassword: u.password,
      newPassword: 'Fresh#Pass3',
    });
    expect(changed.body).toEqual({ changed: true, message: IDENTITY_MESSAGES.passwordChanged });
  });

  it('a user the administrator deletes is refused at the next call, within a second', async () => {
    const u = await user('Deleted');
    const b = new Browser(stack.url);
    expect((await b.login(u.username, u.password)).status).toBe(200);
    // The session is in the gateway's 5 s cache now.
    expect((await b.get('/api/user')).status).toBe(200);

    // A call that does not look the user up (GET /api/user would end the session on "User not found").
    const report = () =>
      b.post('/api/user/activity', { action: 'profile_view', details: 'Viewed profile page' });
    expect((await report()).status).toBe(200);

    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(200);
    const deletedAt = Date.now();
    await eventually(async () => (await report()).status === 401, 1_000);
    expect(Date.now() - deletedAt).toBeLessThan(1_000);
  });

  describe('email change (a stolen session must not redirect the account mail)', () => {
    it('PATCH cannot change the address; the change needs the password and the code sent to the new address', async () => {
      const u = await user('EmailStep');
      const b = new Browser(stack.url);
      expect((await b.login(u.username, u.password)).status).toBe(200);
      const attacker = `attacker.${u.email}`;
      emails.push(attacker);

      // The takeover chain's first step, refused.
      const patched = await b.patch('/api/user/profile', { email: attacker, firstName: 'Still' });
      expect([patched.status, patched.body.message]).toEqual([
        400,
        IDENTITY_MESSAGES.emailChangeNeedsConfirmation,
      ]);
      expect((await b.get('/api/user')).body).toMatchObject({ email: u.email, firstName: 'Gate' });
      // Other fields, and the same address in another letter case, change as before.
      const renamed = await b.patch('/api/user/profile', {
        firstName: 'Renamed',
        email: u.email.toUpperCase(),
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.firstName).toBe('Renamed');

      const t = Date.now() - 1000;
      const noPassword = await b.post('/api/user/email-change', { newEmail: attacker });
      expect(noPassword.status).toBe(400);
      const wrongPassword = await b.post('/api/user/email-change', {
        newEmail: attacker,
        currentPassword: 'Guess#1234',
      });
      expect([wrongPassword.status, wrongPassword.body.message]).toEqual([
        400,
        IDENTITY_MESSAGES.currentPasswordIncorrect,
      ]);
      expect(await mailsTo(attacker)).toEqual([]);

      const asked = await b.post('/api/user/email-change', {
        newEmail: attacker,
        currentPassword: u.password,
      });
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual({
        message: IDENTITY_MESSAGES.emailCodeSent(attacker),
        resendAfterSeconds: 30,
      });
      const code = await latestCode(attacker, /email confirmation code/, t);
      const notice = await waitForMail(u.email, /email is about to change/, t);
      expect(notice.text).toContain(attacker);
      // Nothing changed yet.
      expect((await b.get('/api/user')).body.email).toBe(u.email.toUpperCase());

      const wrong = await b.post('/api/user/email-change/confirm', { otp: wrongCodeFor(code, 0) });
      expect([wrong.status, wrong.body.message]).toEqual([400, 'Invalid OTP. 4 attempts left.']);
      const confirmed = await b.post('/api/user/email-change/confirm', { otp: code });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.message).toBe(IDENTITY_MESSAGES.emailChanged);
      expect(confirmed.body.user.email).toBe(attacker);
      expect((await b.get('/api/user')).body.email).toBe(attacker);
      expect(await stack.kc.findByUsername(u.username)).toMatchObject({ email: attacker.toLowerCase() });
      await waitForMail(u.email, /email was changed/, t);

      const again = await b.post('/api/user/email-change/confirm', { otp: code });
      expect(again.status).toBe(400);
    });

    it('refuses a taken address, and re-checks it when the code is confirmed', async () => {
      const u = await user('EmailTaken');
      const other = await user('EmailOther');
      const b = new Browser(stack.url);
      expect((await b.login(u.username, u.password)).status).toBe(200);
      const taken = await b.post('/api/user/email-change', {
        newEmail: other.email,
        currentPassword: u.password,
      });
      expect([taken.status, taken.body.message]).toEqual([409, IDENTITY_MESSAGES.emailTaken]);

      const wanted = `wanted.${u.email}`;
      emails.push(wanted);
      const t = Date.now() - 1000;
      expect(
        (await b.post('/api/user/email-change', { newEmail: wanted, currentPassword: u.password })).status,
      ).toBe(200);
      const code = await latestCode(wanted, /email confirmation code/, t);
      // Someone else takes the address in between.
      const o = new Browser(stack.url);
      expect((await o.login(other.username, other.password)).status).toBe(200);
      expect(
        (await o.post('/api/user/email-change', { newEmail: wanted, currentPassword: other.password }))
          .status,
      ).toBe(200);
      const otherCode = await eventually(async () => {
        const codes = (await mailsTo(wanted))
          .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
          .filter((c) => c && c !== code);
        return codes[0];
      });
      expect((await o.post('/api/user/email-change/confirm', { otp: otherCode })).status).toBe(200);

      const late = await b.post('/api/user/email-change/confirm', { otp: code });
      expect([late.status, late.body.message]).toEqual([409, IDENTITY_MESSAGES.emailTaken]);
      expect((await b.get('/api/user')).body.email).toBe(u.email);
    });
  });

  it('a reset request answers the same for an unknown account, and its code is refused like a wrong one', async () => {
    const u = await user('Known');
    const unknown = `nobody.${u.username}@example.test`;
    const anon = new Browser(stack.url);
    const known1 = await anon.post('/api/request-password-reset', { emailOrUsername: u.username });
    const unknown1 = await anon.post('/api/request-password-reset', { emailOrUsername: unknown });
    expect([unknown1.status, unknown1.body]).toEqual([known1.status, known1.body]);
    expect(known1.status).toBe(200);
    expect(await mailsTo(unknown)).toEqual([]);

    // The 30 s rule is the same too.
    const known2 = await anon.post('/api/request-password-reset', { emailOrUsername: u.username });
    const unknown2 = await anon.post('/api/request-password-reset', { emailOrUsername: unknown });
    expect(known2.status).toBe(429);
    expect(unknown2.status).toBe(429);
    expect(unknown2.body.message).toMatch(/^Please wait \d+ seconds? before requesting a new OTP\.$/);

    for (const left of [4, 3]) {
      const k = await anon.post('/api/verify-password-reset-otp', {
        emailOrUsername: u.username,
        otp: '000000',
      });
      const n = await anon.post('/api/verify-password-reset-otp', {
        emailOrUsername: unknown,
        otp: '000000',
      });
      // (A known code of 000000 would pass: one in a million.)
      expect([n.status, n.body]).toEqual([k.status, k.body]);
      expect(n.body.message).toBe(`Invalid OTP. ${left} attempts left.`);
    }
    const resetUnknown = await anon.post('/api/reset-password', {
      emailOrUsername: unknown,
      password: 'Whatever#1',
      confirmPassword: 'Whatever#1',
    });
    const resetKnown = await anon.post('/api/reset-password', {
      emailOrUsername: u.username,
      password: 'Whatever#1',
      confirmPassword: 'Whatever#1',
    });
    expect([resetUnknown.status, resetUnknown.body]).toEqual([resetKnown.status, resetKnown.body]);
    expect(resetUnknown.status).toBe(409);
  });
});
