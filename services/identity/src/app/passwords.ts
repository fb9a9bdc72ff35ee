import { IDENTITY_MESSAGES as MSG, NewPasswordSchema, PasswordSchema } from '@qm/contracts/rest';
import { type Caller, conflict, invalid, notFound, tooMany, unavailable } from '@qm/platform';
import { ACTIONS, DETAILS } from '../domain/activity';
import {
  assertMaySend,
  assertUsable,
  codeMatches,
  currentPasswordRecentlyVerified,
  issueCode,
  mayResetPassword,
  OTP_MESSAGES,
  OTP_RESEND_MS,
  type OtpPurpose,
  type OtpRecord,
  wrongCode,
} from '../domain/otp';
import { mails } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps, recordActivity } from './deps';
import { createSignOuts } from './sign-outs';

const RESEND_AFTER_SECONDS = OTP_RESEND_MS / 1000;

/** Creates and emails a fresh code, unless one went out less than 30 s ago. */
async function sendCode(d: Deps, user: StoredUser, purpose: OtpPurpose): Promise<void> {
  const now = d.clock();
  assertMaySend(await d.otps.find(user.id, purpose), now);
  const { code, record } = await issueCode(user.id, purpose, now);
  if (!(await d.otps.replace(record, now))) {
    // Another request stored a code in between.
    assertMaySend(await d.otps.find(user.id, purpose), now);
    throw tooMany(OTP_MESSAGES.resendWait(RESEND_AFTER_SECONDS));
  }
  try {
    await d.mailer.send(
      user.email,
      purpose === 'reset' ? mails.passwordResetOtp(user, code) : mails.passwordChangeOtp(user, code),
    );
  } catch (err) {
    d.log.warn({ err }, 'otp mail failed');
    await d.otps.remove(user.id, purpose);
    throw unavailable('Failed to send OTP. Please try again.');
  }
}

/** Compares a code, counting a wrong one; at the fifth wrong try the code is void. */
async function checkCode(d: Deps, userId: number, purpose: OtpPurpose, otp: string): Promise<OtpRecord> {
  const now = d.clock();
  const rec = await d.otps.find(userId, purpose);
  assertUsable(rec, now);
  if (await codeMatches(rec, otp.trim())) return rec;
  const after = await d.otps.countWrong(rec);
  throw wrongCode(after ?? rec.attempts + 1);
}

