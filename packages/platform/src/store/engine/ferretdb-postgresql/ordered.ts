import type { Model } from 'mongoose';
import type pg from 'pg';
import type { OrderedPageQuery, Scalar } from '../types';
import { ferretdbFieldExpression } from './sql';

/**
 * FerretDB v1 creates a declared compound index in PostgreSQL as a btree expression index, but
 * sorts, skips and counts in its own process after reading every matching row: on a 1 M-line ledger
 * the admin's first page took longer than the gateway's deadline (docs/adr/013). So PostgreSQL is
 * asked for the `_id`s of one page, ordered by that very index, and the count; the documents are
 * then read by `_id` through FerretDB as usual. Reads only; writes never go here.
 */

/** `(_jsonb -> 'f') = $1::jsonb AND ...`: jsonb equality, which the btree expression indexes serve. */
function where(equals: Record<string, Scalar>, args: unknown[]): string {
  const terms = Object.entries(equals).map(([field, value]) => {
    args.push(JSON.stringify(value));
    return `(${ferretdbFieldExpression(field)}) = $${args.length}::jsonb`;
  });
  return terms.length ? ` WHERE ${terms.join(' AND ')}` : '';
}

/** FerretDB itself reads every row it counts; PostgreSQL counts by the index. */
export async function postgresCount(pool: pg.Pool, table: string, equals: Record<string, Scalar>) {
  const args: unknown[] = [];
  const rows = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table}${where(equals, args)}`,
    args,
  );
  return Number(rows.rows[0]!.n);
}

/**
 * FerretDB's `$group` reads every matching document into its own process; PostgreSQL adds the field
 * up where the rows are (a document without a number there adds nothing).
 */
export async function postgresSum(
  pool: pg.Pool,
  table: string,
  equals: Record<string, Scalar>,
  field: string,
): Promise<number> {
  const args: unknown[] = [];
  const value = ferretdbFieldExpression(field);
  const rows = await pool.query<{ total: string }>(
    `SELECT coalesce(sum((${value})::numeric) FILTER (WHERE jsonb_typeof(${value}) = 'number'), 0) AS total ` +
      `FROM ${table}${where(equals, args)}`,
    args,
  );
  return Number(rows.rows[0]!.total);
}

export async function postgresOrderedPage<T extends { _id: string | number }>(
  pool: pg.Pool,
  table: string,
  model: Model<T>,
  q: OrderedPageQuery,
): Promise<{ items: T[]; total: number }> {
  const pageIds = async () => {
    const args: unknown[] = [];
    const filter = where(q.equals, args);
    const order = q.sort
      .map(([field, dir]) => `(${ferretdbFieldExpression(field)})${dir === -1 ? ' DESC' : ''}`)
      .join(', ');
    args.push(q.limit, q.skip);
    const rows = await pool.query<{ id: string | number }>(
      `SELECT _jsonb->'_id' AS id FROM ${table}${filter} ` +
        `ORDER BY ${order} LIMIT $${args.length - 1} OFFSET $${args.length}`,
      args,
    );
    return rows.rows.map((r) => r.id);
  };
  const [ids, total] = await Promise.all([pageIds(), postgresCount(pool, table, q.equals)]);
  // By _id, one indexed lookup each (FerretDB scans for `$in`); a line gone meanwhile is left out.
  const items = await Promise.all(ids.map((id) => model.findById(id).lean<T>().exec()));
  return { items: items.filter((d): d is NonNullable<typeof d> => d !== null) as T[], total };
}
