import {
  type CallOptions,
  ChannelCredentials,
  type Client,
  InterceptingCall,
  type Interceptor,
  makeGenericClientConstructor,
  Metadata,
} from '@grpc/grpc-js';
import { currentContext } from '../context';
import { contextToMetadata } from './metadata';
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
 * of an internal service also its own service identity.
 */
function contextInterceptor(defaultDeadlineMs: number, identity?: ServiceIdentity): Interceptor {
  return (options, nextCall) => {
    if (!options.deadline) options.deadline = Date.now() + defaultDeadlineMs;
    return new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        contextToMetadata(currentContext(), metadata);
        if (identity) signServiceIdentity(metadata, identity);
        next(metadata, listener);
      },
    });
  };
}

export function createClient<D extends ServiceDef>(
  serviceName: string,
  definition: D,
  address: string,
  {
    defaultDeadlineMs = 5000,
    identity,
  }: {
    defaultDeadlineMs?: number;
    /** Calls as this internal service (e.g. orders with INTERNAL_TOKEN); never in the gateway. */
    identity?: ServiceIdentity;
  } = {},
): PromiseClient<D> {
  const Ctor = makeGenericClientConstructor(definition as never, serviceName);
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
