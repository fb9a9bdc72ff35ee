import type { RequestHandler } from 'express';
import { HttpError } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence beside SameSite cookies (docs/architecture.md §4): a state-changing request must come from
 * one of our own origins. Browsers always send Origin on cross-site POSTs, so a foreign or
 * missing-but-cookie-carrying request is refused.
 */
export function originCheck(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((o) => new URL(o).origin));
  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.get('origin') ?? refererOrigin(req.get('referer'));
    if (origin) {
      const self = `${req.protocol}://${req.get('host')}`;
      if (allowed.has(origin) || origin === self) return next();
      return next(new HttpError(403, 'Cross-site request refused'));
    }
    // No Origin at all: a non-browser client. Only refuse it when it rides on a browser session.
    if (req.headers.cookie?.includes('qm_session='))
      return next(new HttpError(403, 'Cross-site request refused'));
    next();
  };
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
