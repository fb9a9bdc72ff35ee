import {
  activityV1,
  assistantV1,
  catalogV1,
  identityV1,
  ordersV1,
  supportV1,
  walletV1,
} from '@qm/contracts/grpc';
import {
  type CallerSigner,
  createCallerSigner,
  createClient,
  type PromiseClient,
  type ServiceDef,
  unavailable,
} from '@qm/platform';
import type { ServiceName } from '@qm/roster';
import { type AdmissionLimits, createAdmission } from './admission';
import type { GatewayConfig } from './config';
import { inReadingRequest } from './http/context';
import { callMetrics, type CallMetrics } from './http/metrics';

/**
 * The generated contract of each service of the roster that is built; add a line here when a
 * service gains one (packages/roster/test checks this list against the roster).
 */
export const DEFINITIONS = {
  identity: identityV1.IdentityServiceService,
  catalog: catalogV1.CatalogServiceService,
  wallet: walletV1.WalletServiceService,
  orders: ordersV1.OrdersServiceService,
  support: supportV1.SupportServiceService,
  assistant: assistantV1.AssistantServiceService,
  activity: activityV1.ActivityServiceService,
} as const satisfies Partial<Record<ServiceName, ServiceDef>>;

type Defined = keyof typeof DEFINITIONS;
export type Clients = { [K in Defined]: PromiseClient<(typeof DEFINITIONS)[K]> };

/**
 * One long-lived client per configured service, each signing the session's user for the service
 * it calls (docs/adr/021), each call admitted by that service's admission control (docs/adr/026).
 * A service with no address configured answers every call with UNAVAILABLE, which the gateway
 * turns into a 503 rather than a crash.
 */
function createClients(
  addresses: Partial<Record<ServiceName, string>>,
  deadlineMs: number,
  signer: CallerSigner,
  admission: AdmissionLimits,
) {
  const metrics = callMetrics();
  const made: Partial<Record<Defined, { close(): void }>> = {};
  const clients = {} as Clients;
  for (const name of Object.keys(DEFINITIONS) as Defined[]) {
    const address = addresses[name];
    if (address) {
      made[name] = createClient(DEFINITIONS[name], address, {
        defaultDeadlineMs: deadlineMs,
        signer,
      });
      (clients as Record<string, unknown>)[name] = admitted(made[name], name, admission, metrics);
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
    /** What the calls spend in line and in the services, for the app's /metrics. */
    metrics,
    close: () => Object.values(made).forEach((c) => c?.close()),
  };
}

/** The clients a gateway with this configuration uses (main.ts, and the tests' gateways). */
export const clientsFromConfig = (
  config: Pick<GatewayConfig, 'services' | 'GRPC_DEADLINE_MS' | 'callerSigningKey' | 'admission'>,
) =>
  createClients(
    config.services,
    config.GRPC_DEADLINE_MS,
    createCallerSigner(config.callerSigningKey),
    config.admission,
  );

/**
 * The client with each of its calls run through one of its two admission controls: the reads' when
 * the request making it only reads, the changes' otherwise. A read then never waits in line behind
 * the service's purchases or transfers (docs/adr/041).
 */
function admitted<C extends object>(
  client: C,
  service: string,
  limits: AdmissionLimits,
  metrics: CallMetrics,
): C {
  const reads = createAdmission(limits, metrics.line(service, 'reads'));
  const changes = createAdmission(limits, metrics.line(service, 'changes'));
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) =>
        (inReadingRequest() ? reads : changes).run(async () => {
          const done = metrics.timeCall(service, String(prop));
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            done();
          }
        });
    },
  });
}
