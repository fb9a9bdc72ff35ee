import { IDENTITY_MESSAGES as MSG, NewPasswordSchema, PasswordSchema } from '@qm/contracts/rest';
import { type Caller, conflict, invalid } from '@qm/platform';
import { ACTIONS, DETAILS } from '../domain/activity';
import {
  currentPasswordRecentlyVerified,
  mayResetPassword,
  OTP_MESSAGES,
  unknownAccountKey,
} from '../domain/otp';
import type { TokenSet } from '../keycloak/client';
import { mails } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { callerAccount, checkCode, passwordWorks, RESEND_AFTER_SECONDS, sendCode, storeCode } from './codes';
import { bestEffort, type Deps, recordActivity } from './deps';
import { createSignOuts, type SignOuts } from './sign-outs';

/** One-time codes, password reset and password change. */
export interface Passwords {
  /** Ends the sessions after a password change; the sweeper calls its `retryDue`. */
  signOuts: SignOuts;

  // ---- forgot password (anonymous) -----------------------------------------------------------

  /**
   * The same answer whether the account exists or not: for an unknown name a code is stored (same
   * hashing, same 30 s rule) but never mailed.
   */
  requestReset(
    emailOrUsername: string,
  ): Promise<{ message: typeof OTP_MESSAGES.sent; resendAfterSeconds: number }>;
  /** An unknown name's code is checked and counted like any other, so it refuses the same way. */
  verifyReset(emailOrUsername: string, otp: string): Promise<{ message: typeof OTP_MESSAGES.verified }>;
  /** Only within 10 minutes of a verified code, which it consumes. */
  reset(emailOrUsername: string, password: string): Promise<{ message: typeof OTP_MESSAGES.passwordReset }>;

  // ---- password change (signed in) -----------------------------------------------------------

  requestChange(c: Caller): Promise<{ message: typeof OTP_MESSAGES.sent; resendAfterSeconds: number }>;
  /** Checks the current password against Keycloak; remembered for the change for 10 minutes. */
  verifyCurrent(c: Caller, currentPassword: string): Promise<{ valid: boolean; message: string }>;
  /**
   * With the code only: verifies it. With a new password: changes the password after checking
   * the code, the current password (sent along, or verified in the last 10 minutes) and that
   * the new one differs; then emails a confirmation and records password_change. `session` is
   * the caller's fresh one (every session ended), undefined if Keycloak would not grant it.
   */
  verifyChange(
    c: Caller,
    input: { otp: string; newPassword?: string; currentPassword?: string },
  ): Promise<
    | { changed: boolean; message: typeof OTP_MESSAGES.verified; session?: undefined }
    | {
        changed: boolean;
        message: typeof MSG.passwordChanged;
        session: { user: StoredUser; tokens: TokenSet } | undefined;
      }
  >;
}

export function createPasswords(d: Deps): Passwords {
  const signOuts = createSignOuts(d);
  const activity = (user: { id: number; username: string }, action: string, details: string) =>
    recordActivity(d, user, action, details);

  function identifier(emailOrUsername: string): string {
    const text = emailOrUsername.trim();
    if (!text) throw invalid('Email or username is required');
    return text;
  }

  /** The account a reset is for, or undefined: the answers never say which (README, enumeration). */
  async function accountFor(text: string): Promise<StoredUser | undefined> {
    const user = await d.users.byUsernameOrEmail(text);
    return user?.kcId ? user : undefined;
  }

  /** Where the reset code of `text` is kept: the account's id, or the unknown name's own key. */
  const resetKey = (user: StoredUser | undefined, text: string) => user?.id ?? unknownAccountKey(text);

  function validPassword(password: string, schema = PasswordSchema): string {
    const parsed = schema.safeParse(password);
    if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid password');
    return parsed.data;
  }

  return {
    signOuts,

    // ---- forgot password (anonymous) -----------------------------------------------------------

    async requestReset(emailOrUsername: string) {
      const text = identifier(emailOrUsername);
      const user = await accountFor(text);
      if (user) {
        await sendCode(d, user, 'reset', {
          to: user.email,
          message: (code) => mails.passwordResetOtp(user, code),
        });
        await activity(user, ACTIONS.passwordResetRequest, DETAILS.passwordResetRequest);
      } else {
        await storeCode(d, unknownAccountKey(text), 'reset');
      }
      return { message: OTP_MESSAGES.sent, resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    async verifyReset(emailOrUsername: string, otp: string) {
      const text = identifier(emailOrUsername);
      const rec = await checkCode(d, resetKey(await accountFor(text), text), 'reset', otp);
      await d.otps.markVerified(rec, d.clock());
      return { message: OTP_MESSAGES.verified };
    },

    async reset(emailOrUsername: string, password: string) {
      const text = identifier(emailOrUsername);
      const pw = validPassword(password);
      const user = await accountFor(text);
      if (!user) throw conflict(OTP_MESSAGES.verifyFirst);
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
      const user = await callerAccount(d, c);
      await sendCode(d, user, 'change', {
        to: user.email,
        message: (code) => mails.passwordChangeOtp(user, code),
      });
      await activity(user, ACTIONS.passwordChangeOtpRequested, DETAILS.passwordChangeOtpRequested);
      return { message: OTP_MESSAGES.sent, resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    async verifyCurrent(c: Caller, currentPassword: string) {
      const user = await callerAccount(d, c);
      if (!currentPassword) throw invalid('Current password is required');
      if (!(await passwordWorks(d, user, currentPassword))) throw invalid(MSG.currentPasswordIncorrect);
      await d.otps.markCurrentPasswordVerified(user.id, 'change', d.clock());
      return { valid: true, message: 'Current password verified' };
    },

    async verifyChange(c: Caller, input: { otp: string; newPassword?: string; currentPassword?: string }) {
      const user = await callerAccount(d, c);
      const rec = await checkCode(d, user.id, 'change', input.otp);
      if (input.newPassword === undefined) {
        await d.otps.markVerified(rec, d.clock());
        return { changed: false, message: OTP_MESSAGES.verified };
      }
      const newPassword = validPassword(input.newPassword, NewPasswordSchema);
      if (input.currentPassword !== undefined) {
        if (input.currentPassword === newPassword) throw invalid(MSG.newPasswordMustDiffer);
        if (!(await passwordWorks(d, user, input.currentPassword)))
          throw invalid(MSG.currentPasswordIncorrect);
      } else {
        if (!currentPasswordRecentlyVerified(rec, d.clock())) throw conflict(OTP_MESSAGES.verifyCurrentFirst);
        // The new password must not already be the current one.
        if (await passwordWorks(d, user, newPassword)) throw invalid(MSG.newPasswordMustDiffer);
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
