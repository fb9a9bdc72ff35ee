import { EmailSchema, IDENTITY_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, invalid } from '@qm/platform';
import { OTP_MESSAGES } from '../domain/otp';
import { duplicateEmail, emailKey } from '../domain/users';
import { mails } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { callerAccount, checkCode, passwordWorks, RESEND_AFTER_SECONDS, sendCode } from './codes';
import { bestEffort, type Deps } from './deps';
import { updateProfile } from './profiles';

export interface EmailChanges {
  /** Checks the current password and the new address, then sends the code to it. */
  request(
    c: Caller,
    input: { newEmail: string; currentPassword: string },
  ): Promise<{ message: string; resendAfterSeconds: number }>;
  /** Applies the address the code went to (taken again is 409), then tells the old address. */
  confirm(c: Caller, otp: string): Promise<{ user: StoredUser; message: typeof MSG.emailChanged }>;
}

/**
 * A signed-in user's new email address (a stolen session must not be able to take the account
 * over by redirecting its mail): the current password first, then a code sent to the new address
 * (the code rules of password reset), a notice to the old one; the change applies only when the
 * code is confirmed.
 */
export function createEmailChanges(d: Deps): EmailChanges {
  return {
    async request(c: Caller, input: { newEmail: string; currentPassword: string }) {
      const user = await callerAccount(d, c);
      const parsed = EmailSchema.safeParse(input.newEmail);
      if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'Invalid email address');
      const newEmail = parsed.data;
      if (emailKey(newEmail) === user.emailKey) throw invalid(MSG.emailUnchanged);
      const other = await d.users.byEmailKey(emailKey(newEmail));
      if (other && other.id !== user.id) throw duplicateEmail();
      if (!input.currentPassword) throw invalid('Current password is required');
      if (!(await passwordWorks(d, user, input.currentPassword))) throw invalid(MSG.currentPasswordIncorrect);
      await sendCode(d, user, 'email', {
        to: newEmail,
        message: (code) => mails.emailChangeOtp(user, code),
        extra: { newEmail },
      });
      await bestEffort(d.log, 'email change notice', () =>
        d.mailer.send(user.email, mails.emailChangeRequested(user, newEmail)),
      );
      return { message: MSG.emailCodeSent(newEmail), resendAfterSeconds: RESEND_AFTER_SECONDS };
    },

    async confirm(c: Caller, otp: string) {
      const user = await callerAccount(d, c);
      const rec = await checkCode(d, user.id, 'email', otp);
      if (!rec.newEmail || !(await d.otps.consume(rec))) throw invalid(OTP_MESSAGES.missing);
      const updated = await updateProfile(d, c, { email: rec.newEmail }, { emailConfirmed: true });
      await bestEffort(d.log, 'email changed notice', () =>
        d.mailer.send(user.email, mails.emailChanged(user, updated.email)),
      );
      return { user: updated, message: MSG.emailChanged };
    },
  };
}
