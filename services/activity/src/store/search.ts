import type { ActivityCategoryName } from '@qm/contracts/rest';
import { createPgPool, ferretdbTableOf, quoteIdent } from '@qm/platform';
import type { Connection, Model } from 'mongoose';
import type pg from 'pg';
import type { ActivityRecord } from '../domain/activity';
import { ACTIVITY_COLLECTION, type ActivityDoc, fromDoc, ORDER_FIELD } from './activities';

/** A text filter, optionally with the other filters (spec §5 "Admin activity filters"). */
export interface SearchQuery {
  /** Lowercase, one line, not empty. */
  text: string;
  userId?: number;
  category?: ActivityCategoryName;
  action?: string;
  /** 0-based. */
  offset: number;
  limit: number;
}

/**
 * Newest-first matches of a case-insensitive substring (docs/adr/011). Returns up to limit + 1,
 * so the caller knows whether a further page has any; no total (it would cost a full count).
 */
export interface ActivitySearch {
  find(q: SearchQuery): Promise<ActivityRecord[]>;
  close(): Promise<void>;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Any MongoDB-compatible database: a regex over `search`, newest first. Real MongoDB walks the
 * `feedSeq_all` order and stops at the page; FerretDB v1 reads every row for it (fine for tests,
 * not for 1 M rows: there the PostgreSQL search below is used).
 */
export function regexSearch(model: Model<ActivityDoc>): ActivitySearch {
  return {
    async find(q) {
      const filter: Record<string, unknown> = { search: { $regex: escapeRegex(q.text) } };
      if (q.userId !== undefined) filter.userId = q.userId;
      if (q.category !== undefined) filter.category = q.category;
      if (q.action !== undefined) filter.action = q.action;
      const docs = await model
        .find(filter as never, { search: 0 })
        .sort({ [ORDER_FIELD]: -1 })
        .skip(q.offset)
        .limit(q.limit + 1)
        .lean<ActivityDoc[]>();
      return docs.map(fromDoc);
    },
    close: async () => undefined,
  };
}

/** LIKE's own wildcards in the text are literal. */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * FerretDB v1 on PostgreSQL pushes no regex down, so a text filter there is answered by
 * PostgreSQL itself, read-only, from the table FerretDB keeps the collection in: a trigram GIN
 * index serves rare texts and a btree on the log's order serves common ones. The planner cannot
 * tell them apart (LIKE '%…%' estimates are guesses: 10,032 rows expected, 218 found at 1 M), and
 * walking the order for a rare text reads the whole table; so the matches are first counted
 * through the trigram index alone, up to `rareBelow`, and only a text with that many takes the walk.
 */
export async function postgresSearch(
  conn: Connection,
  url: string,
  { rareBelow = 2000 }: { rareBelow?: number } = {},
): Promise<ActivitySearch> {
  const pool = createPgPool(url, 4);
  const schema = quoteIdent(conn.name);
  let table: string | undefined;
  const tableName = async () => {
    table ??= await ferretdbTableOf(pool, conn.name, ACTIVITY_COLLECTION);
    return table;
  };
  return {
    async find(q) {
      const name = await tableName();
      if (!name) return []; // nothing stored yet
      const args: unknown[] = [likePattern(q.text)];
      const where = [`(_jsonb->>'search') LIKE $1`];
      const eq = (field: string, value: unknown) => {
        args.push(JSON.stringify(value));
        // Equality (not @>), so that the btree on (userId, order) serves one user's search.
        where.push(`_jsonb->'${field}' = $${args.length}::jsonb`);
      };
      if (q.userId !== undefined) eq('userId', q.userId);
      if (q.category !== undefined) eq('category', q.category);
      if (q.action !== undefined) eq('action', q.action);
      const from = `FROM ${schema}.${quoteIdent(name)} WHERE ${where.join(' AND ')}`;
      args.push(q.limit + 1, q.offset);
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
        const rows = await page(client, from, args);
        await client.query('COMMIT');
        return rows;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** One page of matches, newest first. */
async function page(client: pg.PoolClient, from: string, args: unknown[]): Promise<ActivityRecord[]> {
  const { rows } = await client.query<{
    id: string;
    user_id: string;
    username: string;
    email: string | null;
    action: string;
    details: string | null;
    category: string | null;
    created_ms: string;
  }>(
    `SELECT _jsonb->>'_id' AS id, _jsonb->>'userId' AS user_id, _jsonb->>'username' AS username,
                _jsonb->>'email' AS email, _jsonb->>'action' AS action, _jsonb->>'details' AS details,
                _jsonb->>'category' AS category, _jsonb->>'createdAt' AS created_ms
         ${from}
          ORDER BY (_jsonb->'${ORDER_FIELD}') DESC
          LIMIT $${args.length - 1} OFFSET $${args.length}`,
    args,
  );
  return rows.map((r) =>
    fromDoc({
      _id: r.id,
      userId: Number(r.user_id),
      username: r.username,
      email: r.email ?? '',
      action: r.action,
      details: r.details ?? '',
      category: (r.category ?? null) as ActivityCategoryName | null,
      // FerretDB v1 keeps a date as milliseconds since the epoch.
      createdAt: new Date(Number(r.created_ms)),
    }),
  );
}

/**
 * The PostgreSQL indexes postgresSearch needs, on the collection's table (created first): trigrams
 * of `search`, the log's order, and a user's order (the admin searches within one user's log). Idempotent; run at start next to the platform's ensureIndexes.
 */
export async function ensureSearchIndexes(conn: Connection, url: string): Promise<void> {
  await conn.createCollection(ACTIVITY_COLLECTION).catch((err: unknown) => {
    if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
  });
  const pool = createPgPool(url, 1);
  try {
    const table = await ferretdbTableOf(pool, conn.name, ACTIVITY_COLLECTION);
    if (!table) throw new Error(`FerretDB has no table for ${conn.name}.${ACTIVITY_COLLECTION}`);
    const on = `${quoteIdent(conn.name)}.${quoteIdent(table)}`;
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch((err: unknown) => {
      // Another service's database in the same PostgreSQL created it at the same moment.
      if ((err as { code?: string }).code !== '23505') throw err;
    });
    await pool.query(
      `CREATE INDEX IF NOT EXISTS ${quoteIdent(`qm_${table.slice(0, 40)}_search_trgm`)} ON ${on} ` +
        `USING gin ((_jsonb->>'search') gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await pool.query(
      `CREATE INDEX IF NOT EXISTS ${quoteIdent(`qm_${table.slice(0, 40)}_order`)} ON ${on} ` +
        `((_jsonb->'${ORDER_FIELD}'))`,
    );
    await pool.query(
      `CREATE INDEX IF NOT EXISTS ${quoteIdent(`qm_${table.slice(0, 40)}_user_order`)} ON ${on} ` +
        `((_jsonb->'userId'), (_jsonb->'${ORDER_FIELD}'))`,
    );
  } finally {
    await pool.end();
  }
}