/** One-time codes, password reset and password change. */
export function createPasswords(d: Deps) {
  const signOuts = createSignOuts(d);
  const activity = (user: { id: number; username: string }, action: string, details: string) =>
    recordActivity(d, user, action, details);

  async function accountFor(emailOrUsername: string): Promise<StoredUser> {
    const text = emailOrUsername.trim();
    if (!text) throw invalid('Email or username is required');
    const user = await d.users.byUsernameOrEmail(text);
    if (!user || !user.kcId) throw notFound('No account found with that email or username');
    return user;
  }

  function validPassword(password: string, schema = PasswordSchema): string {
    const parsed = schema.safeParse(password);
    if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid password');
    return parsed.data;
  }

  /** Does this password open the account? Any session it opens is ended at once. */
  async function passwordWorks(user: StoredUser, password: string): Promise<boolean> {
    const grant = await d.kc.passwordGrant(user.usernameKey, password);
    if (!grant.ok) return false;
    await bestEffort(d.log, 'end check session', () =>
      d.kc.logout(grant.tokens.refreshToken, grant.tokens.clientId),
    );
    return true;
  }

  async function caller(c: Caller): Promise<StoredUser> {
    const user = await d.users.byId(c.userId);
    if (!user || !user.kcId) throw notFound('User not found');
    return user;
  }

  return {
    signOuts,

    // ---- forgot password (anonymous) -----------------------------------------------------------

    async requestReset(emailOrUsername: string) {
      const user = await accountFor(emailOrUsername);
      await sendCode(d, user, 'reset');
      await activity(user, ACTIONS.passwordResetRequest, DETAILS.passwordResetRequest);
      return { message: OTP_MESSAGES.sent, resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    async verifyReset(emailOrUsername: string, otp: string) {
      const user = await accountFor(emailOrUsername);
      const rec = await checkCode(d, user.id, 'reset', otp);
      await d.otps.markVerified(rec, d.clock());
      return { message: OTP_MESSAGES.verified };
    },

    /** Only within 10 minutes of a verified code, which it consumes. */
    async reset(emailOrUsername: string, password: string) {
      const user = await accountFor(emailOrUsername);
      const pw = validPassword(password);
      const rec = await d.otps.find(user.id, 'reset');
      if (!rec || !mayResetPassword(rec, d.clock())) throw conflict(OTP_MESSAGES.verifyFirst);
      if (!(await d.otps.consume(rec))) throw conflict(OTP_MESSAGES.verifyFirst);
      await signOuts.changePassword(user, pw);
      await activity(user, ACTIONS.passwordChange, DETAILS.passwordReset);
      await bestEffort(d.log, 'password reset mail', () =>
        d.mailer.send(user.email, mails.passwordReset(user)),
      );
      return { message: OTP_MESSAGES.passwordReset };
    },

    // ---- password change (signed in) -----------------------------------------------------------

    async requestChange(c: Caller) {
      const user = await caller(c);
      await sendCode(d, user, 'change');
      await activity(user, ACTIONS.passwordChangeOtpRequested, DETAILS.passwordChangeOtpRequested);
      return { message: OTP_MESSAGES.sent, resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    /** Checks the current password against Keycloak; remembered for the change for 10 minutes. */
    async verifyCurrent(c: Caller, currentPassword: string) {
      const user = await caller(c);
      if (!currentPassword) throw invalid('Current password is required');
      if (!(await passwordWorks(user, currentPassword))) throw invalid(MSG.currentPasswordIncorrect);
      await d.otps.markCurrentPasswordVerified(user.id, 'change', d.clock());
      return { valid: true, message: 'Current password verified' };
    },

    /**
     * With the code only: verifies it. With a new password: changes the password after checking
     * the code, the current password (sent along, or verified in the last 10 minutes) and that
     * the new one differs; then emails a confirmation and records password_change.
     */
    async verifyChange(c: Caller, input: { otp: string; newPassword?: string; currentPassword?: string }) {
      const user = await caller(c);
      const rec = await checkCode(d, user.id, 'change', input.otp);
      if (input.newPassword === undefined) {
        await d.otps.markVerified(rec, d.clock());
        return { changed: false, message: OTP_MESSAGES.verified };
      }
      const newPassword = validPassword(input.newPassword, NewPasswordSchema);
      if (input.currentPassword !== undefined) {
        if (input.currentPassword === newPassword) throw invalid(MSG.newPasswordMustDiffer);
        if (!(await passwordWorks(user, input.currentPassword))) throw invalid(MSG.currentPasswordIncorrect);
      } else {
        if (!currentPasswordRecentlyVerified(rec, d.clock())) throw conflict(OTP_MESSAGES.verifyCurrentFirst);
        // The new password must not already be the current one.
        if (await passwordWorks(user, newPassword)) throw invalid(MSG.newPasswordMustDiffer);
      }
      if (!(await d.otps.consume(rec))) throw invalid(OTP_MESSAGES.missing);
      await signOuts.changePassword(user, newPassword);
      await activity(user, ACTIONS.passwordChange, DETAILS.passwordChange);
      await bestEffort(d.log, 'password changed mail', () =>
        d.mailer.send(user.email, mails.passwordChanged(user)),
      );
      // Every session ended, the caller's too: it continues in a fresh one (the gateway swaps it in).
      const grant = await d.kc.passwordGrant(user.usernameKey, newPassword).catch((err: unknown) => {
        d.log.warn({ err }, 'no fresh session after the password change');
        return undefined;
      });
      return {
        changed: true,
        message: MSG.passwordChanged,
        session: grant?.ok ? { user, tokens: grant.tokens } : undefined,
      };
    },
  };
}

export type Passwords = ReturnType<typeof createPasswords>;
