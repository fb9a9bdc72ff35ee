import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { invalid, tooMany } from '@qm/platform';

/**
 * One-time codes for password reset and password change (spec §1, §5, §9): 6 digits from a
 * secure random source, stored hashed, valid 10 minutes, void after 5 wrong tries, a new one at
 * most every 30 seconds. A verified reset code allows one password reset within 10 minutes.
 * Time is always passed in, so the rules can be exercised without waiting.
 */

export type OtpPurpose = 'reset' | 'change';

export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_MS = 30_000;
/** How long a verified code (or a verified current password) stays good for the next step. */
export const VERIFIED_WINDOW_MS = 10 * 60_000;

export interface OtpRecord {
  userId: number;
  purpose: OtpPurpose;
  codeHash: string;
  salt: string;
  expiresAt: Date;
  attempts: number;
  sentAt: Date;
  verifiedAt?: Date | null;
  /** Password change: when the current password was last confirmed against Keycloak. */
  currentPasswordVerifiedAt?: Date | null;
}

export const OTP_MESSAGES = {
  sent: 'OTP sent to your registered email',
  verified: 'OTP verified',
  missing: 'No valid OTP found. Please request a new OTP.',
  expired: 'OTP has expired. Please request a new OTP.',
  locked: 'Too many incorrect attempts. Please request a new OTP.',
  wrong: (left: number) => `Invalid OTP. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  resendWait: (seconds: number) =>
    `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before requesting a new OTP.`,
  verifyFirst: 'Please verify your OTP before resetting your password.',
  verifyCurrentFirst: 'Please verify your current password first.',
  passwordReset: 'Password has been reset successfully',
} as const;

export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/** scrypt keeps an offline guess of the million possible codes slow. */
export function hashCode(code: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(code, salt, 32, { N: 16384, r: 8, p: 1 }, (err, key) =>
      err ? reject(err) : resolve(key.toString('base64url')),
    ),
  );
}

export async function codeMatches(record: OtpRecord, code: string): Promise<boolean> {
  const a = Buffer.from(await hashCode(code, record.salt));
  const b = Buffer.from(record.codeHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new code may be sent when none was sent in the last 30 s. Throws RESOURCE_EXHAUSTED otherwise. */
export function assertMaySend(existing: Pick<OtpRecord, 'sentAt'> | null | undefined, now: Date): void {
  if (!existing) return;
  const waitMs = existing.sentAt.getTime() + OTP_RESEND_MS - now.getTime();
  if (waitMs > 0) throw tooMany(OTP_MESSAGES.resendWait(Math.ceil(waitMs / 1000)));
}

export interface IssuedCode {
  code: string;
  record: OtpRecord;
}

export async function issueCode(userId: number, purpose: OtpPurpose, now: Date): Promise<IssuedCode> {
  const code = generateCode();
  const salt = newSalt();
  return {
    code,
    record: {
      userId,
      purpose,
      codeHash: await hashCode(code, salt),
      salt,
      expiresAt: new Date(now.getTime() + OTP_TTL_MS),
      attempts: 0,
      sentAt: now,
      verifiedAt: null,
      currentPasswordVerifiedAt: null,
    },
  };
}

/** Refusals that need no comparison: none requested, expired, or void after too many tries. */
export function assertUsable(record: OtpRecord | null | undefined, now: Date): asserts record is OtpRecord {
  if (!record) throw invalid(OTP_MESSAGES.missing);
  if (record.attempts >= OTP_MAX_ATTEMPTS) throw tooMany(OTP_MESSAGES.locked);
  if (now.getTime() > record.expiresAt.getTime()) throw invalid(OTP_MESSAGES.expired);
}

/** The refusal for a wrong code, given the attempts counted so far (including this one). */
export function wrongCode(attemptsAfter: number) {
  const left = OTP_MAX_ATTEMPTS - attemptsAfter;
  return left <= 0 ? tooMany(OTP_MESSAGES.locked) : invalid(OTP_MESSAGES.wrong(left));
}

/** A reset needs a code verified in the last 10 minutes. */
export function mayResetPassword(record: OtpRecord | null | undefined, now: Date): boolean {
  if (!record?.verifiedAt) return false;
  return now.getTime() - record.verifiedAt.getTime() <= VERIFIED_WINDOW_MS;
}

export function currentPasswordRecentlyVerified(record: OtpRecord | null | undefined, now: Date): boolean {
  if (!record?.currentPasswordVerifiedAt) return false;
  return now.getTime() - record.currentPasswordVerifiedAt.getTime() <= VERIFIED_WINDOW_MS;
}

/** A record nobody can use any more (for the sweeper). */
export function isDead(record: OtpRecord, now: Date): boolean {
  const expired = now.getTime() > record.expiresAt.getTime();
  const verifiedStillGood = mayResetPassword(record, now);
  return expired && !verifiedStillGood;
}
