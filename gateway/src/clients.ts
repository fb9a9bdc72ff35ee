import { assistantV1, catalogV1, identityV1 } from '@qm/contracts/grpc';
import { createClient, type PromiseClient, type ServiceDef, unavailable } from '@qm/platform';
import type { ServiceName } from './config';

/** The gRPC service each downstream serves; add a line here when a service gains a contract. */
const DEFINITIONS = {
  catalog: ['qm.catalog.v1.CatalogService', catalogV1.CatalogServiceService],
  identity: ['qm.identity.v1.IdentityService', identityV1.IdentityServiceService],
  assistant: ['qm.assistant.v1.AssistantService', assistantV1.AssistantServiceService],
} as const satisfies Partial<Record<ServiceName, readonly [string, ServiceDef]>>;

type Defined = keyof typeof DEFINITIONS;
export type Clients = { [K in Defined]: PromiseClient<(typeof DEFINITIONS)[K][1]> };

/**
 * One long-lived client per configured service. A service with no address configured answers
 * every call with UNAVAILABLE, which the gateway turns into a 503 rather than a crash.
 */
export function createClients(addresses: Partial<Record<ServiceName, string>>, deadlineMs: number) {
  const made: Partial<Record<Defined, { close(): void }>> = {};
  const clients = {} as Clients;
  for (const name of Object.keys(DEFINITIONS) as Defined[]) {
    const [serviceName, definition] = DEFINITIONS[name];
    const address = addresses[name];
    if (address) {
      made[name] = createClient(serviceName, definition, address, { defaultDeadlineMs: deadlineMs });
      (clients as Record<string, unknown>)[name] = made[name];
    } else {
      (clients as Record<string, unknown>)[name] = new Proxy(
        {},
        {
          get: () => () => Promise.reject(unavailable(`The ${name} service is not configured`)),
        },
      );
    }
  }
  return {
    clients,
    close: () => Object.values(made).forEach((c) => c?.close()),
  };
}
