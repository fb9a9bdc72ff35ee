import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, GrpcStatus, httpStatusForGrpc, isServiceError, type Logger } from '@qm/platform';

/** A refusal decided in the gateway itself (validation, auth, CSRF, rate limit). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as Retry-After: when the same request may be sent again (a 503 of admission control). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

const GENERIC: Record<number, string> = {
  503: 'Service temporarily unavailable. Please try again shortly.',
  504: 'The service took too long to answer. Please try again.',
};

/** The message a user should see for a zod failure: the first issue's own message. */
export function zodMessage(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'Invalid request';
  return issue.message;
}

export function errorResponse(err: unknown): { status: number; message: string } {
  if (err instanceof HttpError) return { status: err.status, message: err.message };
  if (err instanceof z.ZodError) return { status: 400, message: zodMessage(err) };
  if (err instanceof AppError) return { status: httpStatusForGrpc(err.code), message: err.message };
  if (isServiceError(err)) {
    const status = httpStatusForGrpc(err.code);
    if (status >= 500) return { status, message: GENERIC[status] ?? 'Internal server error' };
    return { status, message: err.details || 'Request refused' };
  }
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string; code?: unknown };
  if (e?.type === 'entity.parse.failed') return { status: 400, message: 'Request body is not valid JSON' };
  // zlib's own words ("incorrect header check") for a body that is not the Content-Encoding it claims.
  if (e?.status === 400 && typeof e.code === 'string' && /^(Z_|ERR_(_|BROTLI))/.test(e.code))
    return { status: 400, message: 'Request body could not be decompressed as its Content-Encoding says' };
  if (e?.type === 'entity.too.large') return { status: 413, message: 'Request body is too large' };
  // The router decodes path parameters; a malformed escape (`/api/products/%zz`) throws there.
  if (err instanceof URIError) return { status: 400, message: 'Malformed URL: invalid percent-encoding' };
  if (e?.expose && e.status && e.status < 500)
    return { status: e.status, message: e.message ?? 'Bad request' };
  return { status: 500, message: 'Internal server error' };
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { status, message } = errorResponse(err);
    const shed = err instanceof HttpError && err.retryAfterSeconds !== undefined;
    // A shed call is the design working (docs/adr/026); the metrics count its 503s.
    if (shed) log.debug({ path: req.path }, 'shed at the admission limit');
    else if (status >= 500) log.error({ err, path: req.path }, 'request failed');
    else if (isServiceError(err) && err.code === GrpcStatus.UNAVAILABLE)
      log.warn({ path: req.path }, 'downstream down');
    if (res.headersSent) return;
    if (shed) res.set('Retry-After', String(err.retryAfterSeconds));
    res.status(status).json({ message });
  };
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ message: `No API route for ${req.method} ${req.originalUrl.split('?')[0]}` });
};
