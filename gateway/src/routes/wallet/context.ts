import { IdempotencyKeyHeader, WALLET_LIMITS } from '@qm/contracts/rest';
import { GrpcStatus, isServiceError } from '@qm/platform';
import { z } from 'zod';
import type { GatewayDeps } from '../../deps';
import { HttpError } from '../../http/errors';
import { limit } from '../../http/rate-limit';

/**
 * Rate limits of the wallet's routes, scaled by AUTH_RATE_LIMIT_SCALE (load tests). Signed-in routes
 * count per user; the webhooks, per sending address (a provider's retries stay well inside).
 */
export const WALLET_RATE_LIMITS = {
  sendOtp: { windowMs: 15 * 60_000, limit: 10, message: 'Too many codes requested. Please try again later.' },
  verifyOtp: { windowMs: 15 * 60_000, limit: 30, message: 'Too many requests. Please try again later.' },
  eligibility: { windowMs: 60_000, limit: 120, message: 'Too many username checks. Please slow down.' },
  sandboxPay: {
    windowMs: 60_000,
    limit: 30,
    message: 'Too many payment attempts. Please try again in a minute.',
  },
  webhook: { windowMs: 60_000, limit: 600, message: 'Too many webhook deliveries. Retry later.' },
} as const;

export interface WalletContext extends GatewayDeps {
  /** A new limiter (its own counter) of one of WALLET_RATE_LIMITS. */
  limited(name: keyof typeof WALLET_RATE_LIMITS): ReturnType<typeof limit>;
}

export function walletContext(deps: GatewayDeps): WalletContext {
  return {
    ...deps,
    limited: (name) => {
      const l = WALLET_RATE_LIMITS[name];
      return limit({
        ...l,
        limit: Math.round(l.limit * deps.config.AUTH_RATE_LIMIT_SCALE),
        key: name === 'webhook' ? 'ip' : 'user',
      });
    },
  };
}

/** The optional Idempotency-Key of a money-moving call (Stripe's semantics), as a header schema. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': IdempotencyKeyHeader.optional().meta({
    description:
      `Optional, up to ${WALLET_LIMITS.idempotencyKeyMaxChars} printable ASCII characters, scoped to the ` +
      'caller. A retry with the same key and body answers the first outcome again with no new effect ' +
      '(kept at least 24 h); the same key with another body is a 409 naming what differs.',
  }),
});

/** What the OpenAPI document says about a reused key. */
export const IDEMPOTENCY_409 =
  'The Idempotency-Key was used with a different request (the message names the fields), or its ' +
  'first request is still being processed';

/**
 * Answers some of the service's refusals with the HTTP status their meaning has on this route
 * (e.g. a PIN lock is 423, not the 429 RESOURCE_EXHAUSTED otherwise maps to), keeping the message.
 */
export async function remap<T>(
  call: Promise<T>,
  statusFor: (code: GrpcStatus, message: string) => number | undefined,
): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const status = isServiceError(err) ? statusFor(err.code, err.details) : undefined;
    if (status !== undefined && isServiceError(err)) throw new HttpError(status, err.details);
    throw err;
  }
}

export { GrpcStatus };
