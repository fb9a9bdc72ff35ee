import { createHash } from 'node:crypto';
import {
  assertMaySend,
  assertUsable as assertUsableCode,
  generateCode,
  newSalt,
  OTP_MAX_ATTEMPTS,
  OTP_MESSAGES as CODE_MESSAGES,
  OTP_RESEND_MS,
  OTP_TTL_MS,
  slowHash as hashCode,
  slowHashMatches,
  wrongCode,
} from '@qm/platform';

// The code rules themselves are shared with the wallet's PIN codes (@qm/platform one-time-codes).
export {
  assertMaySend,
  generateCode,
  hashCode,
  newSalt,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_MS,
  OTP_TTL_MS,
  wrongCode,
};

/**
 * One-time codes for password reset and password change (docs/product.md §1, §5, §9): 6 digits from a
 * secure random source, stored hashed, valid 10 minutes, void after 5 wrong tries, a new one at
 * most every 30 seconds. A verified reset code allows one password reset within 10 minutes.
 * Time is always passed in, so the rules can be exercised without waiting.
 */

export type OtpPurpose = 'reset' | 'change' | 'email';
export const OTP_PURPOSES: readonly OtpPurpose[] = ['reset', 'change', 'email'];

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
  /** Email change: the address the code went to, applied when the code is confirmed. */
  newEmail?: string | null;
}

export const OTP_MESSAGES = {
  ...CODE_MESSAGES,
  verifyFirst: 'Please verify your OTP before resetting your password.',
  verifyCurrentFirst: 'Please verify your current password first.',
  passwordReset: 'Password has been reset successfully',
} as const;

export const codeMatches = (record: OtpRecord, code: string): Promise<boolean> =>
  slowHashMatches(code, record);

export interface IssuedCode {
  code: string;
  record: OtpRecord;
}

/**
 * Where a reset asked for an account that does not exist keeps its code: a negative number (real
 * ids are positive) derived from the text as typed, so the request, the 30 s resend rule and the
 * wrong-code count answer exactly as for an account (no enumeration); no mail is sent.
 */
export function unknownAccountKey(emailOrUsername: string): number {
  const digest = createHash('sha256').update(emailOrUsername.trim().toLowerCase()).digest();
  return -(digest.readUIntBE(0, 6) + 1);
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
  assertUsableCode(record, now);
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
