import type { Connection } from 'mongoose';
import type pg from 'pg';
import type { TextSearch, TextSearchSpec } from '../types';
import { createIfMissing, ferretdbTableOf, quoteIdent, quoteLiteral } from './sql';

/**
 * FerretDB v1 pushes no regex down, so a text search is answered by PostgreSQL itself, read-only,
 * from the table FerretDB keeps the collection in (docs/adr/011): a trigram GIN index serves rare
 * texts and a btree on the order serves common ones. The planner cannot tell them apart (LIKE '%…%'
 * estimates are guesses: 10,032 rows expected, 218 found at 1 M), and walking the order for a rare
 * text reads the whole table; so the matches are first counted through the trigram index alone, up
 * to `rareBelow`, and only a text with that many takes the walk.
 */

/** LIKE's own wildcards in the text are literal. */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;
const text = (field: string) => `(_jsonb->>${quoteLiteral(field)})`;
const json = (field: string) => `(_jsonb->${quoteLiteral(field)})`;

/** The indexes the search needs, on the collection's table (the collection is created first). */
async function ensureSearchIndexes(conn: Connection, pool: pg.Pool, spec: TextSearchSpec): Promise<void> {
  await conn.createCollection(spec.collection).catch((err: unknown) => {
    if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
  });
  const table = await ferretdbTableOf(pool, conn.name, spec.collection);
  if (!table) throw new Error(`FerretDB has no table for ${conn.name}.${spec.collection}`);
  const on = `${quoteIdent(conn.name)}.${quoteIdent(table)}`;
  const name = (what: string) => quoteIdent(`qm_${table.slice(0, 40)}_${what}`);
  // Another service's database in the same PostgreSQL, or another replica, may create each at the same moment.
  await createIfMissing(pool, 'CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await createIfMissing(
    pool,
    `CREATE INDEX IF NOT EXISTS ${name(`${spec.field}_trgm`)} ON ${on} ` +
      `USING gin (${text(spec.field)} gin_trgm_ops) WITH (fastupdate = off)`,
  );
  await createIfMissing(pool, `CREATE INDEX IF NOT EXISTS ${name('order')} ON ${on} (${json(spec.order)})`);
  for (const field of spec.orderedWithin)
    await createIfMissing(
      pool,
      // Named as ADR 011 first made the user's one (`userId` → `user_order`).
      `CREATE INDEX IF NOT EXISTS ${name(`${field.replace(/Id$/, '')}_order`)} ON ${on} ` +
        `(${json(field)}, ${json(spec.order)})`,
    );
}

export async function postgresTextSearch(
  conn: Connection,
  pool: pg.Pool,
  spec: TextSearchSpec,
  { rareBelow = 2000 }: { rareBelow?: number } = {},
): Promise<TextSearch> {
  await ensureSearchIndexes(conn, pool, spec);
  const schema = quoteIdent(conn.name);
  let table: string | undefined;
  const columns = Object.keys(spec.fields)
    .map((f) => `${text(f)} AS ${quoteIdent(f)}`)
    .join(', ');
  return {
    async find(q) {
      table ??= await ferretdbTableOf(pool, conn.name, spec.collection);
      if (!table) return []; // nothing stored yet
      const args: unknown[] = [likePattern(q.text)];
      const where = [`${text(spec.field)} LIKE $1`];
      for (const [field, value] of Object.entries(q.equals)) {
        args.push(JSON.stringify(value));
        // Equality (not @>), so that the btree on (field, order) serves it.
        where.push(`${json(field)} = $${args.length}::jsonb`);
      }
      const from = `FROM ${schema}.${quoteIdent(table)} WHERE ${where.join(' AND ')}`;
      args.push(q.limit, q.skip);
      const client = await pool.connect();
      try {
        await client.query('BEGIN READ ONLY');
        // Bitmap scans only: the trigram index (and FerretDB's own indexes on the equality fields).
        await client.query('SET LOCAL enable_seqscan = off');
        await client.query('SET LOCAL enable_indexscan = off');
        const counted = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${Number(rareBelow)}) m`,
          args.slice(0, -2),
        );
        // A common text: the newest matches are near, walk the order (the planner's defaults).
        if (counted.rows[0]!.n >= rareBelow) await client.query('RESET enable_indexscan');
        const { rows } = await client.query<Record<string, string | null>>(
          `SELECT _jsonb->>'_id' AS _id, ${columns} ${from} ORDER BY ${json(spec.order)} DESC ` +
            `LIMIT $${args.length - 1} OFFSET $${args.length}`,
          args,
        );
        await client.query('COMMIT');
        return rows.map((r) => {
          const out: Record<string, unknown> = { _id: r._id };
          for (const [f, type] of Object.entries(spec.fields)) {
            const v = r[f] ?? null;
            // FerretDB v1 keeps a date as milliseconds since the epoch.
            out[f] =
              v === null ? null : type === 'number' ? Number(v) : type === 'date' ? new Date(Number(v)) : v;
          }
          return out;
        });
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: async () => undefined,
  };
}
