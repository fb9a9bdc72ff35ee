import { invalid, unavailable } from '@qm/platform';
import Stripe from 'stripe';
import {
  type ConfirmedPayment,
  type FailedPayment,
  type PaymentProof,
  type PaymentProvider,
  PROVIDER_UNREACHABLE,
} from './provider';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string;
}

/** A succeeded PaymentIntent as the payment it is: the intent is both the order and the payment. */
function paymentOf(pi: Stripe.PaymentIntent): ConfirmedPayment {
  const topUpId = Number(pi.metadata?.topUpId);
  return {
    providerOrderId: pi.id,
    providerPaymentId: pi.id,
    amount: pi.amount_received || pi.amount,
    currency: pi.currency,
    topUpId: Number.isSafeInteger(topUpId) ? topUpId : undefined,
  };
}

/** A failed attempt in the words Stripe gives the customer (its decline message), or a plain one. */
function failureOf(pi: Stripe.PaymentIntent): FailedPayment {
  const topUpId = Number(pi.metadata?.topUpId);
  return {
    providerOrderId: pi.id,
    reason: pi.last_payment_error?.message || 'The payment failed.',
    topUpId: Number.isSafeInteger(topUpId) ? topUpId : undefined,
  };
}

/**
 * Stripe PaymentIntents in INR, confirmed by Stripe.js in the browser; the credit comes from
 * `payment_intent.succeeded` (verified with the package's constructEvent) or from the page's
 * proof, which is checked by retrieving the intent from Stripe.
 */
export function createStripeProvider(
  settings: StripeSettings,
  stripe = new Stripe(settings.secretKey, { maxNetworkRetries: 2, timeout: 15_000 }),
): PaymentProvider {
  return {
    name: 'stripe',
    async createOrder(topUp) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: topUp.amount,
            currency: 'inr',
            automatic_payment_methods: { enabled: true },
            metadata: { userId: String(topUp.userId), topUpId: String(topUp.id) },
          },
          // A retry of this call after a timeout gets the same intent, not a second one.
          { idempotencyKey: `qm-topup-${topUp.id}` },
        );
        return {
          providerOrderId: pi.id,
          clientSecret: pi.client_secret ?? '',
          publishableKey: settings.publishableKey,
        };
      } catch {
        throw unavailable(PROVIDER_UNREACHABLE.createOrder);
      }
    },

    async confirm(proof: PaymentProof) {
      if (proof.providerPaymentId !== proof.providerOrderId) return null;
      try {
        const pi = await stripe.paymentIntents.retrieve(proof.providerPaymentId);
        return pi.status === 'succeeded' ? paymentOf(pi) : null;
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return null;
        throw unavailable(PROVIDER_UNREACHABLE.confirm);
      }
    },

    webhook(payload: Buffer, signature: string) {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret);
      } catch {
        throw invalid('Invalid webhook signature');
      }
      if (event.type === 'payment_intent.succeeded') return { paid: paymentOf(event.data.object) };
      if (event.type === 'payment_intent.payment_failed') return { failed: failureOf(event.data.object) };
      return null;
    },
  };
}
