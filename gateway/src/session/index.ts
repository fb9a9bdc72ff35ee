import { connectBus, type EventBus, type Logger } from '@qm/platform';
import type { Clients } from '../clients';
import type { GatewayConfig } from '../config';
import { cachedSessionStore } from './cache';
import { createSessionManager, type SessionManager } from './manager';
import { followSessionRevocations } from './revocations';
import { mongoSessionStore } from './store';

export {
  createSessionManager,
  isSessionManager,
  rolesOf,
  SESSION_COOKIE,
  type SessionManager,
} from './manager';
export { mongoSessionStore, type SessionDoc, type SessionStore } from './store';
export { cachedSessionStore, type CachedSessionStore } from './cache';
export { followSessionRevocations } from './revocations';

/**
 * The gateway's real sessions: MongoDB (database MONGO_DB, collection sessions), refreshed through
 * identity, and ended by identity's sessions_revoked events (NATS_URL, EVENTS_PREFIX).
 */
export async function sessionsFromConfig(
  config: GatewayConfig,
  clients: Pick<Clients, 'identity'>,
  log: Logger,
): Promise<{ sessions: SessionManager; bus: EventBus; close(): Promise<void> }> {
  // A few connections keep session lookups parallel (docs/adr/008).
  const store = cachedSessionStore(
    mongoSessionStore({
      url: config.MONGO_URL,
      db: config.MONGO_DB,
      maxPoolSize: 4,
      engine: config.storeEngine,
    }),
    { ttlMs: config.SESSION_CACHE_MS, maxEntries: 50_000 },
  );
  const bus = await connectBus({
    servers: config.NATS_URL,
    name: 'gateway',
    log,
    prefix: config.EVENTS_PREFIX,
  });
  await followSessionRevocations({ bus, store, log });
  const sessions = createSessionManager({
    store,
    identity: clients.identity,
    log,
    secret: config.SESSION_SECRET,
    maxAgeSeconds: config.SESSION_MAX_AGE_S,
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
    sweepIntervalMs: config.SESSION_SWEEP_INTERVAL_MS,
  });
  return {
    sessions,
    // The live events (GET /api/live) follow the bus on the same connection.
    bus,
    async close() {
      await bus.close().catch(() => undefined);
      await sessions.close();
    },
  };
}
