import { ConfigError } from '@qm/platform';
import type { PaymentProviderName } from '@qm/contracts/rest';
import { z } from 'zod';
import { DEFAULT_EXPIRY_MINUTES } from '../domain/topups';

/** A development-only signing secret: the sandbox moves no real money, but production must set its own. */
const DEV_SANDBOX_SECRET = 'qm-dev-sandbox-signing-secret-not-for-production';

/** The top-up's environment (spread into walletEnv). */
export const topUpEnv = {
  /** auto: Stripe when both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set, else the sandbox. */
  WALLET_PROVIDER: z.enum(['auto', 'sandbox', 'stripe']).default('auto'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Handed to Stripe.js in the browser with each PaymentIntent's client secret. */
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  /** Signs the sandbox's payment proofs and webhooks; a fixed value outside production. */
  SANDBOX_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where the sandbox delivers its webhooks: the gateway's route, which calls HandleProviderWebhook. */
  WALLET_WEBHOOK_URL: z.url().default('http://127.0.0.1:8080/api/webhooks/sandbox'),
  /** How often undelivered sandbox webhooks are retried (the base of the backoff); 0 turns delivery off. */
  WEBHOOK_RETRY_MS: z.coerce.number().int().min(0).default(2000),
  /** A checkout not paid within this time expires: its pending line fails with "Expired: …". */
  TOPUP_EXPIRY_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(DEFAULT_EXPIRY_MINUTES),
};

type TopUpEnv = z.infer<z.ZodObject<typeof topUpEnv>> & { NODE_ENV: string };

export interface TopUpSettings {
  provider: PaymentProviderName;
  sandboxSecret: string;
  stripe?: { secretKey: string; webhookSecret: string; publishableKey: string };
  webhookUrl: string;
  webhookRetryMs: number;
}

/** The provider in use and its secrets; a missing secret is a start-up error, never a runtime surprise. */
export function topUpSettings(env: TopUpEnv): TopUpSettings {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = env;
  const stripeKeys = secretKey && webhookSecret ? { secretKey, webhookSecret } : undefined;
  if (env.WALLET_PROVIDER === 'stripe' && !stripeKeys)
    throw new ConfigError(
      'Invalid configuration:\n  WALLET_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  const sandboxSecret =
    env.SANDBOX_SIGNING_SECRET ?? (env.NODE_ENV === 'production' ? undefined : DEV_SANDBOX_SECRET);
  if (!sandboxSecret)
    throw new ConfigError('Invalid configuration:\n  SANDBOX_SIGNING_SECRET: required in production');
  const useStripe = env.WALLET_PROVIDER === 'stripe' || (env.WALLET_PROVIDER === 'auto' && !!stripeKeys);
  return {
    provider: useStripe ? 'stripe' : 'sandbox',
    sandboxSecret,
    stripe: stripeKeys && { ...stripeKeys, publishableKey: env.STRIPE_PUBLISHABLE_KEY },
    webhookUrl: env.WALLET_WEBHOOK_URL,
    webhookRetryMs: env.WEBHOOK_RETRY_MS,
  };
}
