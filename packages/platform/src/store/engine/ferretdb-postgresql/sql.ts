import pg from 'pg';

/**
 * How FerretDB v1 keeps a database in PostgreSQL: a schema named after the database, a table per
 * collection (named in the schema's metadata table), each document one `_jsonb` value.
 */

/**
 * A pg pool that outlives a restart of its PostgreSQL. When the server goes away, each idle client
 * emits 'error' on the pool, and an 'error' event with no listener ends the process (the chaos run's
 * PostgreSQL kills, docs/adr/015). The pool has already dropped that client; the next query opens a
 * new one, and a query that fails reports its own error to its caller.
 */
export function createPgPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs a `CREATE … IF NOT EXISTS`. Two processes running it at the same moment (two replicas
 * starting together, docs/adr/025) can both pass the "not exists" check; the later one then fails
 * on PostgreSQL's catalog (unique_violation on pg_class or pg_type, or duplicate_table/object). The
 * object exists either way, which is all the statement asks.
 */
export async function createIfMissing(sql: Pick<pg.Pool, 'query'>, statement: string): Promise<void> {
  await sql.query(statement).catch((err: unknown) => {
    if (!['23505', '42P07', '42710'].includes((err as { code?: string }).code ?? '')) throw err;
  });
}

const METADATA_TABLE = '_ferretdb_database_metadata';

/** A PostgreSQL identifier, quoted (schema and table names of FerretDB's storage). */
export const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
export const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The SQL expression FerretDB v1 filters on for a (possibly dotted) field. */
export function ferretdbFieldExpression(field: string): string {
  const parts = field.split('.');
  if (parts.some((p) => !p || p.startsWith('$'))) throw new Error(`cannot index field "${field}"`);
  return parts.length === 1
    ? `_jsonb -> ${quoteLiteral(field)}`
    : `_jsonb #> ${quoteLiteral(`{${parts.map((p) => `"${p.replace(/["\\]/g, '\\$&')}"`).join(',')}}`)}`;
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

/** A collection's table, schema-qualified and quoted, looked up once; the collection must exist. */
export function tableNames(pool: () => Pick<pg.Pool, 'query'>) {
  const tables = new Map<string, string>();
  return async (db: string, collection: string): Promise<string> => {
    const key = `${db}.${collection}`;
    let table = tables.get(key);
    if (!table) {
      const name = await ferretdbTableOf(pool(), db, collection);
      if (!name) throw new Error(`FerretDB has no table for ${key}`);
      table = `${quoteIdent(db)}.${quoteIdent(name)}`;
      tables.set(key, table);
    }
    return table;
  };
}

/** A pool opened at its first use, so a service that never needs one never connects. */
export function lazyPool(url: string, max: number) {
  let pool: pg.Pool | undefined;
  return {
    get: () => (pool ??= createPgPool(url, max)),
    close: async () => {
      const p = pool;
      pool = undefined;
      await p?.end();
    },
  };
}
