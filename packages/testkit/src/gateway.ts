import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { type Caller, createLogger } from '@qm/platform';
import { createApp } from '@qm/gateway/src/app';
import { createClients } from '@qm/gateway/src/clients';
import { parseGatewayConfig } from '@qm/gateway/src/config';
import type { SessionResolver } from '@qm/gateway/src/http/session';

export const log = createLogger('gateway-test', process.env.TEST_LOG_LEVEL ?? 'silent');

/** Sessions keyed by a test header, standing in for the cookie store in tests of routing alone. */
export const headerSessions = (callers: Record<string, Caller>): SessionResolver => ({
  resolve: async (req) => callers[req.get('x-test-user') ?? ''],
});

export async function startGateway(env: Record<string, string>, sessions: SessionResolver) {
  const config = parseGatewayConfig({ LOG_LEVEL: 'silent', ...env });
  const { clients, close } = createClients(config.services, config.GRPC_DEADLINE_MS);
  const { app } = createApp({ config, log, clients, sessions });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    stop: async () => {
      close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Response JSON for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json = (res: Response): Promise<any> => res.json();
