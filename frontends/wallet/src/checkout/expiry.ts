import { exactDate, timeOfDay } from '@qm/contracts/rest';

/** Within this, the time of day alone names the moment; further off, the date too. */
const SAME_DAY_MS = 12 * 60 * 60_000;

/**
 * What the checkout says of its expiry (the server's TOPUP_EXPIRY_MINUTES after it opened), before it
 * happens: "This checkout expires at 3:45 pm IST if it is not paid."
 */
export function checkoutExpiryNote(expiresAt: string, now = Date.now()): string {
  const at = Date.parse(expiresAt);
  const when = at - now < SAME_DAY_MS ? timeOfDay(at) : exactDate(expiresAt);
  return `This checkout expires at ${when} if it is not paid.`;
}
