import type { Logger } from '@qm/platform';
import { pinoHttp } from 'pino-http';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One line per request: its id, what was asked, the outcome and the time taken. Headers are left
 * out on purpose — a request's carry the session cookie and a response's the security policy, so
 * logging them leaked sessions into the logs and cost ~2.5 KB of serialising per request.
 */
export function accessLog(log: Logger) {
  return pinoHttp({
    logger: log,
    genReqId: (_req, res) => res.getHeader('X-Request-Id') as string,
    autoLogging: { ignore: (req) => QUIET_PATHS.has(req.url ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
