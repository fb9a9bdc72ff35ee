import { z } from 'zod';
import type { StoreEngineName } from './types';

/**
 * The configuration that chooses the store engine (docs/adr/024), part of every service's and the
 * gateway's environment:
 * - QM_STORE_ENGINE: `mongodb` (the MongoDB API and nothing else: what the Helm chart runs) or
 *   `ferretdb-postgresql` (FerretDB v1 on PostgreSQL, the local stack, with its shortcuts).
 *   Unset: `ferretdb-postgresql` when FERRETDB_POSTGRESQL_URL is set, `mongodb` otherwise.
 * - FERRETDB_POSTGRESQL_URL: the PostgreSQL database behind the local FerretDB (docs/adr/004). Only
 *   the `ferretdb-postgresql` engine reads it; with `mongodb` it is ignored.
 */
export const storeEngineEnv = {
  QM_STORE_ENGINE: z.enum(['mongodb', 'ferretdb-postgresql']).optional(),
  FERRETDB_POSTGRESQL_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
};

export interface StoreEngineChoice {
  engine: StoreEngineName;
  /** The `ferretdb-postgresql` engine's PostgreSQL. */
  postgresqlUrl?: string;
}

export class StoreEngineConfigError extends Error {}

/** The engine a configuration chooses; made once, at start. */
export function chooseStoreEngine(env: {
  QM_STORE_ENGINE?: StoreEngineName | undefined;
  FERRETDB_POSTGRESQL_URL?: string | undefined;
}): StoreEngineChoice {
  const url = env.FERRETDB_POSTGRESQL_URL || undefined;
  const engine = env.QM_STORE_ENGINE ?? (url ? 'ferretdb-postgresql' : 'mongodb');
  if (engine === 'mongodb') return { engine };
  if (!url)
    throw new StoreEngineConfigError(
      'Invalid configuration:\n  QM_STORE_ENGINE: ferretdb-postgresql needs FERRETDB_POSTGRESQL_URL',
    );
  return { engine, postgresqlUrl: url };
}

/** The variables that choose `choice`, for a process started with an environment of its own. */
export function storeEngineVariables(choice: StoreEngineChoice): Record<string, string> {
  return choice.engine === 'mongodb'
    ? { QM_STORE_ENGINE: 'mongodb' }
    : { QM_STORE_ENGINE: choice.engine, FERRETDB_POSTGRESQL_URL: choice.postgresqlUrl! };
}

/** Where `make dev` and `make test` run the local engine's PostgreSQL (scripts/stack/postgres.mjs). */
export const LOCAL_POSTGRESQL_URL = 'postgres://postgres@127.0.0.1:5433/postgres';

/**
 * The engine of tests and tools that talk to a stack: as configured, the local stack's when nothing
 * is (FERRETDB_POSTGRESQL_URL set empty, or QM_STORE_ENGINE=mongodb: the MongoDB API alone).
 */
export function storeEngineOfStack(env: NodeJS.ProcessEnv = process.env): StoreEngineChoice {
  const engine = env.QM_STORE_ENGINE;
  if (engine !== undefined && engine !== 'mongodb' && engine !== 'ferretdb-postgresql')
    throw new StoreEngineConfigError(`QM_STORE_ENGINE: unknown engine "${engine}"`);
  if (engine === 'mongodb') return { engine };
  return chooseStoreEngine({
    QM_STORE_ENGINE: engine,
    FERRETDB_POSTGRESQL_URL: env.FERRETDB_POSTGRESQL_URL ?? LOCAL_POSTGRESQL_URL,
  });
}
