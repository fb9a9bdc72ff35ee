import type { KeyObject } from 'node:crypto';
import {
  type Metadata,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { context } from '@opentelemetry/api';
import { HealthImplementation } from 'grpc-health-check';
import { type RequestContext, runWithContext } from '../context';
import { AppError, toServiceError, unauthenticated, unavailable } from '../errors';
import { type Faults, faultDelay } from '../faults';
import type { Logger } from '../logger';
import { endSpan, extractTrace, SpanKind, startSpan } from '../tracing/spans';
import { type CallerVerifier, createCallerVerifier, MD_CALLER } from './caller-assertion';
import { metadataGetter, metadataToContext, PLAIN_CALLER_HEADERS, rpcAttributes } from './metadata';
import { verifyServiceIdentity } from './service-identity';
import type { RequestOf, ResponseOf, ServiceDef } from './types';

export type UnaryImpl<D extends ServiceDef> = {
  [K in keyof D]: (request: RequestOf<D[K]>, ctx: RequestContext) => Promise<ResponseOf<D[K]>>;
};

export interface GrpcServer {
  readonly server: Server;
  /** Registers a service whose handlers are plain async functions; errors become gRPC statuses. */
  add<D extends ServiceDef>(serviceName: string, definition: D, impl: UnaryImpl<D>): void;
  /** On `host` (GRPC_HOST; loopback unless told otherwise). */
  listen(port: number, host?: string): Promise<number>;
  /** Serving at all: every health name, LIVENESS included (true once listening, false on close). */
  setServing(serving: boolean): void;
  /**
   * Ready for calls: "" and each service's name say SERVING only while serving and ready (false
   * while the database is unreachable, db-health.ts); LIVENESS does not follow it.
   */
  setReady(ready: boolean): void;
  close(): Promise<void>;
}

export interface GrpcServerOptions {
  /** INTERNAL_TOKEN: lets callers prove a service identity (ctx.service); without it none is accepted. */
  internalToken?: string;
  /** With the service's name: `<name>Unreachable` and `<name>LatencyMs` act before every call. */
  faults?: Faults;
  /** The service's name: the audience its caller assertions must name (docs/adr/021). */
  name?: string;
  /**
   * CALLER_VERIFY_KEY: verifies the caller assertions (docs/adr/021). Without it every call that
   * claims a user is refused (UNAUTHENTICATED); anonymous calls still reach the handlers.
   */
  callerKey?: KeyObject;
}

/**
 * The caller of a call, from its verified assertion only. A call claiming a user with plain
 * headers, or with an assertion that is forged, expired or meant for another service (unless that
 * service proved it is the one relaying it), is refused before any handler runs.
 */
async function authenticate(
  md: Metadata,
  ctx: RequestContext,
  self: string,
  verifier: CallerVerifier | undefined,
): Promise<void> {
  if (PLAIN_CALLER_HEADERS.some((h) => md.get(h).length > 0))
    throw unauthenticated('Caller headers are not accepted; a signed caller assertion is required');
  const values = md.get(MD_CALLER);
  if (values.length === 0) return;
  const token = values[0];
  if (values.length > 1 || typeof token !== 'string' || !verifier)
    throw unauthenticated('The caller assertion is missing, invalid or expired');
  const { caller } = await verifier.verify(token, { self, via: ctx.service });
  ctx.caller = caller;
  ctx.assertion = token;
}

/**
 * The health name Kubernetes' liveness probe asks (charts/): a database outage makes a service not
 * ready, but restarting every pod for it would not help (docs/adr/015).
 */
export const LIVENESS = 'liveness';

export function createGrpcServer(
  log: Logger,
  { internalToken, faults, name, callerKey }: GrpcServerOptions = {},
): GrpcServer {
  const verifier = callerKey ? createCallerVerifier(callerKey) : undefined;
  const beforeEachCall =
    faults?.active && name
      ? async () => {
          if (await faults.on(`${name}Unreachable`))
            throw unavailable(`The ${name} service is unreachable (fault flag ${name}Unreachable)`);
          await faultDelay(faults, `${name}LatencyMs`);
        }
      : undefined;
  const server = new Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
  const health = new HealthImplementation({ '': 'NOT_SERVING', [LIVENESS]: 'NOT_SERVING' });
  health.addToServer(server);
  const names: string[] = [''];
  let serving = false;
  let ready = true;
  const publish = () => {
    for (const name of names) health.setStatus(name, serving && ready ? 'SERVING' : 'NOT_SERVING');
    health.setStatus(LIVENESS, serving ? 'SERVING' : 'NOT_SERVING');
  };

  return {
    server,
    add(serviceName, definition, impl) {
      names.push(serviceName);
      health.setStatus(serviceName, 'NOT_SERVING');
      const handlers: Record<
        string,
        (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => void
      > = {};
      for (const method of Object.keys(definition)) {
        const fn = impl[method as keyof typeof impl];
        const path = definition[method]!.path;
        handlers[method] = (call, callback) => {
          const ctx = metadataToContext(call.metadata);
          const service = verifyServiceIdentity(call.metadata, internalToken);
          if (service) ctx.service = service;
          const started = process.hrtime.bigint();
          // The caller's span (traceparent in the metadata) is the parent of this server span.
          const { span, ctx: traced } = startSpan(
            path.slice(1),
            SpanKind.SERVER,
            ctx.requestId,
            rpcAttributes(path),
            extractTrace(call.metadata, metadataGetter),
          );
          context.with(traced, () =>
            runWithContext(ctx, () => {
              const run = () =>
                authenticate(call.metadata, ctx, name ?? '', verifier).then(() =>
                  fn(call.request as never, ctx),
                );
              (beforeEachCall ? beforeEachCall().then(run) : run()).then(
                (res) => {
                  log.debug({ path, ms: elapsed(started) }, 'grpc ok');
                  endSpan(span);
                  callback(null, res);
                },
                (err: unknown) => {
                  if (err instanceof AppError)
                    log.info({ path, code: err.code, msg: err.message }, 'grpc refused');
                  else log.error({ err, path }, 'grpc handler failed');
                  const failure = toServiceError(err);
                  if (failure.code !== undefined) span.setAttribute('rpc.grpc.status_code', failure.code);
                  // A refusal (AppError) is an answer, not a fault of this span.
                  endSpan(span, err instanceof AppError ? undefined : err);
                  callback(failure);
                },
              );
            }),
          );
        };
      }
      server.addService(definition as never, handlers);
    },
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (err, bound) => {
          if (err) reject(err);
          else resolve(bound);
        });
      });
    },
    setServing(on) {
      serving = on;
      publish();
    },
    setReady(on) {
      ready = on;
      publish();
    },
    close() {
      this.setServing(false);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 5000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

function elapsed(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
