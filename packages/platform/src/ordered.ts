import type { Model } from 'mongoose';
import { ferretdbFieldExpression, ferretdbTableOf, quoteIdent } from './indexes';
import { createPgPool } from './pg-pool';

/**
 * Sorted, skip-paged reads of a large collection (an administrator's list by date or amount, with
 * an equality filter), at any collection size.
 *
 * MongoDB serves `find(filter).sort().skip().limit()` from the collection's declared compound
 * index. FerretDB v1 creates that index in PostgreSQL too but sorts, skips and counts in its own
 * process after reading every matching row: on a 1 M-line ledger the admin's first page took
 * longer than the gateway's deadline. Under FerretDB we therefore ask its PostgreSQL for the ids
 * of one page, ordered by the very btree expression index FerretDB made from the declared one,
 * and read those documents by `_id` through FerretDB as usual. Reads only; writes never go here.
 */
export type Scalar = string | number | boolean;

export interface OrderedPageQuery {
  /** Top-level fields that must equal these values. */
  equals: Record<string, Scalar>;
  /** Sort keys in order; declare the same compound index on the schema. */
  sort: [field: string, direction: 1 | -1][];
  skip: number;
  limit: number;
}

export interface OrderedReader {
  /** The page's `_id`s (strings or numbers, as stored). */
  pageIds(db: string, collection: string, q: OrderedPageQuery): Promise<(string | number)[]>;
  count(db: string, collection: string, equals: Record<string, Scalar>): Promise<number>;
  close(): Promise<void>;
}

/** The reader over FerretDB v1's PostgreSQL (its tables hold each document as `_jsonb`). */
export function ferretdbOrderedReader(url: string): OrderedReader {
  const pool = createPgPool(url, 4);
  const tables = new Map<string, string>();

  async function tableOf(db: string, collection: string): Promise<string> {
    const key = `${db}.${collection}`;
    let table = tables.get(key);
    if (!table) {
      table = await ferretdbTableOf(pool, db, collection);
      if (!table) throw new Error(`FerretDB has no table for ${key}`);
      tables.set(key, table);
    }
    return `${quoteIdent(db)}.${quoteIdent(table)}`;
  }

  /** `(_jsonb -> 'f') = $1::jsonb AND ...`: jsonb equality, which the btree expression indexes serve. */
  function where(equals: Record<string, Scalar>, args: unknown[]): string {
    const terms = Object.entries(equals).map(([field, value]) => {
      args.push(JSON.stringify(value));
      return `(${ferretdbFieldExpression(field)}) = $${args.length}::jsonb`;
    });
    return terms.length ? ` WHERE ${terms.join(' AND ')}` : '';
  }

  return {
    async pageIds(db, collection, q) {
      const args: unknown[] = [];
      const filter = where(q.equals, args);
      const order = q.sort
        .map(([field, dir]) => `(${ferretdbFieldExpression(field)})${dir === -1 ? ' DESC' : ''}`)
        .join(', ');
      args.push(q.limit, q.skip);
      const rows = await pool.query<{ id: string | number }>(
        `SELECT _jsonb->'_id' AS id FROM ${await tableOf(db, collection)}${filter} ` +
          `ORDER BY ${order} LIMIT $${args.length - 1} OFFSET $${args.length}`,
        args,
      );
      return rows.rows.map((r) => r.id);
    },
    async count(db, collection, equals) {
      const args: unknown[] = [];
      const rows = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${await tableOf(db, collection)}${where(equals, args)}`,
        args,
      );
      return Number(rows.rows[0]!.n);
    },
    close: () => pool.end(),
  };
}

/** The reader for a configuration: FerretDB's PostgreSQL when its URL is given, else none needed. */
export function orderedReaderFor(ferretdbPostgresqlUrl: string | undefined): OrderedReader | undefined {
  return ferretdbPostgresqlUrl ? ferretdbOrderedReader(ferretdbPostgresqlUrl) : undefined;
}

/** One page of `model`'s documents in `q`'s order, and how many match (`_id`: a string or number). */
export async function orderedPage<T extends { _id: string | number }>(
  model: Model<T>,
  reader: OrderedReader | undefined,
  q: OrderedPageQuery,
): Promise<{ items: T[]; total: number }> {
  if (!reader) {
    const [items, total] = await Promise.all([
      model.find(q.equals).sort(Object.fromEntries(q.sort)).skip(q.skip).limit(q.limit).lean<T[]>().exec(),
      model.countDocuments(q.equals).exec(),
    ]);
    return { items, total };
  }
  const { db } = model;
  const collection = model.collection.collectionName;
  const [ids, total] = await Promise.all([
    reader.pageIds(db.name, collection, q),
    reader.count(db.name, collection, q.equals),
  ]);
  // By _id, one indexed lookup each (FerretDB scans for `$in`); a line gone meanwhile is left out.
  const items = await Promise.all(ids.map((id) => model.findById(id).lean<T>().exec()));
  return { items: items.filter((d): d is NonNullable<typeof d> => d !== null) as T[], total };
}
