import type { RequestHandler } from 'express';
import { type Caller, currentContext, newRequestId, type RequestContext, runWithContext } from '@qm/platform';

const REQUEST_ID = /^[\w-]{8,64}$/;

declare module 'express-serve-static-core' {
  interface Locals {
    ctx: RequestContext;
  }
}

/** The context of a request at the edge: the platform's, and whether the request only reads. */
interface EdgeContext extends RequestContext {
  /** Its HTTP method is safe (RFC 9110 §9.2.1: GET or HEAD), so every call it makes only reads. */
  reads: boolean;
}

/**
 * Every request runs in a context carrying its id (from X-Request-Id when sane), whether it only
 * reads, and, once known, the caller.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const ctx: EdgeContext = {
    requestId: incoming && REQUEST_ID.test(incoming) ? incoming : newRequestId(),
    reads: req.method === 'GET' || req.method === 'HEAD',
  };
  res.locals.ctx = ctx;
  res.setHeader('X-Request-Id', ctx.requestId);
  runWithContext(ctx, next);
};

export function callerOf(locals: { ctx: RequestContext }): Caller | undefined {
  return locals.ctx.caller;
}

/** Whether the call being made is one of a request that only reads (false outside a request). */
export const inReadingRequest = (): boolean =>
  (currentContext() as Partial<EdgeContext> | undefined)?.reads === true;
