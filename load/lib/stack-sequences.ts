import { keepSequencesInPostgres } from '@qm/platform';
import { INFRA } from '@qm/testkit';
import type { Connection } from 'mongoose';

/**
 * FerretDB's PostgreSQL as `make dev` runs it (FERRETDB_POSTGRESQL_URL overrides it; set it empty
 * when MONGO_URL is a real MongoDB, whose counters stay in `counters`).
 */
export const STACK_POSTGRES_URL = INFRA.FERRETDB_POSTGRESQL_URL || undefined;

/**
 * Has a loader take and set `conn`'s counters where the running services keep them (docs/adr/020):
 * numbers taken anywhere else would repeat theirs. Answers the close of the counters' pool.
 */
export async function useStackSequences(conn: Connection): Promise<() => Promise<void>> {
  return STACK_POSTGRES_URL ? keepSequencesInPostgres(conn, STACK_POSTGRES_URL) : async () => undefined;
}
