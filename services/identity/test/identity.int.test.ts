import { identityV1 } from '@qm/contracts/grpc';
import { ACTIVITY_MESSAGES, IDENTITY_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, GrpcStatus } from '@qm/platform';
import { uniqueName } from '@qm/testkit';
import {
  ADMIN_PASSWORD,
  as,
  callerOf,
  codeIn,
  collectEvents,
  deleteMailsTo,
  eventually,
  registration,
  startIdentity,
  testClock,
  waitForMail,
} from './infra';

const { LoginOutcome, LoginPortal, UserStatus, Role } = identityV1;
/** ListUsers without search, role or paging: every user. */
const everyUser = {
  status: UserStatus.USER_STATUS_UNSPECIFIED,
  search: '',
  role: Role.ROLE_UNSPECIFIED,
  page: 0,
  pageSize: 0,
};
const UA = 'Mozilla/5.0 (X11; Linux x86_64) IdentityTest/1.0';

/** Resolves to the gRPC error of a call that must fail. */
async function refused(p: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: number; details: string };
  }
  throw new Error('expected the call to be refused');
}

describe('identity service against real Keycloak, database, NATS and maildev', () => {
  const clock = testClock();
  let svc: Awaited<ReturnType<typeof startIdentity>>;
  let admin: Caller;
  let activity: ReturnType<typeof collectEvents>;
  let userEvents: ReturnType<typeof collectEvents>;
  const emails: string[] = [];

  const register = async (prefix: string, role: 'Army' | 'Manufacturer' = 'Army') => {
    const r = registration(prefix, role);
    svc.track(r.username);
    emails.push(r.email);
    const res = await svc.client.register(r);
    return { ...r, user: res.user!, message: res.message };
  };
  const login = (username: string, password: string, portal = LoginPortal.LOGIN_PORTAL_USER) =>
    svc.client.login({ username, password, portal, userAgent: UA });
  const approve = (userId: number) =>
    as(admin, () =>
      svc.client.updateUserStatus({ userId, status: UserStatus.USER_STATUS_APPROVED, rejectionReason: '' }),
    );
  const approvedUser = async (prefix: string, role: 'Army' | 'Manufacturer' = 'Army') => {
    const r = await register(prefix, role);
    await approve(r.user.id);
    return r;
  };
  const activitiesOf = (username: string) =>
    activity.seen
      .map((s) => s.event.data as { username: string; action: string; details: string; userId: number })
      .filter((d) => d.username === username);

  beforeAll(async () => {
    svc = await startIdentity(clock.now);
    activity = collectEvents(svc.running, 'activity.recorded');
    userEvents = collectEvents(svc.running, 'identity.user.>');
    const res = await login('admin', ADMIN_PASSWORD, LoginPortal.LOGIN_PORTAL_ADMIN);
    admin = callerOf(res.user!);
  });

  afterAll(async () => {
    activity?.stop();
    userEvents?.stop();
    for (const e of emails) await deleteMailsTo(e);
    await svc?.stop();
  });

  describe('seeded administrator', () => {
    it('exists, approved, isAdmin, with the configured password', async () => {
      const res = await login('admin', ADMIN_PASSWORD, LoginPortal.LOGIN_PORTAL_ADMIN);
      expect(res.outcome).toBe(LoginOutcome.LOGIN_OUTCOME_SUCCESS);
      expect(res.user).toMatchObject({
        username: 'admin',
        role: Role.ROLE_ADMIN,
        status: UserStatus.USER_STATUS_APPROVED,
        isAdmin: true,
      });
      expect(res.redirectTo).toBe('/admin/dashboard');
      expect(res.tokens?.accessToken).toBeTruthy();
    });

    it('is refused on the user portal', async () => {
      const err = await refused(login('admin', ADMIN_PASSWORD, LoginPortal.LOGIN_PORTAL_USER));
      expect(err.code).toBe(GrpcStatus.PERMISSION_DENIED);
      expect(err.details).toBe(MSG.adminMustUsePortal);
    });

    it('cannot be deleted', async () => {
      const err = await refused(as(admin, () => svc.client.deleteUser({ userId: admin.userId })));
      expect(err.code).toBe(GrpcStatus.PERMISSION_DENIED);
    });
  });

  describe('registration', () => {
    it('creates a pending profile and a disabled Keycloak user with the realm role, announced and emailed', async () => {
      const r = await register('Reg', 'Manufacturer');
      expect(r.message).toMatch(/Registration successful/);
      expect(r.user).toMatchObject({
        username: r.username,
        email: r.email,
        role: Role.ROLE_MANUFACTURER,
        status: UserStatus.USER_STATUS_PENDING,
        isAdmin: false,
      });
      const kcUser = await svc.kc.findByUsername(r.username);
      expect(kcUser?.enabled).toBe(false);
      expect(await svc.kc.realmRoles(kcUser!.id)).toContain('Manufacturer');
      await eventually(() =>
        userEvents.seen.find(
          (s) =>
            s.subject === 'identity.user.registered' &&
            (s.event.data as { userId: number }).userId === r.user.id,
        ),
      );
      const mail = await waitForMail(r.email, /registration was received/);
      expect(mail.text).toContain('pending administrative approval');
    });

    it('trims the username and refuses the same name in another letter case', async () => {
      const r = registration(' Case');
      svc.track(r.username.trim());
      emails.push(r.email);
      const res = await svc.client.register(r);
      expect(res.user!.username).toBe(r.username.trim());

      const again = { ...registration('x'), username: r.username.trim().toUpperCase() };
      const err = await refused(svc.client.register(again));
      expect(err.code).toBe(GrpcStatus.ALREADY_EXISTS);
      expect(err.details).toBe('Username is already taken');

      const check = await svc.client.checkUsername({ username: r.username.trim().toLowerCase() });
      expect(check).toEqual({ isAvailable: false, message: 'Username is already taken' });
      expect(await svc.client.checkUsername({ username: 'freeName123x' })).toEqual({
        isAvailable: true,
        message: 'Username is available',
      });
    });

    it('reserves admin in any letter case', async () => {
      for (const username of ['admin', 'ADMIN', ' AdMiN ']) {
        const err = await refused(svc.client.register({ ...registration('x'), username }));
        expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
        expect(err.details).toBe('This username is reserved');
      }
      expect(await svc.client.checkUsername({ username: 'Admin' })).toEqual({
        isAvailable: false,
        message: 'This username is reserved',
      });
    });

    it('applies the docs/product.md §5 rules with their messages', async () => {
      const base = registration('Rules');
      const cases: [Partial<typeof base>, string][] = [
        [{ password: 'abc' }, 'Password must be at least 6 characters'],
        [{ password: "x' OR '1'='1" }, 'Invalid password format'],
        [{ email: 'not-an-email' }, 'Invalid email address'],
        [{ firstName: '  ' }, 'First name is required'],
        [{ lastName: '' }, 'Last name is required'],
        [{ role: Role.ROLE_ADMIN }, 'Role must be Army or Manufacturer'],
      ];
      for (const [change, message] of cases) {
        const err = await refused(svc.client.register({ ...base, ...change }));
        expect([err.code, err.details]).toEqual([GrpcStatus.INVALID_ARGUMENT, message]);
      }
    });

    it('refuses an email that is already registered', async () => {
      const first = await register('Mail');
      const err = await refused(
        svc.client.register({ ...registration('Mail2'), email: first.email.toUpperCase() }),
      );
      expect([err.code, err.details]).toEqual([GrpcStatus.ALREADY_EXISTS, 'Email is already registered']);
    });
  });

  describe('approval, rejection and login of each status', () => {
    it('pending: no session, a message with "pending approval"', async () => {
      const r = await register('Pend');
      const res = await login(r.username, r.password);
      expect(res.outcome).toBe(LoginOutcome.LOGIN_OUTCOME_PENDING);
      expect(res.message).toContain('pending approval');
      expect(res.tokens).toBeUndefined();
    });

    it('approval by an admin enables the account, emails the user, and the user signs in', async () => {
      const r = await register('Appr');
      const army = callerOf(r.user);
      const denied = await refused(
        as(army, () =>
          svc.client.updateUserStatus({
            userId: r.user.id,
            status: UserStatus.USER_STATUS_APPROVED,
            rejectionReason: '',
          }),
        ),
      );
      expect(denied.code).toBe(GrpcStatus.PERMISSION_DENIED);

      const res = await approve(r.user.id);
      expect(res.user!.status).toBe(UserStatus.USER_STATUS_APPROVED);
      expect((await svc.kc.findByUsername(r.username))?.enabled).toBe(true);
      const mail = await waitForMail(r.email, /approved/);
      expect(mail.text).toContain(r.username);
      await eventually(() =>
        userEvents.seen.find(
          (s) =>
            s.subject === 'identity.user.approved' &&
            (s.event.data as { userId: number }).userId === r.user.id,
        ),
      );

      const ok = await login(r.username.toUpperCase(), r.password);
      expect(ok.outcome).toBe(LoginOutcome.LOGIN_OUTCOME_SUCCESS);
      expect(ok.message).toBe('Login successful');
      expect(ok.redirectTo).toBe('/wallet');
      expect(ok.user!.isAdmin).toBe(false);
      expect(ok.tokens).toMatchObject({ clientId: 'qm-identity', expiresIn: expect.any(Number) });
      await eventually(() => activitiesOf(r.username).find((a) => a.action === 'login'));

      const again = await refused(approve(r.user.id));
      expect(again.code).toBe(GrpcStatus.FAILED_PRECONDITION);
      expect(again.details).toMatch(/Only pending users/);
    });

    it('rejection needs a reason, is emailed with it, and the user is told "rejected"', async () => {
      const r = await register('Rej');
      const noReason = await refused(
        as(admin, () =>
          svc.client.updateUserStatus({
            userId: r.user.id,
            status: UserStatus.USER_STATUS_REJECTED,
            rejectionReason: '   ',
          }),
        ),
      );
      expect([noReason.code, noReason.details]).toEqual([
        GrpcStatus.INVALID_ARGUMENT,
        'Rejection reason is required',
      ]);

      const res = await as(admin, () =>
        svc.client.updateUserStatus({
          userId: r.user.id,
          status: UserStatus.USER_STATUS_REJECTED,
          rejectionReason: 'License could not be verified',
        }),
      );
      expect(res.user).toMatchObject({
        status: UserStatus.USER_STATUS_REJECTED,
        rejectionReason: 'License could not be verified',
      });
      const mail = await waitForMail(r.email, /rejected/);
      expect(mail.text).toContain('Reason: License could not be verified');
      // Any session the user might hold ends with the rejection (the gateway listens).
      await eventually(() =>
        userEvents.seen.find(
          (e) =>
            e.subject === 'identity.user.sessions_revoked' &&
            (e.event.data as { userId: number }).userId === r.user.id,
        ),
      );

      const out = await login(r.username, r.password);
      expect(out.outcome).toBe(LoginOutcome.LOGIN_OUTCOME_REJECTED);
      expect(out.message).toContain('rejected');
      expect((await svc.kc.findByUsername(r.username))?.enabled).toBe(false);

      const twice = await refused(approve(r.user.id));
      expect(twice.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    });

    it('wrong password and unknown user get the same answer; failed_login records error and browser', async () => {
      const r = await approvedUser('Bad');
      const wrong = await refused(login(r.username, 'Wrong#999'));
      const unknown = await refused(login('nobody_here_xyz', 'Wrong#999'));
      expect([wrong.code, wrong.details]).toEqual([
        GrpcStatus.UNAUTHENTICATED,
        'Invalid username or password',
      ]);
      expect([unknown.code, unknown.details]).toEqual([wrong.code, wrong.details]);
      const failed = await eventually(() =>
        activitiesOf(r.username).find((a) => a.action === 'failed_login'),
      );
      expect(failed.details).toContain('Invalid username or password');
      expect(failed.details).toContain('IdentityTest/1.0');
    });

    it('the admin portal refuses a non-admin with the Access Denied text', async () => {
      const r = await approvedUser('Port');
      const err = await refused(login(r.username, r.password, LoginPortal.LOGIN_PORTAL_ADMIN));
      expect([err.code, err.details]).toEqual([GrpcStatus.PERMISSION_DENIED, MSG.accessDenied]);
    });

    it('refreshes tokens for the same user and ends the Keycloak session on logout', async () => {
      const r = await approvedUser('Sess');
      const res = await login(r.username, r.password);
      const t = res.tokens!;
      const refreshed = await svc.client.refreshSession({
        refreshToken: t.refreshToken,
        clientId: t.clientId,
        userId: r.user.id,
      });
      expect(refreshed.user!.id).toBe(r.user.id);
      const wrongUser = await refused(
        svc.client.refreshSession({
          refreshToken: refreshed.tokens!.refreshToken,
          clientId: t.clientId,
          userId: 999999,
        }),
      );
      expect(wrongUser.code).toBe(GrpcStatus.UNAUTHENTICATED);

      const second = (await login(r.username, r.password)).tokens!;
      await as(callerOf(r.user), () =>
        svc.client.logout({ refreshToken: second.refreshToken, clientId: second.clientId }),
      );
      const after = await refused(
        svc.client.refreshSession({
          refreshToken: second.refreshToken,
          clientId: second.clientId,
          userId: r.user.id,
        }),
      );
      expect(after.code).toBe(GrpcStatus.UNAUTHENTICATED);
      await eventually(() => activitiesOf(r.username).find((a) => a.action === 'logout'));
    });
  });

  describe('password reset with one-time codes', () => {
    it('sends a 6-digit code, blocks a resend for 30 s, and resets only after verification, once', async () => {
      const r = await approvedUser('Reset');
      const started = Date.now() - 1000;
      const sent = await svc.client.requestPasswordReset({ emailOrUsername: r.email.toUpperCase() });
      expect(sent.resendAfterSeconds).toBe(30);
      const code = codeIn(await waitForMail(r.email, /reset code/, started));
      expect(code).toMatch(/^\d{6}$/);

      const soon = await refused(svc.client.requestPasswordReset({ emailOrUsername: r.username }));
      expect(soon.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      expect(soon.details).toMatch(/Please wait \d+ seconds/);

      const early = await refused(
        svc.client.resetPassword({ emailOrUsername: r.username, password: 'Fresh#456' }),
      );
      expect(early.code).toBe(GrpcStatus.FAILED_PRECONDITION);
      expect(early.details).toBe('Please verify your OTP before resetting your password.');

      await svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: code });
      const resetAt = Date.now();
      await svc.client.resetPassword({ emailOrUsername: r.username, password: 'Fresh#456' });
      // The gateway ends its copies of the sessions on this event; Keycloak's are already ended.
      const revoked = await eventually(() =>
        userEvents.seen.find(
          (e) =>
            e.subject === 'identity.user.sessions_revoked' &&
            (e.event.data as { userId: number }).userId === r.user.id,
        ),
      );
      expect(revoked.event.data).toMatchObject({ userId: r.user.id, username: r.username });
      const notBefore = Date.parse((revoked.event.data as { notBefore: string }).notBefore);
      expect(Math.abs(notBefore - resetAt)).toBeLessThan(5_000);
      expect(await svc.running.rt.conn.collection('sign_outs').countDocuments()).toBe(0);
      expect((await login(r.username, 'Fresh#456')).outcome).toBe(LoginOutcome.LOGIN_OUTCOME_SUCCESS);
      await refused(login(r.username, r.password));

      const reused = await refused(
        svc.client.resetPassword({ emailOrUsername: r.username, password: 'Other#789' }),
      );
      expect(reused.code).toBe(GrpcStatus.FAILED_PRECONDITION);
      await eventually(() => activitiesOf(r.username).find((a) => a.action === 'password_reset_request'));
    });

    it('voids a code after 5 wrong tries', async () => {
      const r = await approvedUser('Tries');
      const started = Date.now() - 1000;
      await svc.client.requestPasswordReset({ emailOrUsername: r.username });
      const code = codeIn(await waitForMail(r.email, /reset code/, started));
      const wrong = code === '000000' ? '111111' : '000000';
      for (const left of [4, 3, 2, 1]) {
        const err = await refused(
          svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: wrong }),
        );
        expect([err.code, err.details]).toEqual([
          GrpcStatus.INVALID_ARGUMENT,
          `Invalid OTP. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
        ]);
      }
      const fifth = await refused(
        svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: wrong }),
      );
      expect(fifth.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      const right = await refused(
        svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: code }),
      );
      expect(right.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      expect(right.details).toBe('Too many incorrect attempts. Please request a new OTP.');
    });

    it('expires a code after 10 minutes and a verification after 10 more (injected clock)', async () => {
      const r = await approvedUser('Exp');
      let started = Date.now() - 1000;
      await svc.client.requestPasswordReset({ emailOrUsername: r.username });
      const first = codeIn(await waitForMail(r.email, /reset code/, started));
      clock.advance(10 * 60_000 + 1000);
      const expired = await refused(
        svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: first }),
      );
      expect([expired.code, expired.details]).toEqual([
        GrpcStatus.INVALID_ARGUMENT,
        'OTP has expired. Please request a new OTP.',
      ]);

      await deleteMailsTo(r.email);
      started = Date.now() - 1000;
      await svc.client.requestPasswordReset({ emailOrUsername: r.username });
      const second = codeIn(await waitForMail(r.email, /reset code/, started));
      await svc.client.verifyPasswordResetOtp({ emailOrUsername: r.username, otp: second });
      clock.advance(10 * 60_000 + 1000);
      const late = await refused(
        svc.client.resetPassword({ emailOrUsername: r.username, password: 'Late#1234' }),
      );
      expect(late.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    });

    it('answers an unknown account as a known one, sends it nothing, and refuses its codes as wrong ones', async () => {
      const unknown = `nobody.${Date.now()}@nowhere.test`;
      const sent = await svc.client.requestPasswordReset({ emailOrUsername: unknown });
      expect(sent).toEqual({ message: 'OTP sent to your registered email', resendAfterSeconds: 30 });
      const soon = await refused(svc.client.requestPasswordReset({ emailOrUsername: unknown.toUpperCase() }));
      expect(soon.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
      const wrong = await refused(
        svc.client.verifyPasswordResetOtp({ emailOrUsername: unknown, otp: '123456' }),
      );
      expect([wrong.code, wrong.details]).toEqual([
        GrpcStatus.INVALID_ARGUMENT,
        'Invalid OTP. 4 attempts left.',
      ]);
      const reset = await refused(
        svc.client.resetPassword({ emailOrUsername: unknown, password: 'Fresh#456' }),
      );
      expect([reset.code, reset.details]).toEqual([
        GrpcStatus.FAILED_PRECONDITION,
        'Please verify your OTP before resetting your password.',
      ]);
    });
  });

  describe('password change', () => {
    it('checks the code and the current password, requires a different one, emails a confirmation', async () => {
      const r = await approvedUser('Chg');
      const me = callerOf(r.user);
      const started = Date.now() - 1000;
      await as(me, () => svc.client.requestPasswordChangeOtp({}));
      const code = codeIn(await waitForMail(r.email, /change code/, started));
      const soon = await refused(as(me, () => svc.client.requestPasswordChangeOtp({})));
      expect(soon.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);

      expect(await as(me, () => svc.client.verifyPasswordChangeOtp({ otp: code }))).toEqual({
        changed: false,
        message: 'OTP verified',
      });
      const wrongCurrent = await refused(
        as(me, () => svc.client.verifyCurrentPassword({ currentPassword: 'Nope#1234' })),
      );
      expect([wrongCurrent.code, wrongCurrent.details]).toEqual([
        GrpcStatus.INVALID_ARGUMENT,
        'Current password is incorrect',
      ]);
      const unverified = await refused(
        as(me, () => svc.client.verifyPasswordChangeOtp({ otp: code, newPassword: 'Brand#New1' })),
      );
      expect(unverified.code).toBe(GrpcStatus.FAILED_PRECONDITION);

      expect(
        await as(me, () => svc.client.verifyCurrentPassword({ currentPassword: r.password })),
      ).toMatchObject({
        valid: true,
      });
      const same = await refused(
        as(me, () => svc.client.verifyPasswordChangeOtp({ otp: code, newPassword: r.password })),
      );
      expect([same.code, same.details]).toEqual([
        GrpcStatus.INVALID_ARGUMENT,
        'New password must be different from current password',
      ]);
      const done = await as(me, () =>
        svc.client.verifyPasswordChangeOtp({ otp: code, newPassword: 'Brand#New1' }),
      );
      // The change ended the caller's session too; these tokens are for the fresh one.
      expect(done).toMatchObject({ changed: true, message: 'Password changed successfully' });
      expect(done.user?.id).toBe(me.userId);
      expect(done.tokens?.refreshToken).toBeTruthy();
      expect((await login(r.username, 'Brand#New1')).outcome).toBe(LoginOutcome.LOGIN_OUTCOME_SUCCESS);
      await waitForMail(r.email, /password was changed/, started);
      const change = await eventually(() =>
        activitiesOf(r.username).find((a) => a.action === 'password_change'),
      );
      expect(change.details).toBe('Password changed successfully');
      expect(activitiesOf(r.username).map((a) => a.action)).toContain('password_change_otp_requested');

      const reuse = await refused(
        as(me, () => svc.client.verifyPasswordChangeOtp({ otp: code, newPassword: 'Again#New2' })),
      );
      expect(reuse.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    });

    it('accepts the current password in the same call', async () => {
      const r = await approvedUser('Chg2');
      const me = callerOf(r.user);
      const started = Date.now() - 1000;
      await as(me, () => svc.client.requestPasswordChangeOtp({}));
      const code = codeIn(await waitForMail(r.email, /change code/, started));
      const bad = await refused(
        as(me, () =>
          svc.client.verifyPasswordChangeOtp({
            otp: code,
            newPassword: 'Other#111',
            currentPassword: 'Wrong#111',
          }),
        ),
      );
      expect(bad.details).toBe('Current password is incorrect');
      const ok = await as(me, () =>
        svc.client.verifyPasswordChangeOtp({
          otp: code,
          newPassword: 'Other#111',
          currentPassword: r.password,
        }),
      );
      expect(ok.changed).toBe(true);
    });
  });

  describe('profiles and user views', () => {
    it('lets only a Manufacturer set license number and years of experience', async () => {
      const army = await approvedUser('PArmy');
      const maker = await approvedUser('PMaker', 'Manufacturer');
      const denied = await refused(
        as(callerOf(army.user), () => svc.client.updateProfile({ licenseNumber: 'MFG-1234-5678' })),
      );
      expect(denied.code).toBe(GrpcStatus.PERMISSION_DENIED);
      const years = await refused(
        as(callerOf(army.user), () => svc.client.updateProfile({ yearsOfExperience: { value: 3 } })),
      );
      expect(years.code).toBe(GrpcStatus.PERMISSION_DENIED);
      // The form's empty manufacturer fields are harmless.
      const fine = await as(callerOf(army.user), () =>
        svc.client.updateProfile({ licenseNumber: '', bio: 'Infantry', address: '12 Cantonment Road' }),
      );
      expect(fine.user).toMatchObject({ bio: 'Infantry', address: '12 Cantonment Road' });
      expect(fine.user!.licenseNumber).toBeUndefined();

      const made = await as(callerOf(maker.user), () =>
        svc.client.updateProfile({ licenseNumber: 'MFG-1234-5678', yearsOfExperience: { value: 12 } }),
      );
      expect(made.user).toMatchObject({ licenseNumber: 'MFG-1234-5678', yearsOfExperience: 12 });
      const cleared = await as(callerOf(maker.user), () =>
        svc.client.updateProfile({ yearsOfExperience: {} }),
      );
      expect(cleared.user!.yearsOfExperience).toBeUndefined();
      await eventually(() => activitiesOf(maker.username).find((a) => a.action === 'profile_update'));
    });

    it('validates names and email, keeps Keycloak in step, and refuses a taken email', async () => {
      const u = await approvedUser('PVal');
      const other = await register('POther');
      const me = callerOf(u.user);
      const noName = await refused(as(me, () => svc.client.updateProfile({ firstName: ' ' })));
      expect([noName.code, noName.details]).toEqual([GrpcStatus.INVALID_ARGUMENT, 'First name is required']);
      const badMail = await refused(as(me, () => svc.client.updateProfile({ email: 'nope' })));
      expect(badMail.details).toBe('Invalid email address');
      // Another address only through RequestEmailChange and ConfirmEmailChange (the password and a code).
      for (const email of [other.email, `new.${u.email}`]) {
        const refusedEmail = await refused(as(me, () => svc.client.updateProfile({ firstName: 'X', email })));
        expect([refusedEmail.code, refusedEmail.details]).toEqual([
          GrpcStatus.INVALID_ARGUMENT,
          MSG.emailChangeNeedsConfirmation,
        ]);
      }
      const taken = await refused(
        as(me, () => svc.client.requestEmailChange({ newEmail: other.email, currentPassword: u.password })),
      );
      expect([taken.code, taken.details]).toEqual([GrpcStatus.ALREADY_EXISTS, 'Email is already registered']);

      const res = await as(me, () =>
        svc.client.updateProfile({ firstName: 'Renamed', email: u.email.toUpperCase() }),
      );
      expect(res.user).toMatchObject({ firstName: 'Renamed', email: u.email.toUpperCase() });
      const kcUser = await svc.kc.findByUsername(u.username);
      expect(kcUser).toMatchObject({ firstName: 'Renamed', email: u.email.toLowerCase() });
    });

    it('shows non-admins only a manufacturer card, admins everything', async () => {
      const army = await approvedUser('VArmy');
      const maker = await approvedUser('VMaker', 'Manufacturer');
      await as(callerOf(maker.user), () =>
        svc.client.updateProfile({ licenseNumber: 'MFG-0000-1111', yearsOfExperience: { value: 7 } }),
      );
      const card = await as(callerOf(army.user), () => svc.client.getUser({ id: maker.user.id }));
      expect(card.view).toEqual({
        $case: 'card',
        value: {
          id: maker.user.id,
          firstName: 'Test',
          lastName: 'Maker',
          licenseNumber: 'MFG-0000-1111',
          yearsOfExperience: 7,
        },
      });
      const hidden = await refused(as(callerOf(maker.user), () => svc.client.getUser({ id: army.user.id })));
      expect(hidden.code).toBe(GrpcStatus.NOT_FOUND);
      const full = await as(admin, () => svc.client.getUser({ id: army.user.id }));
      expect(full.view?.$case).toBe('user');
      expect(full.view?.value).toMatchObject({ email: army.email, phoneNumber: army.phoneNumber });

      const listDenied = await refused(as(callerOf(army.user), () => svc.client.listUsers(everyUser)));
      expect(listDenied.code).toBe(GrpcStatus.PERMISSION_DENIED);
      const list = await as(admin, () => svc.client.listUsers(everyUser));
      expect(list.users.map((x) => x.username)).toEqual(expect.arrayContaining(['admin', army.username]));
    });

    it('searches, filters and pages the users list on the server', async () => {
      const tag = uniqueName('Srch', '');
      const made = [
        await register(`${tag}a`),
        await approvedUser(`${tag}b`),
        await approvedUser(`${tag}c`, 'Manufacturer'),
      ];
      const search = (req: Partial<identityV1.ListUsersRequest>) =>
        as(admin, () => svc.client.listUsers({ ...everyUser, page: 1, pageSize: 10, search: tag, ...req }));

      const all = await search({});
      expect(all.total).toBe(3);
      expect(all.users.map((u) => u.id)).toEqual(made.map((m) => m.user.id));
      // Any case, any of username, names or email.
      expect((await search({ search: tag.toUpperCase() })).total).toBe(3);
      expect((await search({ search: made[1]!.email.toUpperCase() })).users.map((u) => u.id)).toEqual([
        made[1]!.user.id,
      ]);
      const pending = await search({ status: UserStatus.USER_STATUS_PENDING });
      expect(pending.users.map((u) => u.id)).toEqual([made[0]!.user.id]);
      const makers = await search({ role: Role.ROLE_MANUFACTURER });
      expect(makers.users.map((u) => u.id)).toEqual([made[2]!.user.id]);
      const approvedArmy = await search({ status: UserStatus.USER_STATUS_APPROVED, role: Role.ROLE_ARMY });
      expect(approvedArmy.users.map((u) => u.id)).toEqual([made[1]!.user.id]);

      const page2 = await search({ page: 2, pageSize: 2 });
      expect(page2.total).toBe(3);
      expect(page2.users.map((u) => u.id)).toEqual([made[2]!.user.id]);
      // Regular-expression characters are literal; bad paging is a clear refusal.
      expect((await search({ search: '.*' })).total).toBe(0);
      const tooBig = await refused(search({ pageSize: 101 }));
      expect(tooBig.code).toBe(GrpcStatus.INVALID_ARGUMENT);
      const tooLong = await refused(search({ search: 'x'.repeat(101) }));
      expect(tooLong.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    });

    it('records the activities only a screen knows of, and refuses the ones a server records', async () => {
      const u = await approvedUser('Act');
      const me = callerOf(u.user);
      expect(
        await as(me, () => svc.client.recordActivity({ action: 'profile_view', details: 'Viewed profile' })),
      ).toEqual({ recorded: true });
      for (const action of ['login', 'wallet_transfer', 'password_change', 'made_up']) {
        const forged = await refused(as(me, () => svc.client.recordActivity({ action, details: 'forged' })));
        expect(forged).toMatchObject({
          code: GrpcStatus.INVALID_ARGUMENT,
          details: ACTIVITY_MESSAGES.actionNotClient,
        });
      }
      const bad = await refused(
        as(me, () => svc.client.recordActivity({ action: 'DROP TABLE', details: '' })),
      );
      expect(bad.code).toBe(GrpcStatus.INVALID_ARGUMENT);
      await eventually(() => activitiesOf(u.username).find((a) => a.action === 'profile_view'));
      expect(activitiesOf(u.username).find((a) => a.details === 'forged')).toBeUndefined();
      const anonymous = await refused(svc.client.recordActivity({ action: 'profile_view', details: '' }));
      expect(anonymous.code).toBe(GrpcStatus.UNAUTHENTICATED);
    });
  });

  describe('deleting a user', () => {
    it('deletes the Keycloak user and the profile and publishes identity.user.deleted', async () => {
      const maker = await approvedUser('Del', 'Manufacturer');
      const denied = await refused(
        as(callerOf(maker.user), () => svc.client.deleteUser({ userId: maker.user.id })),
      );
      expect(denied.code).toBe(GrpcStatus.PERMISSION_DENIED);
      await as(admin, () => svc.client.deleteUser({ userId: maker.user.id }));
      expect(await svc.kc.findByUsername(maker.username)).toBeUndefined();
      const gone = await refused(as(admin, () => svc.client.getUser({ id: maker.user.id })));
      expect(gone.code).toBe(GrpcStatus.NOT_FOUND);
      const ev = await eventually(() =>
        userEvents.seen.find(
          (s) =>
            s.subject === 'identity.user.deleted' &&
            (s.event.data as { userId: number }).userId === maker.user.id,
        ),
      );
      expect(ev.event.data).toEqual({
        userId: maker.user.id,
        username: maker.username,
        role: 'Manufacturer',
      });
      // Every session of theirs ends with it, as after a password change.
      const revoked = await eventually(() =>
        userEvents.seen.find(
          (s) =>
            s.subject === 'identity.user.sessions_revoked' &&
            (s.event.data as { userId: number }).userId === maker.user.id,
        ),
      );
      expect(revoked.event.data).toMatchObject({ userId: maker.user.id, username: maker.username });
      const twice = await refused(as(admin, () => svc.client.deleteUser({ userId: maker.user.id })));
      expect(twice.code).toBe(GrpcStatus.NOT_FOUND);
    });
  });
});
