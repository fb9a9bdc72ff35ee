import type { PaymentProviderName } from '@qm/contracts/rest';
import type { Faults, Logger } from '@qm/platform';
import type { Connection } from 'mongoose';
import type { TopUpSettings } from './config';
import { createDeliveries, type Deliveries } from './deliveries';
import type { PaymentProvider } from './provider';
import { withProviderFaults } from './faults';
import { createSandbox, type Sandbox } from './sandbox';
import { createStripeProvider } from './stripe';

export interface Providers {
  /** The provider new top-ups use (TopUpSettings.provider). */
  active: PaymentProvider;
  /** The sandbox itself, for its checkout: sandboxPay signs and announces the payments it makes up. */
  sandbox: Sandbox;
  deliveries: Deliveries;
  /** A provider whose proofs and webhooks the wallet can verify, by the name a top-up records. */
  byName(name: string): PaymentProvider | undefined;
}

/**
 * The providers the wallet knows: the one new top-ups use (`active`), and every one whose proofs
 * and webhooks it can still verify (a sandbox top-up opened before Stripe was configured still
 * credits; Stripe's only when its keys are set).
 */
export function createProviders(
  conn: Connection,
  settings: TopUpSettings,
  log: Logger,
  faults: Faults,
): Providers {
  const sandbox = createSandbox(settings.sandboxSecret);
  const stripe = settings.stripe ? createStripeProvider(settings.stripe) : undefined;
  const deliveries = createDeliveries(conn, {
    url: settings.webhookUrl,
    retryMs: settings.webhookRetryMs,
    log,
  });
  const known: Partial<Record<PaymentProviderName, PaymentProvider>> = {
    sandbox: withProviderFaults(sandbox.provider, faults),
    stripe: stripe && withProviderFaults(stripe, faults),
  };
  return {
    active: known[settings.provider]!,
    sandbox,
    deliveries,
    byName: (name: string): PaymentProvider | undefined =>
      Object.hasOwn(known, name) ? known[name as PaymentProviderName] : undefined,
  };
}
