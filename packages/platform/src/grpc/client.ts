import {
  type CallOptions,
  ChannelCredentials,
  type Client,
  InterceptingCall,
  type Interceptor,
  makeGenericClientConstructor,
  Metadata,
  status as grpcStatus,
} from '@grpc/grpc-js';
import { currentContext } from '../context';
import { endSpan, injectTrace, SpanKind, startSpan } from '../tracing/spans';
import { type CallerSigner, MD_CALLER } from './caller-assertion';
import { contextToMetadata, MD_REQUEST_ID, metadataSetter, rpcAttributes } from './metadata';
import { type ServiceIdentity, signServiceIdentity } from './service-identity';
import type { RequestOf, ResponseOf, ServiceDef } from './types';

export interface CallOpts {
  deadlineMs?: number;
}

export type PromiseClient<D extends ServiceDef> = {
  [K in keyof D]: (request: RequestOf<D[K]>, opts?: CallOpts) => Promise<ResponseOf<D[K]>>;
} & { readonly raw: Client; close(): void };

/**
 * Every call carries the request id of the current context, its caller's assertion when it has
 * one (relayed unchanged, docs/adr/021), and a deadline; a client of an internal service also its
 * own service identity. Each call is a client span whose trace
 * context travels in the metadata (traceparent).
 */
function contextInterceptor(defaultDeadlineMs: number, identity?: ServiceIdentity): Interceptor {
  return (options, nextCall) => {
    if (!options.deadline) options.deadline = Date.now() + defaultDeadlineMs;
    const path = options.method_definition.path;
    return new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        contextToMetadata(currentContext(), metadata);
        if (identity) signServiceIdentity(metadata, identity);
        const requestId = metadata.get(MD_REQUEST_ID)[0]?.toString();
        const { span, ctx } = startSpan(path.slice(1), SpanKind.CLIENT, requestId, rpcAttributes(path));
        injectTrace(metadata, metadataSetter, ctx);
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            span.setAttribute('rpc.grpc.status_code', status.code);
            endSpan(span, status.code === grpcStatus.OK ? undefined : new Error(status.details));
            nextStatus(status);
          },
        });
      },
    });
  };
}

export interface ClientOptions {
  defaultDeadlineMs?: number;
  /** Calls as this internal service (e.g. orders with INTERNAL_TOKEN); never in the gateway. */
  identity?: ServiceIdentity;
  /**
   * Signs the current context's caller for the callee (the gateway, and tests with the dev key;
   * docs/adr/021). Without it a caller can only be relayed from the assertion it came with.
   */
  signer?: CallerSigner;
}

/** The service a definition belongs to, as it names itself: `qm.wallet.v1.WalletService` → wallet. */
export function audienceOf(definition: ServiceDef): string {
  return serviceNameOf(definition).split('.')[1] ?? '';
}

/** The assertion for a call in the current context: the one it came with, or a new one. */
async function callerAssertion(audience: string, signer: CallerSigner | undefined) {
  const ctx = currentContext();
  if (!ctx?.caller) return undefined;
  if (ctx.assertion) return ctx.assertion;
  if (!signer)
    throw new Error(
      `A call to ${audience} on behalf of user ${ctx.caller.userId} has no caller assertion to relay ` +
        'and no signer (only the gateway signs them, docs/adr/021)',
    );
  return signer.assertionFor(ctx.caller, audience);
}

/** `qm.identity.v1.IdentityService`: every method's path is `/<service>/<Method>`. */
function serviceNameOf(definition: ServiceDef): string {
  const path = Object.values(definition)[0]?.path ?? '';
  return path.slice(1, path.lastIndexOf('/'));
}

/**
 * The channel target of a configured address. `a:p,b:p` names the replicas itself (the local
 * stack's REPLICAS, docs/adr/025); `dns:///name:port` is resolved by DNS, every address it returns
 * being a replica (the chart's headless Services); a plain `host:port` is one server.
 */
export function channelTarget(address: string): string {
  const parts = address.split(',').map((a) => a.trim());
  return parts.length > 1 ? `ipv4:${parts.join(',')}` : address;
}

