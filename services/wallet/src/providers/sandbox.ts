import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalid } from '@qm/platform';
import { z } from 'zod';
import type { ConfirmedPayment, PaymentProof, PaymentProvider, ProviderEvent } from './provider';

/** The sandbox's webhook body (signed as raw bytes with the signing secret). */
const SandboxEvent = z.object({
  type: z.string(),
  orderId: z.string().min(1),
  paymentId: z.string().min(1),
});

export const SANDBOX_PAYMENT_SUCCEEDED = 'payment.succeeded';

const hmac = (secret: string, data: string | Buffer) =>
  createHmac('sha256', secret).update(data).digest('hex');

/** Compares in constant time, so a forger learns nothing from how long a refusal takes. */
function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The built-in provider ("Sandbox — no real money"): its orders and payments are ids it makes up,
 * its proof of payment an HMAC-SHA256 over `${orderId}|${paymentId}`, and its webhooks a JSON body
 * whose HMAC travels in a header. Charging a card is app/topups.ts's sandboxPay.
 */
export interface Sandbox {
  provider: PaymentProvider;
  /** The proof of a payment: the HMAC of `${orderId}|${paymentId}`. */
  sign(providerOrderId: string, providerPaymentId: string): string;
  newPaymentId(): string;
  /** The webhook announcing a payment: its raw body and the signature header's value. */
  webhookFor(orderId: string, paymentId: string): { body: string; signature: string };
}

export function createSandbox(secret: string): Sandbox {
  const sign = (providerOrderId: string, providerPaymentId: string) =>
    hmac(secret, `${providerOrderId}|${providerPaymentId}`);

  const provider: PaymentProvider = {
    name: 'sandbox',
    async createOrder() {
      return {
        providerOrderId: `sbx_order_${randomBytes(12).toString('hex')}`,
        clientSecret: '',
        publishableKey: '',
      };
    },
    async confirm(proof: PaymentProof): Promise<ConfirmedPayment | null> {
      const expected = sign(proof.providerOrderId, proof.providerPaymentId);
      if (!sameSignature(expected, proof.providerSignature)) return null;
      return { providerOrderId: proof.providerOrderId, providerPaymentId: proof.providerPaymentId };
    },
    webhook(payload: Buffer, signature: string): ProviderEvent | null {
      if (!sameSignature(hmac(secret, payload), signature)) throw invalid('Invalid webhook signature');
      let body: unknown;
      try {
        body = JSON.parse(payload.toString('utf8'));
      } catch {
        throw invalid('Webhook payload is not JSON');
      }
      const event = SandboxEvent.safeParse(body);
      if (!event.success) throw invalid('Webhook payload is not a sandbox event');
      if (event.data.type !== SANDBOX_PAYMENT_SUCCEEDED) return null;
      return { paid: { providerOrderId: event.data.orderId, providerPaymentId: event.data.paymentId } };
    },
  };

  return {
    provider,
    sign,
    newPaymentId: () => `sbx_pay_${randomBytes(12).toString('hex')}`,
    webhookFor(orderId: string, paymentId: string): { body: string; signature: string } {
      const body = JSON.stringify({ type: SANDBOX_PAYMENT_SUCCEEDED, orderId, paymentId });
      return { body, signature: hmac(secret, body) };
    },
  };
}
