import type { RequestHandler } from 'express';
import { type Caller, newRequestId, type RequestContext, runWithContext } from '@qm/platform';

const REQUEST_ID = /^[\w-]{8,64}$/;

declare module 'express-serve-static-core' {
  interface Locals {
    ctx: RequestContext;
  }
}

/** Every request runs in a context carrying its id (from X-Request-Id when sane) and, once known, the caller. */
export const requestContext: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const ctx: RequestContext = {
    requestId: incoming && REQUEST_ID.test(incoming) ? incoming : newRequestId(),
  };
  res.locals.ctx = ctx;
  res.setHeader('X-Request-Id', ctx.requestId);
  runWithContext(ctx, next);
};

export function callerOf(locals: { ctx: RequestContext }): Caller | undefined {
  return locals.ctx.caller;
}
