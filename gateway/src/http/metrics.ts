import type { RequestHandler, Router } from 'express';
import { collectDefaultMetrics, Counter, Histogram, type Metric, Registry } from 'prom-client';
import type { AdmissionObserver } from '../admission';

/**
 * Prometheus metrics: process defaults, request latency by route and status, and `calls`, the
 * clients' own (callMetrics below).
 */
export function createMetrics(calls?: CallMetrics) {
  const registry = new Registry();
  // The event loop's delay sampled every 100 ms, not prom-client's default 10: each sample wakes the
  // loop, and 100 wakeups a second were half of an idle gateway's CPU
  // (docs/performance/2026-12-06-receivers-and-idle.md).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  for (const metric of calls?.metrics ?? []) registry.registerMetric(metric);
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

/** Which of a service's two admission lines a call stood in (docs/adr/041). */
export type Line = 'reads' | 'changes';

/**
 * What the gateway's calls to its services spend: the wait in their admission line, the calls
 * refused at it, and the call itself once sent. A request's latency is then split between the
 * gateway's queue and the service, which is what tells more slots from a slower service apart.
 */
export interface CallMetrics {
  line(service: string, line: Line): AdmissionObserver;
  /** Starts timing a call that was sent; the returned function ends it. */
  timeCall(service: string, method: string): () => void;
  readonly metrics: Metric[];
}

/** From a millisecond past the admission wait's limit (1 s) to the gRPC deadline (GRPC_DEADLINE_MS, 5 s). */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function callMetrics(): CallMetrics {
  const waited = new Histogram({
    name: 'gateway_admission_wait_seconds',
    help: 'Time a call to a service waited in its admission line before it was sent (0 when a slot was free)',
    labelNames: ['service', 'line'],
    buckets: [0, ...BUCKETS],
    registers: [],
  });
  const refused = new Counter({
    name: 'gateway_admission_refused_total',
    help: 'Calls refused by admission control with 503, never sent',
    labelNames: ['service', 'line', 'reason'],
    registers: [],
  });
  const called = new Histogram({
    name: 'gateway_upstream_call_seconds',
    help: 'Time from sending a call to a service to its answer, by gRPC method',
    labelNames: ['service', 'method'],
    buckets: BUCKETS,
    registers: [],
  });
  // Label sets bound once, not hashed again on every call of the request path.
  const methods = new Map<string, Histogram.Internal<'service' | 'method'>>();
  return {
    line: (service, line) => {
      const wait = waited.labels({ service, line });
      return {
        admitted: (waitedMs) => wait.observe(waitedMs / 1000),
        refused: (reason) => refused.inc({ service, line, reason }),
      };
    },
    timeCall: (service, method) => {
      const key = `${service}.${method}`;
      let timer = methods.get(key);
      if (!timer) methods.set(key, (timer = called.labels({ service, method })));
      return timer.startTimer();
    },
    metrics: [waited, refused, called],
  };
}
