import { createLogger, exitOnConfigError, initTracing, shutdownTracing } from '@qm/platform';
import { createApp } from './app';
import { clientsFromConfig } from './clients';
import { parseGatewayConfig } from './config';
import { mongoHitCounter } from './http/rate-limit-store';
import { createLiveHub } from './live/hub';
import { sessionsFromConfig } from './session';

const config = exitOnConfigError(() => parseGatewayConfig());
const log = createLogger('gateway', config.LOG_LEVEL);
if (initTracing({ serviceName: 'gateway', env: config }))
  log.info(
    { otlp: config.OTEL_EXPORTER_OTLP_ENDPOINT, zipkin: config.OTEL_EXPORTER_ZIPKIN_ENDPOINT },
    'tracing on',
  );
const { clients, metrics: callMetrics, close } = clientsFromConfig(config);

async function main() {
  // Sessions in MongoDB (qm_gateway), tokens refreshed through the identity service.
  const { sessions, bus, close: closeSessions } = await sessionsFromConfig(config, clients, log);
  sessions.start();
  const live = createLiveHub({ bus, log });
  // Rate limits counted in the same database, shared by every replica and kept across restarts.
  const rateLimits = mongoHitCounter({
    url: config.MONGO_URL,
    db: config.MONGO_DB,
    engine: config.storeEngine,
  });
  const { app, metrics, upgrade } = createApp({
    config,
    log,
    clients,
    sessions,
    live,
    rateLimits,
    callMetrics,
  });

  const server = app.listen(config.PORT, () => {
    log.info({ port: config.PORT, services: config.services }, `gateway listening on ${config.PUBLIC_URL}`);
  });
  // Bound like the app; kept off PORT so that the ingress, which routes PORT, never serves it.
  const metricsServer = metrics.listen(config.METRICS_PORT, () => {
    log.info({ port: config.METRICS_PORT }, 'metrics on /metrics');
  });
  server.keepAliveTimeout = 65_000;
  if (upgrade) server.on('upgrade', upgrade);

  let stopping = false;
  function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    metricsServer.close();
    server.close(() => {
      close();
      void Promise.all([closeSessions(), rateLimits.close()])
        .then(shutdownTracing)
        .finally(() => process.exit(0));
    });
    // Open live streams would hold the server open; browsers reconnect to another replica.
    live.close();
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  }
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'gateway failed to start');
  process.exit(1);
});
