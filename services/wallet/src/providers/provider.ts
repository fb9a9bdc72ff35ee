import type { PaymentProviderName } from '@qm/contracts/rest';

/** What a provider's checkout hands the page, and the page hands POST /api/verify-payment. */
export interface PaymentProof {
  providerOrderId: string;
  providerPaymentId: string;
  providerSignature: string;
}

/** A payment the provider vouches for (a verified proof or webhook). */
export interface ConfirmedPayment {
  providerOrderId: string;
  providerPaymentId: string;
  /** What the provider says was charged and for which top-up, when it says so (Stripe). */
  amount?: number;
  currency?: string;
  topUpId?: number;
}

/** A payment attempt the provider reports failed (Stripe's payment_intent.payment_failed). */
export interface FailedPayment {
  providerOrderId: string;
  /** The provider's words for the user ("Your card was declined."). */
  reason: string;
  topUpId?: number;
}

/** What a webhook tells the wallet to act on. */
export type ProviderEvent = { paid: ConfirmedPayment } | { failed: FailedPayment };

export interface ProviderOrder {
  providerOrderId: string;
  /** Stripe only: what Stripe.js needs in the browser. */
  clientSecret: string;
  publishableKey: string;
}

/** What the page is told when the provider cannot be reached (Stripe down, or the fault flag). */
export const PROVIDER_UNREACHABLE = {
  createOrder: 'Failed to initiate payment. Please try again.',
  confirm: 'The payment cannot be checked right now. Please try again.',
} as const;

/** A card payment provider: the sandbox, or Stripe. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createOrder(topUp: { id: number; userId: number; amount: number }): Promise<ProviderOrder>;
  /** Checks the page's proof with the provider: the payment it confirms, or null. */
  confirm(proof: PaymentProof): Promise<ConfirmedPayment | null>;
  /**
   * A webhook exactly as received: throws INVALID_ARGUMENT when its signature does not verify;
   * null for events the wallet does not act on.
   */
  webhook(payload: Buffer, signature: string): ProviderEvent | null;
}
