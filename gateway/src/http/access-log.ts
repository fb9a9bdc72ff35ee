import type { RequestHandler } from 'express';
import type { Logger } from '@qm/platform';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One line per request: its id, what was asked, the outcome and the time taken. Headers are left
 * out on purpose — a request's carry the session cookie and a response's the security policy, so
 * logging them leaked sessions into the logs and cost ~2.5 KB of serialising per request.
 *
 * Written here rather than with pino-http, whose line is the same: pino-http also makes a child
 * logger for every request (binding the serialised request to it), which nothing of ours uses, and
 * that was 8 % of the gateway's CPU on a proxied read
 * (docs/performance/2026-11-28-gateway-read-floor.md).
 */
export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    if (QUIET_PATHS.has(req.url)) return next();
    const started = Date.now();
    const done = (err?: Error) => {
      res.off('finish', done);
      res.off('close', done);
      res.off('error', done);
      const line = {
        req: {
          id: res.getHeader('X-Request-Id'),
          method: req.method,
          url: req.originalUrl,
          remoteAddress: req.socket.remoteAddress,
        },
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - started,
      };
      if (err || res.statusCode >= 500)
        log.error(
          { ...line, err: err ?? new Error(`failed with status code ${res.statusCode}`) },
          'request errored',
        );
      else log.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    res.on('error', done);
    next();
  };
}
