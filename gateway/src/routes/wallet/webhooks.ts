import { z } from 'zod';
import type { Api } from '../../http/api';
import type { WalletContext } from './context';

/** Stripe sends events up to a few hundred KB; the sandbox's are small. */
const WEBHOOK_BODY_LIMIT = '1mb';

const signatureHeader = (name: string) =>
  z
    .string({ error: `The ${name} header is required` })
    .min(1, `The ${name} header is required`)
    .max(4096, `The ${name} header is too long`);

const PROVIDERS = [
  {
    provider: 'stripe',
    header: 'stripe-signature',
    summary:
      "Stripe's webhook (payment_intent.succeeded credits the top-up once). Verified by the wallet " +
      'service against STRIPE_WEBHOOK_SECRET over the exact bytes received.',
  },
  {
    provider: 'sandbox',
    header: 'x-sandbox-signature',
    summary:
      "The sandbox provider's webhook, which the wallet service sends itself so a closed checkout tab " +
      'still credits. Verified against SANDBOX_SIGNING_SECRET over the exact bytes received.',
  },
] as const;

/**
 * Payment providers' webhooks: no session and no origin check (the signature is the authority); the
 * body goes to the wallet service byte for byte, as its signature covers exactly those bytes.
 */
export function registerWebhookRoutes(api: Api, { clients, limited }: WalletContext): void {
  for (const { provider, header, summary } of PROVIDERS) {
    api.route({
      method: 'post',
      path: `/api/webhooks/${provider}`,
      tag: 'Webhooks',
      summary,
      access: 'public',
      csrf: false,
      raw: { limit: WEBHOOK_BODY_LIMIT, description: `The ${provider} event, exactly as signed` },
      headers: z.object({ [header]: signatureHeader(header) }),
      before: [limited('webhook')],
      response: z.object({ received: z.literal(true) }),
      errors: { 400: 'A missing or bad signature, or an event that does not parse: nothing is credited' },
      async handler({ rawBody, headers }) {
        await clients.wallet.handleProviderWebhook({
          provider,
          payload: rawBody!,
          signature: (headers as Record<string, string>)[header]!,
        });
        return { received: true };
      },
    });
  }
}
