import { openStoreEngine } from '@qm/platform';
import { INFRA } from '@qm/testkit';
import type { Connection } from 'mongoose';

/**
 * The local engine's PostgreSQL as `make dev` runs it (FERRETDB_POSTGRESQL_URL overrides it; set it
 * empty, or QM_STORE_ENGINE=mongodb, when MONGO_URL is a real MongoDB, whose counters stay in `counters`).
 */
export const STACK_POSTGRES_URL = INFRA.STORE_ENGINE.postgresqlUrl;

/**
 * Has a loader use `conn` on the store engine the running services use (docs/adr/024): its counters
 * where they keep them (docs/adr/020; numbers taken anywhere else would repeat theirs) and its
 * indexes as they make them. Answers the engine's close.
 */
export async function useStackSequences(conn: Connection): Promise<() => Promise<void>> {
  const engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
  return () => engine.close();
}
