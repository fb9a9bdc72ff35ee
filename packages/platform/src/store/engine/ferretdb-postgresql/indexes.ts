import { createHash } from 'node:crypto';
import type pg from 'pg';
import { createIfMissing, ferretdbFieldExpression, ferretdbTableOf, quoteIdent } from './sql';

/**
 * FerretDB v1 on PostgreSQL creates a collection's declared indexes but never uses them: its
 * pushed-down filter is `_jsonb->'field' @> value`, which its btree indexes cannot serve. A GIN
 * index on exactly that expression can, so every field named in a declared index gets one
 * (docs/adr/004), and `_id`.
 */

/** A stable name within PostgreSQL's 63-byte limit. */
function indexName(table: string, field: string): string {
  const digest = createHash('sha1').update(`${table}\0${field}`).digest('hex').slice(0, 12);
  return `qm_${table.slice(0, 30)}_${field.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 14)}_${digest}`;
}

export async function ensureGinIndexes(
  pool: pg.Pool,
  db: string,
  collection: string,
  fields: string[],
): Promise<void> {
  const schema = quoteIdent(db);
  const table = await ferretdbTableOf(pool, db, collection);
  if (!table) throw new Error(`FerretDB has no table for ${db}.${collection}: create the collection first`);
  for (const field of new Set(['_id', ...fields])) {
    await createIfMissing(
      pool,
      `CREATE INDEX IF NOT EXISTS ${quoteIdent(indexName(table, field))} ON ${schema}.${quoteIdent(table)} ` +
        // No pending list: with fastupdate every read scans the unmerged entries of recent inserts.
        `USING gin ((${ferretdbFieldExpression(field)})) WITH (fastupdate = off)`,
    );
  }
}

/**
 * Drops every index of ours on a collection's table (the GIN indexes above and the text search's,
 * all named `qm_…`), keeping FerretDB's own: a bulk load inserts several times faster without them.
 */
export async function dropOwnIndexes(pool: pg.Pool, db: string, collection: string): Promise<void> {
  const table = await ferretdbTableOf(pool, db, collection);
  if (!table) return;
  const { rows } = await pool.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE 'qm\\_%'`,
    [db, table],
  );
  for (const { name } of rows) await pool.query(`DROP INDEX IF EXISTS ${quoteIdent(db)}.${quoteIdent(name)}`);
}

/** Fresh planner statistics of a collection's table, so its reads pick their index as the data says. */
export async function analyzeCollection(pool: pg.Pool, db: string, collection: string): Promise<void> {
  const table = await ferretdbTableOf(pool, db, collection);
  if (table) await pool.query(`ANALYZE ${quoteIdent(db)}.${quoteIdent(table)}`);
}
