import { isServiceError } from '@qm/platform';
import type { GatewayDeps } from '../../deps';
import { limit } from '../../http/rate-limit';
import { isSessionManager, type SessionManager } from '../../session';

/**
 * Per client address, shared by every gateway replica; sign-in and the code routes also per account
 * (the username or email the request names, or the signed-in user), whatever the address.
 * 429 with a message (docs/product.md §9: rate limits on every code endpoint).
 */
export const LIMITS = {
  login: {
    windowMs: 60_000,
    limit: 20,
    key: 'ip+account',
    message: 'Too many sign-in attempts. Please try again in a minute.',
  },
  register: { windowMs: 15 * 60_000, limit: 20, message: 'Too many registrations. Please try again later.' },
  username: { windowMs: 60_000, limit: 120, message: 'Too many username checks. Please slow down.' },
  code: {
    windowMs: 15 * 60_000,
    limit: 30,
    key: 'ip+account',
    message: 'Too many requests. Please try again later.',
  },
} as const;

export const NO_CACHE = {
  'Cache-Control': 'no-store, no-cache, must-revalidate, private',
  Pragma: 'no-cache',
  Expires: '0',
};

export function grpcCode(err: unknown): number | undefined {
  return isServiceError(err) ? err.code : undefined;
}

/** What every identity route module is given: the gateway's deps, the session manager and the limits. */
export interface IdentityContext extends GatewayDeps {
  /** Undefined when the test harness stands in a plain resolver. */
  manager: SessionManager | undefined;
  /** A new limiter (its own counter) of one of LIMITS, scaled by AUTH_RATE_LIMIT_SCALE. */
  scaled(l: (typeof LIMITS)[keyof typeof LIMITS]): ReturnType<typeof limit>;
  codeLimit(): ReturnType<typeof limit>;
}

export function identityContext(deps: GatewayDeps): IdentityContext {
  // The test harness may stand in a plain resolver; sign-in then answers 503.
  const manager = isSessionManager(deps.sessions) ? deps.sessions : undefined;
  const scaled = (l: (typeof LIMITS)[keyof typeof LIMITS]) =>
    limit({ ...l, limit: Math.round(l.limit * deps.config.AUTH_RATE_LIMIT_SCALE) });
  return { ...deps, manager, scaled, codeLimit: () => scaled(LIMITS.code) };
}
