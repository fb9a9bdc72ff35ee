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
 * Every call carries the request id and caller of the current context, and a deadline; a client
 * of an internal service also its own service identity. Each call is a client span whose trace
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
}

/** `qm.identity.v1.IdentityService`: every method's path is `/<service>/<Method>`. */
function serviceNameOf(definition: ServiceDef): string {
  const path = Object.values(definition)[0]?.path ?? '';
  return path.slice(1, path.lastIndexOf('/'));
}

export function createClient<D extends ServiceDef>(
  definition: D,
  address: string,
  { defaultDeadlineMs = 5000, identity }: ClientOptions = {},
): PromiseClient<D> {
  const Ctor = makeGenericClientConstructor(definition as never, serviceNameOf(definition));
  const raw = new Ctor(address, ChannelCredentials.createInsecure(), {
    interceptors: [contextInterceptor(defaultDeadlineMs, identity)],
    'grpc.keepalive_time_ms': 30_000,
  });
  const client: Record<string, unknown> = {
    raw,
    close: () => raw.close(),
  };
  for (const method of Object.keys(definition)) {
    client[method] = (request: unknown, opts: CallOpts = {}) =>
      new Promise((resolve, reject) => {
        const callOpts: CallOptions = opts.deadlineMs ? { deadline: Date.now() + opts.deadlineMs } : {};
        const fn = (raw as unknown as Record<string, Function>)[method]!;
        fn.call(raw, request, new Metadata(), callOpts, (err: Error | null, res: unknown) =>
          err ? reject(err) : resolve(res),
        );
      });
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
