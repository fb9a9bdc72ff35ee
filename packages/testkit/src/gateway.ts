import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Caller } from '@qm/platform';
import { createApp } from '@qm/gateway/src/app';
import { type Clients, clientsFromConfig } from '@qm/gateway/src/clients';
import { type GatewayConfig, parseGatewayConfig } from '@qm/gateway/src/config';
import type { HitCounter } from '@qm/gateway/src/http/rate-limit-store';
import type { SessionResolver } from '@qm/gateway/src/http/session';
import type { LiveHub } from '@qm/gateway/src/live/hub';
import { testLog } from './infra';

export const log = testLog('gateway-test');

/** Sessions keyed by a test header, standing in for the cookie store in tests of routing alone. */
export const headerSessions = (callers: Record<string, Caller>): SessionResolver => ({
  resolve: async (req) => callers[req.get('x-test-user') ?? ''],
});

/**
 * The real gateway app in-process on a free port, with `env` as its environment and `sessions`
 * either a resolver or made from the gateway's own config and clients (a real session manager).
 * `live` serves GET /api/live (without it that route answers 503). `rateLimits`: the counters the
 * limits share (e.g. a `mongoHitCounter` on a test database); without it each limiter counts in memory.
 */
export async function startGateway<R extends SessionResolver>(
  env: Record<string, string>,
  sessions: R | ((gw: { config: GatewayConfig; clients: Clients }) => R),
  extra: { live?: LiveHub; rateLimits?: HitCounter } = {},
) {
  const config = parseGatewayConfig({ LOG_LEVEL: 'silent', ...env });
  const { clients, metrics: callMetrics, close } = clientsFromConfig(config);
  const resolver = typeof sessions === 'function' ? sessions({ config, clients }) : sessions;
  const { app, metrics } = createApp({
    config,
    log,
    clients,
    sessions: resolver,
    live: extra.live,
    rateLimits: extra.rateLimits,
    callMetrics,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The private metrics app (METRICS_PORT in production), not listening: a test binds it. */
    metrics,
    config,
    clients,
    sessions: resolver,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      close();
    },
  };
}

/** Response JSON for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = (res: Response): Promise<any> => res.json();
