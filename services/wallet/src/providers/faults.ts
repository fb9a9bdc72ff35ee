import { type Faults, unavailable } from '@qm/platform';
import { type PaymentProvider, PROVIDER_UNREACHABLE } from './provider';

/**
 * A provider under the fault flag paymentProviderUnreachable (docs/FAULTS.md): checkouts and
 * verifications fail as when Stripe cannot be reached. Webhooks still arrive: a provider that
 * comes back delivers what it owes.
 */
export function withProviderFaults(provider: PaymentProvider, faults: Faults): PaymentProvider {
  const reachable = async (call: keyof typeof PROVIDER_UNREACHABLE) => {
    if (await faults.on('paymentProviderUnreachable')) throw unavailable(PROVIDER_UNREACHABLE[call]);
  };
  return {
    name: provider.name,
    async createOrder(topUp) {
      await reachable('createOrder');
      return provider.createOrder(topUp);
    },
    async confirm(proof) {
      await reachable('confirm');
      return provider.confirm(proof);
    },
    webhook: (payload, signature) => provider.webhook(payload, signature),
  };
}
