import type { RequestHandler, Router } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics: process defaults plus request latency by route and status. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // The matched route pattern keeps label cardinality bounded (never the raw URL).
      const route = req.route?.path
        ? `${req.baseUrl}${String(req.route.path)}`
        : req.path.startsWith('/api')
          ? 'api-unmatched'
          : 'static';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  const expose = (router: Router) =>
    router.get('/metrics', async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    });
  return { registry, middleware, expose };
}