/** Several replicas behind the address: calls are balanced over them. */
export const hasReplicas = (address: string) => address.includes(',') || address.startsWith('dns:');

/** Each call goes to the next ready replica, not every call to the first one connected. */
const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

/**
 * A restarted server is connected again within 2 s of being up. The default backoff grows to two
 * minutes, during which a round-robin channel whose every replica was down fails each call at once.
 */
const RECONNECT = { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 2000 };

/** Calls that change nothing, by the names our protos give them. */
const READ_METHOD = /^(Get|List|Check|Lookup)[A-Z]/;

/**
 * Whether a call may be sent again to another replica after UNAVAILABLE: a read, or a write that
 * carries an idempotency key (the callee answers a repeat with the first outcome, docs/adr/006).
 */
export function isRetriable(method: string, request: unknown): boolean {
  if (READ_METHOD.test(method)) return true;
  const key = (request as { idempotencyKey?: unknown } | null)?.idempotencyKey;
  return typeof key === 'string' && key.length > 0;
}

/** Attempts of a retriable call, and the pause before each repeat (a replica's death is seen in ms). */
const RETRY_PAUSES_MS = [25, 150];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createClient<D extends ServiceDef>(
  definition: D,
  address: string,
  { defaultDeadlineMs = 5000, identity, signer }: ClientOptions = {},
): PromiseClient<D> {
  const audience = audienceOf(definition);
  const Ctor = makeGenericClientConstructor(definition as never, serviceNameOf(definition));
  const raw = new Ctor(channelTarget(address), ChannelCredentials.createInsecure(), {
    interceptors: [contextInterceptor(defaultDeadlineMs, identity)],
    'grpc.keepalive_time_ms': 30_000,
    ...RECONNECT,
    ...(hasReplicas(address) ? { 'grpc.service_config': ROUND_ROBIN } : {}),
  });
  const client: Record<string, unknown> = {
    raw,
    close: () => raw.close(),
  };
  for (const method of Object.keys(definition)) {
    const fn = (raw as unknown as Record<string, Function>)[method]!;
    const once = (request: unknown, md: Metadata, deadline: number) =>
      new Promise((resolve, reject) => {
        const callOpts: CallOptions = { deadline };
        fn.call(raw, request, md, callOpts, (err: Error | null, res: unknown) =>
          err ? reject(err) : resolve(res),
        );
      });
    client[method] = async (request: unknown, opts: CallOpts = {}) => {
      const md = new Metadata();
      const assertion = await callerAssertion(audience, signer);
      if (assertion) md.set(MD_CALLER, assertion);
      // One deadline for all attempts: a repeat never makes the caller wait longer than asked.
      const deadline = Date.now() + (opts.deadlineMs ?? defaultDeadlineMs);
      const retriable = isRetriable(method, request);
      for (let attempt = 0; ; attempt++) {
        try {
          return await once(request, md, deadline);
        } catch (err) {
          const pause = RETRY_PAUSES_MS[attempt];
          const again =
            retriable &&
            pause !== undefined &&
            (err as { code?: number }).code === grpcStatus.UNAVAILABLE &&
            Date.now() + pause < deadline;
          if (!again) throw err;
          await sleep(pause);
        }
      }
    };
  }
  return client as PromiseClient<D>;
}

export type ClientsOf<M extends Record<string, ServiceDef>> = { [K in keyof M]: PromiseClient<M[K]> };

/** A client of each service of `definitions`, at its address in `addresses`, with the same options. */
export function createClients<M extends Record<string, ServiceDef>>(
  definitions: M,
  addresses: { [K in keyof M]: string },
  opts: ClientOptions = {},
): { clients: ClientsOf<M>; close(): void } {
  const clients = Object.fromEntries(
    Object.entries(definitions).map(([name, definition]) => [
      name,
      createClient(definition, addresses[name as keyof M], opts),
    ]),
  ) as ClientsOf<M>;
  return { clients, close: () => Object.values(clients).forEach((c) => c.close()) };
}
