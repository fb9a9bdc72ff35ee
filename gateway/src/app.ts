import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler, Router } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import type { GatewayDeps } from './deps';
import { accessLog } from './http/access-log';
import { createApi, type Api } from './http/api';
import { requestContext } from './http/context';
import { originCheck } from './http/csrf';
import { apiNotFound, errorHandler } from './http/errors';
import { frontendRoutes, REMOTES, SHELL_DEV_PORT, type UpgradeHandler } from './http/frontends';
import { healthRoutes } from './http/health';
import { createMetrics } from './http/metrics';
import { authenticate } from './http/session';
import { traceRequests } from './http/tracing';
import { registerRoutes } from './routes';
import { pageDataSource } from './routes/page-data';

/**
 * Builds the Express app and the one serving GET /metrics on the private METRICS_PORT; no listening,
 * so tests can drive them on any port.
 */
export function createApp(deps: GatewayDeps): {
  app: Express;
  api: Api;
  metrics: Express;
  upgrade?: UpgradeHandler;
} {
  const { config, log } = deps;
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For (the client address of rate limits and logs) only from the configured proxies:
  // anyone else could pick their own address with it.
  app.set('trust proxy', config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false);
  const metrics = createMetrics(deps.callMetrics);
  const keycloakOrigin = new URL(config.KEYCLOAK_PUBLIC_URL).origin;

  app.use(requestContext);
  app.use(accessLog(log));
  // API requests only: probes, metrics and static files would bury the traces that matter.
  app.use('/api', traceRequests);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // The shell loads remotes from our own origin; Keycloak (keycloak-js for SSO: token calls
          // and its silent-check iframe) is the one other origin the page talks to.
          'script-src': ["'self'"],
          // The API and its live events (SSE) are same-origin; only the dev servers' hot reload
          // needs a websocket (see devSockets).
          'connect-src': [
            "'self'",
            keycloakOrigin,
            ...(config.FRONTEND_DEV ? devSockets(config.PUBLIC_URL) : []),
          ],
          'frame-src': ["'self'", keycloakOrigin],
          'form-action': ["'self'", keycloakOrigin],
          'img-src': ["'self'", 'data:', 'blob:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          // Only where the app itself is served over https (not on http://localhost).
          'upgrade-insecure-requests': config.PUBLIC_URL.startsWith('https:') ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(compression());
  app.use(metrics.middleware);
  healthRoutes(app, config.services);
  // Metrics are served on METRICS_PORT only; here they are a 404 (not the SPA fallback's page).
  app.all('/metrics', (_req, res) => {
    res.status(404).json({ message: 'Not found' });
  });

  const apiRouter = Router();
  const api = createApi(apiRouter, { counters: deps.rateLimits });
  // A provider's webhook carries no session and comes from no page of ours: its signature is the
  // authority, so neither the origin check nor the session lookup applies to it.
  const unlessSessionless =
    (mw: RequestHandler): RequestHandler =>
    (req, res, next) =>
      api.isSessionless(req) ? next() : mw(req, res, next);
  apiRouter.use(cookieParser());
  apiRouter.use(unlessSessionless(originCheck([config.PUBLIC_URL])));
  apiRouter.use(unlessSessionless(authenticate(deps.sessions)));
  apiRouter.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  registerRoutes(api, deps);
  apiRouter.get('/openapi.json', (_req, res) => {
    res.json(api.document(config.PUBLIC_URL));
  });
  apiRouter.use('/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerUrl: '/api/openapi.json' }));
  apiRouter.use(apiNotFound);
  apiRouter.use(errorHandler(log));
  app.use('/api', apiRouter);

  const upgrade = frontendRoutes(app, {
    dist: config.FRONTEND_DIST,
    dev: config.FRONTEND_DEV,
    pageData: pageDataSource(deps),
  });
  app.use(errorHandler(log));
  const metricsApp = express();
  metricsApp.disable('x-powered-by');
  metrics.expose(metricsApp);
  return { app, api, metrics: metricsApp, upgrade };
}

/**
 * Hot reload's websockets in FRONTEND_DEV: through the gateway's own origin (which 'self' covers in
 * current browsers; named for those where it does not), or straight to the dev servers
 * (QM_HMR_DIRECT=1, frontends/rspack.shared.mjs).
 */
function devSockets(publicUrl: string): string[] {
  const own = new URL(publicUrl);
  own.protocol = own.protocol === 'https:' ? 'wss:' : 'ws:';
  const direct = [SHELL_DEV_PORT, ...Object.values(REMOTES)].map((p) => `ws://localhost:${p}`);
  return [own.origin, ...direct];
}
