import { WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { invalid } from '@qm/platform';

/**
 * The wallet PIN (docs/product.md §5): at least 6 characters, stored as a slow hash, active only
 * once the emailed code is verified. Five wrong PINs lock transfers for 15 minutes; during the lock
 * even the right PIN is refused.
 */
export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_MS = 15 * 60_000;

export function validPin(pin: string, confirmPin: string): string {
  if (pin.length < WALLET_LIMITS.pinMinChars) throw invalid(WALLET_MESSAGES.pinTooShort);
  if (pin.length > WALLET_LIMITS.pinMaxChars) throw invalid(WALLET_MESSAGES.pinTooLong);
  if (pin !== confirmPin) throw invalid(WALLET_MESSAGES.pinsDontMatch);
  return pin;
}

export const PIN_MESSAGES = {
  saved: 'PIN saved. Request the code sent to your email to confirm it.',
  choosePinFirst: 'Please choose your PIN first',
  activated: 'PIN setup completed successfully. You can now make transactions.',
} as const;

/** When a lock is in force, the moment it ends. */
export function lockedUntil(lock: Date | null | undefined, now: Date): Date | null {
  return lock && lock.getTime() > now.getTime() ? lock : null;
}
