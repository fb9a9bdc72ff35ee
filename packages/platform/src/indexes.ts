import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import type pg from 'pg';
import { createPgPool } from './pg-pool';

/**
 * Makes the database serve the equality lookups of a service's declared indexes (docs/adr/004).
 *
 * Real MongoDB needs nothing beyond the MongoDB indexes themselves. FerretDB v1 on PostgreSQL
 * creates those too but never uses them: its pushed-down filter is `_jsonb->'field' @> value`,
 * which its btree indexes cannot serve. A GIN index on exactly that expression can, so every field
 * named in a declared index gets one.
 */
export interface IndexBackend {
  /** Indexes `fields` (top-level or dotted) of the collection; idempotent. */
  ensure(db: string, collection: string, fields: string[]): Promise<void>;
  close(): Promise<void>;
}

const METADATA_TABLE = '_ferretdb_database_metadata';

/** A PostgreSQL identifier, quoted (schema and table names of FerretDB's storage). */
export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The SQL expression FerretDB v1 filters on for a (possibly dotted) field. */
export function ferretdbFieldExpression(field: string): string {
  const parts = field.split('.');
  if (parts.some((p) => !p || p.startsWith('$'))) throw new Error(`cannot index field "${field}"`);
  return parts.length === 1
    ? `_jsonb -> ${quoteLiteral(field)}`
    : `_jsonb #> ${quoteLiteral(`{${parts.map((p) => `"${p.replace(/["\\]/g, '\\$&')}"`).join(',')}}`)}`;
}

/** A stable name within PostgreSQL's 63-byte limit. */
function indexName(table: string, field: string): string {
  const digest = createHash('sha1').update(`${table}\0${field}`).digest('hex').slice(0, 12);
  return `qm_${table.slice(0, 30)}_${field.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 14)}_${digest}`;
}

/** The PostgreSQL table FerretDB v1 keeps a collection in (its metadata table maps the two). */
export async function ferretdbTableOf(
  sql: Pick<pg.Pool, 'query'>,
  db: string,
  collection: string,
): Promise<string | undefined> {
  const found = await sql.query<{ table: string }>(
    `SELECT _jsonb->>'table' AS table FROM ${quoteIdent(db)}.${quoteIdent(METADATA_TABLE)} WHERE _jsonb->>'_id' = $1`,
    [collection],
  );
  return found.rows[0]?.table;
}

/** GIN expression indexes created directly in the PostgreSQL database behind FerretDB v1. */
export function ferretdbPostgresBackend(url: string): IndexBackend {
  const pool = createPgPool(url, 1);
  return {
    async ensure(db, collection, fields) {
      const schema = quoteIdent(db);
      const table = await ferretdbTableOf(pool, db, collection);
      if (!table)
        throw new Error(`FerretDB has no table for ${db}.${collection}: create the collection first`);
      for (const field of new Set(['_id', ...fields])) {
        await pool.query(
          `CREATE INDEX IF NOT EXISTS ${quoteIdent(indexName(table, field))} ON ${schema}.${quoteIdent(table)} ` +
            // No pending list: with fastupdate every read scans the unmerged entries of recent inserts.
            `USING gin ((${ferretdbFieldExpression(field)})) WITH (fastupdate = off)`,
        );
      }
    },
    close: () => pool.end(),
  };
}

/** The backend for a configuration: FerretDB's PostgreSQL when its URL is given, else none needed. */
export function indexBackendFor(ferretdbPostgresqlUrl: string | undefined): IndexBackend | undefined {
  return ferretdbPostgresqlUrl ? ferretdbPostgresBackend(ferretdbPostgresqlUrl) : undefined;
}

/**
 * Collections @qm/platform itself keeps in every service database (sequences, consumers, outbox,
 * idempotency keys). They have no mongoose model, so they are listed here.
 */
const PLATFORM_COLLECTIONS = ['counters', 'processed_events', 'outbox', 'idempotency_keys'];

async function createCollection(conn: Connection, name: string): Promise<void> {
  await conn.createCollection(name).catch((err: unknown) => {
    if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
  });
}

/**
 * The one way a service declares its indexes: on its mongoose schemas (`schema.index(...)`). This
 * creates them for every model of the connection, and the platform's own collections, and has the
 * backend serve them. startService calls it once the service's setup has registered its models.
 */
export async function ensureIndexes(conn: Connection, backend?: IndexBackend): Promise<void> {
  for (const name of PLATFORM_COLLECTIONS) {
    await createCollection(conn, name);
    await backend?.ensure(conn.name, name, []);
  }
  for (const model of Object.values(conn.models)) {
    await createCollection(conn, model.collection.collectionName);
    await model.createIndexes();
    const fields = model.schema.indexes().flatMap(([keys]) => Object.keys(keys));
    await backend?.ensure(conn.name, model.collection.collectionName, fields);
  }
}
