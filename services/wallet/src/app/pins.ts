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
import { createVerifiedPins } from './verified-pins';
import type { PinGate } from './wallets';

/** Setting the PIN with an emailed code, and checking it for transfers (issue 8 §3). */
export function createPins(d: { pins: PinStore; directory: Directory; mailer: Mailer; log: Logger }) {
  const verified = createVerifiedPins();
  const signedIn = (caller: Caller | undefined): Caller => {
    if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
    return caller;
  };

  const gate: PinGate = {
    async isSetUp(userId) {
      return !!(await d.pins.get(userId))?.pin;
    },
    async verify(userId, pin) {
      const now = new Date();
      const doc = await d.pins.get(userId);
      if (!doc?.pin) throw conflict(WALLET_MESSAGES.pinSetupFirst);
      const locked = lockedUntil(doc.lockedUntil, now);
      if (locked) throw tooMany(WALLET_MESSAGES.pinLocked(locked.toISOString()));
      const stored = doc.pin.codeHash;
      if (verified.matches(userId, stored, pin) || (await slowHashMatches(pin, doc.pin))) {
        if (doc.failures > 0) await d.pins.rightPin(userId);
        verified.remember(userId, stored, pin);
        return;
      }
      verified.forget(userId);
      const after = await d.pins.wrongPin(userId, PIN_MAX_FAILURES, new Date(now.getTime() + PIN_LOCK_MS));
      if (after.lockedUntil) throw tooMany(WALLET_MESSAGES.pinLocked(after.lockedUntil.toISOString()));
      throw invalid(WALLET_MESSAGES.wrongPin(PIN_MAX_FAILURES - after.failures));
    },
  };

  return {
    gate,
    status: async (caller: Caller | undefined) => ({
      isPinSetup: await gate.isSetUp(signedIn(caller).userId),
    }),

    /** Records the chosen PIN; it replaces the current one only once the emailed code is verified. */
    async choose(caller: Caller | undefined, pin: string, confirmPin: string) {
      const { userId } = signedIn(caller);
      const chosen = validPin(pin, confirmPin);
      const salt = newSalt();
      await d.pins.choose(userId, { codeHash: await slowHash(chosen, salt), salt });
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
      assertUsable(otp, new Date());
      if (!(await slowHashMatches(otpInput, otp))) throw wrongCode(await d.pins.wrongOtp(userId));
      // Single use: the code is consumed by the same update that activates the PIN.
      if (!(await d.pins.activate(userId, otp.codeHash))) throw invalid(OTP_MESSAGES.missing);
      return { message: PIN_MESSAGES.activated };
    },
  };
}

export type Pins = ReturnType<typeof createPins>;
