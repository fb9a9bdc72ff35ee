import type { Logger } from '@qm/platform';
import type { Clients } from '../clients';
import type { GatewayConfig } from '../config';
import { cachedSessionStore } from './cache';
import { createSessionManager, type SessionManager } from './manager';
import { mongoSessionStore } from './store';

export {
  createSessionManager,
  isSessionManager,
  rolesOf,
  SESSION_COOKIE,
  type SessionManager,
} from './manager';
export { mongoSessionStore, type SessionDoc, type SessionStore } from './store';

/** The gateway's real sessions: MongoDB (database MONGO_DB, collection sessions), refreshed through identity. */
export function sessionsFromConfig(
  config: GatewayConfig,
  clients: Pick<Clients, 'identity'>,
  log: Logger,
): SessionManager {
  return createSessionManager({
    // Sessions are whole-document inserts and sets by id, never read-modify-write counters, so they
    // need not be serialised on one connection (docs/adr/002): a few connections keep lookups parallel.
    store: cachedSessionStore(
      mongoSessionStore({
        url: config.MONGO_URL,
        db: config.MONGO_DB,
        maxPoolSize: 4,
        ferretdbPostgresqlUrl: config.FERRETDB_POSTGRESQL_URL,
      }),
      {
        ttlMs: config.SESSION_CACHE_MS,
        maxEntries: 50_000,
      },
    ),
    identity: clients.identity,
    log,
    secret: config.SESSION_SECRET,
    maxAgeSeconds: config.SESSION_MAX_AGE_S,
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
    sweepIntervalMs: config.SESSION_SWEEP_INTERVAL_MS,
  });
}
