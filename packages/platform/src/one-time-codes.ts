import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { invalid, tooMany } from './errors';

/**
 * Emailed one-time codes (docs/product.md §1, §5, §9: password reset and change in identity, the wallet PIN):
 * 6 digits from a secure random source, stored hashed, valid 10 minutes, void after 5 wrong tries,
 * a new one at most every 30 seconds. Time is always passed in, so the rules can be exercised
 * without waiting. The same slow hash keeps wallet PINs.
 */
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_MS = 30_000;

export const OTP_MESSAGES = {
  sent: 'OTP sent to your registered email',
  verified: 'OTP verified',
  missing: 'No valid OTP found. Please request a new OTP.',
  expired: 'OTP has expired. Please request a new OTP.',
  locked: 'Too many incorrect attempts. Please request a new OTP.',
  wrong: (left: number) => `Invalid OTP. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  resendWait: (seconds: number) =>
    `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before requesting a new OTP.`,
} as const;

/** What is stored of an issued code. */
export interface IssuedOtp {
  codeHash: string;
  salt: string;
  expiresAt: Date;
  attempts: number;
  sentAt: Date;
}

export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Runs at most `max` of the given tasks at once, the others waiting in arrival order. A tiny
 * queue rather than p-limit: p-limit is ESM-only from version 4 on, which this CommonJS code
 * cannot require, and pinning version 3 would hold one dependency back for ten lines.
 */
export function limitConcurrency(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    waiting.shift()?.();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running++;
        task().then(resolve, reject).finally(next);
      };
      if (running < max) start();
      else waiting.push(start);
    });
}

/**
 * scrypt (N=16384, ~16 MB, tens of ms) runs on libuv's pool of 4 threads, which file, DNS and
 * other crypto work share: a burst of guesses would occupy all of them and stall every other
 * request of the process. Two at a time leave the rest free; the others wait their turn.
 */
export const SLOW_HASH_CONCURRENCY = 2;
const hashSlot = limitConcurrency(SLOW_HASH_CONCURRENCY);

/** scrypt keeps an offline guess of the million possible codes (or a PIN) slow. */
export function slowHash(secret: string, salt: string): Promise<string> {
  return hashSlot(
    () =>
      new Promise<string>((resolve, reject) =>
        scrypt(secret, salt, 32, { N: 16384, r: 8, p: 1 }, (err, key) =>
          err ? reject(err) : resolve(key.toString('base64url')),
        ),
      ),
  );
}

/** Whether `secret` hashes to `hash` under `salt`, compared in constant time. */
export async function slowHashMatches(
  secret: string,
  hash: { codeHash: string; salt: string },
): Promise<boolean> {
  const a = Buffer.from(await slowHash(secret, hash.salt));
  const b = Buffer.from(hash.codeHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function issueOtp(now: Date): Promise<{ code: string; otp: IssuedOtp }> {
  const code = generateCode();
  const salt = newSalt();
  return {
    code,
    otp: {
      codeHash: await slowHash(code, salt),
      salt,
      expiresAt: new Date(now.getTime() + OTP_TTL_MS),
      attempts: 0,
      sentAt: now,
    },
  };
}

/** A new code may be sent when none was sent in the last 30 s. Throws RESOURCE_EXHAUSTED otherwise. */
export function assertMaySend(existing: Pick<IssuedOtp, 'sentAt'> | null | undefined, now: Date): void {
  if (!existing) return;
  const waitMs = existing.sentAt.getTime() + OTP_RESEND_MS - now.getTime();
  if (waitMs > 0) throw tooMany(OTP_MESSAGES.resendWait(Math.ceil(waitMs / 1000)));
}

/** Refusals that need no comparison: none requested, expired, or void after too many tries. */
export function assertUsable<T extends IssuedOtp>(
  record: T | null | undefined,
  now: Date,
): asserts record is T {
  if (!record) throw invalid(OTP_MESSAGES.missing);
  if (record.attempts >= OTP_MAX_ATTEMPTS) throw tooMany(OTP_MESSAGES.locked);
  if (now.getTime() > record.expiresAt.getTime()) throw invalid(OTP_MESSAGES.expired);
}

/** The refusal for a wrong code, given the attempts counted so far (including this one). */
export function wrongCode(attemptsAfter: number) {
  const left = OTP_MAX_ATTEMPTS - attemptsAfter;
  return left <= 0 ? tooMany(OTP_MESSAGES.locked) : invalid(OTP_MESSAGES.wrong(left));
}

/**
 * The store side of a counted code, for `checkCountFirst`. `reserveAttempt` is one conditional
 * update: it adds one to `attempts` of the live code only while attempts < OTP_MAX_ATTEMPTS and
 * now <= expiresAt (see `attemptOpenFilter`), and answers the record after it, or null.
 */
export interface CountedCode<T extends IssuedOtp> {
  reserveAttempt(now: Date): Promise<T | null>;
  /** The record as it is now, to name a refusal (missing, expired, locked). */
  current(): Promise<T | null>;
  /** Gives back the attempt a right code took: only wrong codes count. */
  refundAttempt(record: T): Promise<void>;
}

/** The filter under which a code still has an attempt to give (for `reserveAttempt`). */
export function attemptOpenFilter(now: Date) {
  return { attempts: { $lt: OTP_MAX_ATTEMPTS }, expiresAt: { $gte: now } };
}

/**
 * Checks a code, counting first: an attempt is taken atomically before the slow comparison, and
 * only a request that got one compares. However many guesses arrive at once, at most
 * OTP_MAX_ATTEMPTS wrong ones are ever compared; after them the right code is refused too
 * (OTP_MESSAGES.locked), and an exhausted code is refused without hashing. Answers the record of
 * a right code.
 */
export async function checkCountFirst<T extends IssuedOtp>(
  store: CountedCode<T>,
  code: string,
  now: Date,
): Promise<T> {
  // A second round only when the code was replaced between the refused reservation and the read.
  for (let round = 0; round < 2; round++) {
    const reserved = await store.reserveAttempt(now);
    if (reserved) {
      if (!(await slowHashMatches(code, reserved))) throw wrongCode(reserved.attempts);
      await store.refundAttempt(reserved);
      return reserved;
    }
    assertUsable(await store.current(), now);
  }
  throw tooMany(OTP_MESSAGES.locked);
}
