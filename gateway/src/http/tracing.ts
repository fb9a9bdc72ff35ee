import type { RequestHandler } from 'express';
import { endSpan, extractTrace, SpanKind, startSpan, withTraceContext } from '@qm/platform';

/**
 * A server span per API request, the root of its trace unless the client sent a W3C traceparent;
 * the gRPC calls made while handling it are its children (docs/adr/016-traces.md). Runs inside
 * requestContext, so the span carries the request id the response's X-Request-Id shows.
 */
export const traceRequests: RequestHandler = (req, res, next) => {
  const { span, ctx } = startSpan(
    req.method,
    SpanKind.SERVER,
    res.locals.ctx.requestId,
    { 'http.request.method': req.method, 'url.path': req.originalUrl.split('?')[0] },
    extractTrace(req.headers),
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    // The route is known once a handler matched: "POST /api/products/:id", not the id itself.
    const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : undefined;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    endSpan(span, res.statusCode >= 500 ? new Error(`HTTP ${res.statusCode}`) : undefined);
  };
  res.once('finish', end);
  res.once('close', end);
  withTraceContext(ctx, next);
};
