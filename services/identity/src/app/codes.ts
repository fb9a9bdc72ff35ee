import { type Caller, checkCountFirst, notFound, tooMany, unavailable } from '@qm/platform';
import {
  assertMaySend,
  issueCode,
  OTP_MESSAGES,
  OTP_RESEND_MS,
  type OtpPurpose,
  type OtpRecord,
} from '../domain/otp';
import type { MailMessage } from '../mail/templates';
import type { StoredUser } from '../store/users';
import { bestEffort, type Deps } from './deps';

/** What the use cases of the code flows (password reset and change, email change) share. */

export const RESEND_AFTER_SECONDS = OTP_RESEND_MS / 1000;

/**
 * Stores a fresh code for (userId, purpose), unless one went out less than 30 s ago (429), and
 * answers it; `extra` is kept with it (the new address of an email change).
 */
export async function storeCode(
  d: Deps,
  userId: number,
  purpose: OtpPurpose,
  extra: Pick<OtpRecord, 'newEmail'> = {},
): Promise<string> {
  const now = d.clock();
  assertMaySend(await d.otps.find(userId, purpose), now);
  const { code, record } = await issueCode(userId, purpose, now);
  if (!(await d.otps.replace({ ...record, ...extra }, now))) {
    // Another request stored a code in between.
    assertMaySend(await d.otps.find(userId, purpose), now);
    throw tooMany(OTP_MESSAGES.resendWait(RESEND_AFTER_SECONDS));
  }
  return code;
}

/** Stores a fresh code and emails it to `to`; a failed mail takes the code back (503). */
export async function sendCode(
  d: Deps,
  user: StoredUser,
  purpose: OtpPurpose,
  mail: { to: string; message: (code: string) => MailMessage; extra?: Pick<OtpRecord, 'newEmail'> },
): Promise<void> {
  const code = await storeCode(d, user.id, purpose, mail.extra);
  try {
    await d.mailer.send(mail.to, mail.message(code));
  } catch (err) {
    d.log.warn({ err }, 'otp mail failed');
    await d.otps.remove(user.id, purpose);
    throw unavailable('Failed to send OTP. Please try again.');
  }
}

/**
 * Compares a code, counting first (@qm/platform `checkCountFirst`): at most 5 wrong guesses are
 * ever compared per code, whatever arrives at once; then the right one is refused too.
 */
export function checkCode(d: Deps, userId: number, purpose: OtpPurpose, otp: string): Promise<OtpRecord> {
  return checkCountFirst(d.otps.counted(userId, purpose), otp.trim(), d.clock());
}

/** Does this password open the account? Any session it opens is ended at once. */
export async function passwordWorks(d: Deps, user: StoredUser, password: string): Promise<boolean> {
  const grant = await d.kc.passwordGrant(user.usernameKey, password);
  if (!grant.ok) return false;
  await bestEffort(d.log, 'end check session', () =>
    d.kc.logout(grant.tokens.refreshToken, grant.tokens.clientId),
  );
  return true;
}

/** The signed-in caller's account. */
export async function callerAccount(d: Deps, c: Caller): Promise<StoredUser> {
  const user = await d.users.byId(c.userId);
  if (!user || !user.kcId) throw notFound('User not found');
  return user;
}
