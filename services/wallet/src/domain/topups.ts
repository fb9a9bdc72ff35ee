import { type PaymentProviderName, WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { invalid } from '@qm/platform';

/**
 * A card top-up's rules (docs/product.md §5 Add money, §9):
 *
 *   created ──payment claimed (page or webhook)──▶ paid ──ledger transfer posted──▶ completed
 *      ├──the card is declined──▶ failed (at once; its line fails with the provider's reason)
 *      └──still created after the expiry (30 min)──▶ expired (its line fails: "Expired: …")
 *
 * A failed or expired top-up whose payment succeeds later (a second card on the same checkout, or
 * Stripe finishing a payment the page gave up on) is still credited, on a new line: money a provider
 * took is never lost. The sandbox refuses to charge an expired checkout.
 *
 * One top-up takes exactly one provider payment: the first payment id claimed on it (by
 * compare-and-set) is the only one it ever credits, and that payment id is the ledger transfer's
 * key, so a credit happens once however often the proof is replayed.
 */
export type TopUpStatus = 'created' | 'paid' | 'completed' | 'failed' | 'expired';

/** A checkout left open this long expires (TOPUP_EXPIRY_MINUTES). */
export const DEFAULT_EXPIRY_MINUTES = 30;

/** What an expired checkout's line says, in the user's words (one text with the pages' "Expired"). */
export { expiredTopUpReason as expiredReason } from '@qm/contracts/rest';

/** 100 to 100000 rupees inclusive, in whole paise. */
export function validTopUpAmount(paise: number): number {
  if (
    !Number.isSafeInteger(paise) ||
    paise < WALLET_LIMITS.topUpMinPaise ||
    paise > WALLET_LIMITS.topUpMaxPaise
  )
    throw invalid(WALLET_MESSAGES.topUpRange);
  return paise;
}

/** The ledger key of a credit: the provider's payment id (docs/adr/007). */
export const creditKey = (provider: PaymentProviderName, providerPaymentId: string) =>
  `topup:${provider}:${providerPaymentId}`;

/** The user's history line of a top-up, opened at creation and completed by its credit. */
export const historyLineId = (topUpId: number) => `topup:${topUpId}`;

export const providerLabel = (provider: PaymentProviderName) => (provider === 'stripe' ? 'Card' : 'Sandbox');

export const topUpDescription = (provider: PaymentProviderName) =>
  `Added money via ${providerLabel(provider)}`;
