import type { Connection } from 'mongoose';
import type pg from 'pg';
import { ferretdbTableOf, quoteIdent } from './indexes';
import { isDuplicateKeyError } from './mongo';
import { createPgPool } from './pg-pool';

/**
 * Named counters of a service database: numeric ids ("Order #42") and the per-owner numbers of
 * feeds (feeds.ts). Concurrent takers never share a number; a crash after taking one leaves a gap.
 *
 * On MongoDB a counter is a document of `counters`, taken with one `$inc`. On FerretDB v1 (the local
 * stack) that `findOneAndUpdate` is a SELECT and an UPDATE through FerretDB, about 2 ms of CPU, and
 * counters were half of the statements of a transfer and a purchase. There the counters live in a
 * PostgreSQL table of the service's own schema instead, each step one `INSERT … ON CONFLICT …
 * RETURNING` (docs/adr/020).
 */
export interface Sequences {
  /** Takes `count` consecutive numbers of `name` and answers the last. */
  next(name: string, count?: number): Promise<number>;
  /** The last number taken of `name`, 0 before the first. */
  current(name: string): Promise<number>;
  /** Sets a counter: for bulk loaders that number documents themselves. */
  set(name: string, seq: number): Promise<void>;
  /** Forgets every counter whose name starts with `prefix`: for a loader that empties a collection. */
  clear(prefix: string): Promise<void>;
}

interface CounterDoc {
  _id: string;
  seq: number;
}

const COUNTERS = 'counters';
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Counters as documents of the database's `counters` collection (MongoDB). */
export function collectionSequences(conn: Connection): Sequences {
  const counters = () => conn.collection<CounterDoc>(COUNTERS);
  return {
    async next(name, count = 1) {
      for (let attempt = 0; ; attempt++) {
        try {
          const doc = await counters().findOneAndUpdate(
            { _id: name },
            { $inc: { seq: count } },
            { upsert: true, returnDocument: 'after' },
          );
          if (!doc) throw new Error(`sequence ${name} did not return a value`);
          return doc.seq;
        } catch (err) {
          // Two first-ever upserts race on inserting the counter; the loser retries as an update.
          if (!isDuplicateKeyError(err) || attempt >= 5) throw err;
        }
      }
    },
    current: async (name) => (await counters().findOne({ _id: name }))?.seq ?? 0,
    async set(name, seq) {
      await counters().updateOne({ _id: name }, { $set: { seq } }, { upsert: true });
    },
    async clear(prefix) {
      await counters().deleteMany({ _id: { $regex: `^${escapeRegex(prefix)}` } } as never);
    },
  };
}

const TABLE = 'qm_sequences';
/** The schema or table is gone: the database was dropped (tests do) since the table was made. */
const isMissingTable = (err: unknown) => ['42P01', '3F000'].includes((err as { code?: string }).code ?? '');

export interface PostgresSequences extends Sequences {
  close(): Promise<void>;
}

/**
 * Counters in the table `qm_sequences` of the schema FerretDB v1 keeps `conn`'s database in. `ready`
 * makes the table and moves into it any counter still in the `counters` collection (the stack's data
 * from before docs/adr/020): the two are tables of one PostgreSQL database, so the move is one
 * transaction and a counter never runs in both places.
 */
export function postgresSequences(
  conn: Connection,
  url: string,
): PostgresSequences & { ready(): Promise<void> } {
  const pool = createPgPool(url, 4);
  const schema = quoteIdent(conn.name);
  const table = `${schema}.${quoteIdent(TABLE)}`;

  async function ready(): Promise<void> {
    // FerretDB creates the database's schema with its first collection; we never create it ourselves.
    await conn.createCollection(COUNTERS).catch((err: unknown) => {
      if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
    });
    const legacy = await ferretdbTableOf(pool, conn.name, COUNTERS);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`CREATE TABLE IF NOT EXISTS ${table} (name text PRIMARY KEY, seq bigint NOT NULL)`);
      if (legacy) {
        const from = `${schema}.${quoteIdent(legacy)}`;
        await client.query(
          `INSERT INTO ${table} (name, seq) SELECT _jsonb->>'_id', (_jsonb->>'seq')::numeric::bigint FROM ${from} ` +
            `ON CONFLICT (name) DO UPDATE SET seq = GREATEST(${table}.seq, EXCLUDED.seq)`,
        );
        await client.query(`DELETE FROM ${from}`);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      // Another process made the table at the same moment (CREATE TABLE IF NOT EXISTS races).
      if ((err as { code?: string }).code !== '23505') throw err;
    } finally {
      client.release();
    }
  }

  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[]) {
    try {
      return await pool.query<R>(text, values);
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      await ready();
      return pool.query<R>(text, values);
    }
  }

  return {
    ready,
    async next(name, count = 1) {
      const { rows } = await query<{ seq: string }>(
        `INSERT INTO ${table} AS t (name, seq) VALUES ($1, $2) ` +
          `ON CONFLICT (name) DO UPDATE SET seq = t.seq + EXCLUDED.seq RETURNING seq`,
        [name, count],
      );
      return Number(rows[0]!.seq);
    },
    async current(name) {
      const { rows } = await query<{ seq: string }>(`SELECT seq FROM ${table} WHERE name = $1`, [name]);
      return rows[0] ? Number(rows[0].seq) : 0;
    },
    async set(name, seq) {
      await query(
        `INSERT INTO ${table} (name, seq) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET seq = EXCLUDED.seq`,
        [name, seq],
      );
    },
    async clear(prefix) {
      await query(`DELETE FROM ${table} WHERE starts_with(name, $1)`, [prefix]);
    },
    close: () => pool.end(),
  };
}

const kept = new WeakMap<Connection, Sequences>();

/** The counters of `conn`'s database: where keepSequencesInPostgres put them, else `counters`. */
export function sequencesOf(conn: Connection): Sequences {
  return kept.get(conn) ?? collectionSequences(conn);
}

/**
 * From now on `conn`'s counters (nextSequence, feeds, every sequencesOf) are kept in FerretDB's
 * PostgreSQL at `url`. startService calls it before a service's setup when FERRETDB_POSTGRESQL_URL is
 * set, as must any other process that takes or sets the counters of a running stack (the loaders
 * under load/). Answers the close of its connection pool.
 */
export async function keepSequencesInPostgres(conn: Connection, url: string): Promise<() => Promise<void>> {
  const store = postgresSequences(conn, url);
  try {
    await store.ready();
  } catch (err) {
    await store.close();
    throw err;
  }
  kept.set(conn, store);
  return async () => {
    kept.delete(conn);
    await store.close();
  };
}

/**
 * Numeric, user-visible ids ("Order #42") from a per-collection sequence: concurrent inserts never
 * share an id. With `count`, takes that many consecutive numbers at once and answers the last.
 */
export const nextSequence = (conn: Connection, name: string, count = 1): Promise<number> =>
  sequencesOf(conn).next(name, count);
