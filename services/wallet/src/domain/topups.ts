import { type PaymentProviderName, WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { invalid } from '@qm/platform';

/**
 * A card top-up's rules (spec §5 Add money, §9):
 *
 *   created ──payment claimed (page or webhook)──▶ paid ──ledger transfer posted──▶ completed
 *      └──still created after ABANDON_AFTER_MS──▶ failed (its pending history line fails)
 *
 * One top-up takes exactly one provider payment: the first payment id claimed on it (by
 * compare-and-set) is the only one it ever credits, and that payment id is the ledger transfer's
 * key, so a credit happens once however often the proof is replayed.
 */
export type TopUpStatus = 'created' | 'paid' | 'completed' | 'failed';

/** A checkout left open this long is abandoned. */
export const ABANDON_AFTER_MS = 24 * 60 * 60_000;

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

/** The ledger key of a credit: the provider's payment id (issue 8 §1). */
export const creditKey = (provider: PaymentProviderName, providerPaymentId: string) =>
  `topup:${provider}:${providerPaymentId}`;

/** The user's history line of a top-up, opened at creation and completed by its credit. */
export const historyLineId = (topUpId: number) => `topup:${topUpId}`;

export const providerLabel = (provider: PaymentProviderName) => (provider === 'stripe' ? 'Card' : 'Sandbox');

export const topUpDescription = (provider: PaymentProviderName) =>
  `Added money via ${providerLabel(provider)}`;
