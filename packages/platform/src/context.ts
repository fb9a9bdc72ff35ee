import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { forbidden, unauthenticated } from './errors';

/**
 * Who is calling, as established by the gateway's session and passed on in gRPC metadata as a
 * signed assertion (grpc/caller-assertion, docs/adr/021). Role
 * names are the product's (@qm/contracts/rest USER_ROLES); the platform only carries them.
 */
export interface Caller {
  userId: number;
  username: string;
  roles: string[];
}

export interface RequestContext {
  requestId: string;
  caller?: Caller;
  /**
   * The verified assertion `caller` came from: relayed unchanged by this service's clients on calls
   * made on the caller's behalf (docs/adr/021).
   */
  assertion?: string;
  /**
   * The internal service making this call, when it proved its identity (grpc/service-identity).
   * Set by the receiving server for one hop only: never passed on to the next call.
   */
  service?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function newRequestId(): string {
  return randomUUID();
}

export function hasRole(caller: Caller | undefined, role: string): boolean {
  return !!caller?.roles.includes(role);
}

/** The caller of a use case that acts for a signed-in user; UNAUTHENTICATED without one. */
export function signedInCaller(caller: Caller | undefined): Caller {
  if (!caller) throw unauthenticated();
  return caller;
}

/** The caller of an administrators' use case; UNAUTHENTICATED without one, PERMISSION_DENIED for others. */
export function adminCaller(caller: Caller | undefined, refusal = 'Administrator access required'): Caller {
  const signedIn = signedInCaller(caller);
  if (!hasRole(signedIn, 'Admin')) throw forbidden(refusal);
  return signedIn;
}
