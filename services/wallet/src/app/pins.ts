import { WALLET_MESSAGES } from '@qm/contracts/rest';
import {
  assertMaySend,
  assertUsable,
  type Caller,
  conflict,
  forbidden,
  invalid,
  issueOtp,
  type Mailer,
  newSalt,
  OTP_MAX_ATTEMPTS,
  OTP_MESSAGES,
  slowHash,
  slowHashMatches,
  tooMany,
  unavailable,
  wrongCode,
  type Logger,
} from '@qm/platform';
import { lockedUntil, PIN_LOCK_MS, PIN_MAX_FAILURES, PIN_MESSAGES, validPin } from '../domain/pin';
import { walletMails } from '../mail/templates';
import type { PinStore } from '../store/pins';
import type { Directory } from './identity';
import { createVerifiedPins, type VerifiedPins } from './verified-pins';
import type { PinGate } from './wallets';

/**
 * The transfer PIN's check, count first (docs/adr/009): a wrong-PIN slot is reserved in the database
 * before the PIN is compared, so of any number of PINs sent at once at most PIN_MAX_FAILURES are
 * compared before transfers lock, and during the lock even the right PIN is refused.
 */
export function createPinGate(pins: PinStore, verified: VerifiedPins): PinGate {
  const gate: PinGate = {
    async isSetUp(userId) {
      return !!(await pins.get(userId))?.pin;
    },
    async verify(userId, pin) {
      return check(userId, pin, true);
    },
  };

  async function check(userId: number, pin: string, mayRetry: boolean): Promise<void> {
    const now = new Date();
    const doc = await pins.get(userId);
    if (!doc?.pin) throw conflict(WALLET_MESSAGES.pinSetupFirst);
    const locked = lockedUntil(doc.lockedUntil, now);
    if (locked) throw tooMany(WALLET_MESSAGES.pinLocked(locked.toISOString()));
    const stored = doc.pin.codeHash;
    const known = verified.matches(userId, stored, pin);
    // ADR 009's fast path, without a write. It is taken only when the document read shows no slot
    // reserved and no lock: at that read no PIN had been compared since the count last started
    // again, so this check is ordered at that instant, before any guess still in flight (each of
    // which reserves its slot after it) — it cannot be a sixth comparison.
    if (known && doc.failures === 0 && !doc.lockedUntil) return;
    if (doc.lockedUntil) await pins.clearExpiredLock(userId, doc.lockedUntil);
    const slot = await pins.reserveFailure(
      userId,
      stored,
      PIN_MAX_FAILURES,
      new Date(now.getTime() + PIN_LOCK_MS),
    );
    if (!slot) {
      // No slot: the guesses before this one locked transfers, or the PIN or lock changed between
      // the read and the reservation (then once more from the start). Nothing was compared.
      if (mayRetry) return check(userId, pin, false);
      const until = lockedUntil((await pins.get(userId))?.lockedUntil, new Date());
      if (until) throw tooMany(WALLET_MESSAGES.pinLocked(until.toISOString()));
      throw unavailable('Your PIN could not be checked. Please try again.');
    }
    if (known || (await slowHashMatches(pin, doc.pin))) {
      await pins.rightPin(userId, slot.lockedUntil);
      verified.remember(userId, stored, pin);
      return;
    }
    verified.forget(userId);
    if (slot.lockedUntil) throw tooMany(WALLET_MESSAGES.pinLocked(slot.lockedUntil.toISOString()));
    throw invalid(WALLET_MESSAGES.wrongPin(PIN_MAX_FAILURES - slot.failures));
  }

  return gate;
}

/** Setting the PIN with an emailed code, and checking it for transfers (docs/product.md §4, §5). */
export interface Pins {
  /** The check transfers use. */
  gate: PinGate;
  status(caller: Caller | undefined): Promise<{ isPinSetup: boolean }>;
  /** Records the chosen PIN; it replaces the current one only once the emailed code is verified. */
  choose(
    caller: Caller | undefined,
    pin: string,
    confirmPin: string,
  ): Promise<{ message: typeof PIN_MESSAGES.saved }>;
  /** Emails a code for the chosen PIN (refused while the last one was sent too recently). */
  sendCode(caller: Caller | undefined): Promise<{ message: typeof OTP_MESSAGES.sent }>;
  /** A right code activates the chosen PIN; each try is counted before the code is compared. */
  verifyCode(
    caller: Caller | undefined,
    otpInput: string,
  ): Promise<{ message: typeof PIN_MESSAGES.activated }>;
}

export function createPins(d: { pins: PinStore; directory: Directory; mailer: Mailer; log: Logger }): Pins {
  const verified = createVerifiedPins();
  const gate = createPinGate(d.pins, verified);
  const signedIn = (caller: Caller | undefined): Caller => {
    if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
    return caller;
  };

  return {
    gate,
    status: async (caller: Caller | undefined) => ({
      isPinSetup: await gate.isSetUp(signedIn(caller).userId),
    }),

    async choose(caller: Caller | undefined, pin: string, confirmPin: string) {
      const { userId } = signedIn(caller);
      const chosen = validPin(pin, confirmPin);
      const salt = newSalt();
      const codeHash = await slowHash(chosen, salt);
      await d.pins.choose(userId, { codeHash, salt });
      // Known here as surely as after a match, and bound to this hash: once the emailed code makes
      // it the PIN, the user's first transfer on this process needs no second hash (docs/adr/009).
      verified.remember(userId, codeHash, chosen);
      return { message: PIN_MESSAGES.saved };
    },

    async sendCode(caller: Caller | undefined) {
      const { userId } = signedIn(caller);
      const now = new Date();
      const doc = await d.pins.get(userId);
      if (!doc?.pending) throw conflict(PIN_MESSAGES.choosePinFirst);
      assertMaySend(doc.otp, now);
      const user = await d.directory.byId(userId);
      if (!user?.email) throw conflict('No email address is registered for your account');
      const { code, otp } = await issueOtp(now);
      await d.pins.issueOtp(userId, otp);
      try {
        await d.mailer.send(user.email, walletMails.pinCode(user.firstName || user.username, code));
      } catch (err) {
        d.log.error({ err, userId }, 'PIN code email failed');
        await d.pins.issueOtp(userId, { ...otp, sentAt: new Date(0) });
        throw unavailable('Failed to send OTP. Please try again.');
      }
      return { message: OTP_MESSAGES.sent };
    },

    async verifyCode(caller: Caller | undefined, otpInput: string) {
      const { userId } = signedIn(caller);
      if (!/^\d{6}$/.test(otpInput)) throw invalid(WALLET_MESSAGES.otpFormat);
      const doc = await d.pins.get(userId);
      if (!doc?.pending) throw conflict(PIN_MESSAGES.choosePinFirst);
      const otp = doc.otp;
      const now = new Date();
      assertUsable(otp, now);
      // Count first: a try is taken before the slow comparison, so however many guesses
      // arrive at once at most OTP_MAX_ATTEMPTS are compared; the rest are refused unhashed.
      const attempts = await d.pins.reserveOtpAttempt(userId, otp.codeHash, OTP_MAX_ATTEMPTS, now);
      if (attempts === null) {
        const after = (await d.pins.get(userId))?.otp;
        if (after?.codeHash !== otp.codeHash) throw invalid(OTP_MESSAGES.missing);
        assertUsable(after, new Date());
        throw tooMany(OTP_MESSAGES.locked);
      }
      if (!(await slowHashMatches(otpInput, otp))) throw wrongCode(attempts);
      // Single use: the code is consumed by the same update that activates the PIN.
      if (!(await d.pins.activate(userId, otp.codeHash))) throw invalid(OTP_MESSAGES.missing);
      return { message: PIN_MESSAGES.activated };
    },
  };
}
