import type { Connection } from 'mongoose';
import type pg from 'pg';
import { COUNTERS_COLLECTION } from '../mongodb';
import { askedTogether, takeInOrder } from '../sequence-steps';
import type { Sequences } from '../types';
import { ferretdbTableOf, quoteIdent } from './sql';

/**
 * Counters in the table `qm_sequences` of the schema FerretDB v1 keeps `conn`'s database in
 * (docs/adr/020): each step one `INSERT … ON CONFLICT … RETURNING`, where the `counters`
 * collection's `findOneAndUpdate` was a SELECT and an UPDATE through FerretDB (about 4× the CPU).
 * Before its first step, `ready` makes the table and moves into it any counter still in the
 * `counters` collection (the stack's data from before ADR 020): the two are tables of one
 * PostgreSQL database, so the move is one transaction and a counter never runs in both places.
 */
const TABLE = 'qm_sequences';
/** The schema or table is gone: the database was dropped (tests do) since the table was made. */
const isMissingTable = (err: unknown) => ['42P01', '3F000'].includes((err as { code?: string }).code ?? '');

export function postgresSequences(
  conn: Connection,
  poolOf: () => pg.Pool,
): Sequences & { ready(): Promise<void> } {
  const schema = quoteIdent(conn.name);
  const table = `${schema}.${quoteIdent(TABLE)}`;

  async function ready(): Promise<void> {
    // FerretDB creates the database's schema with its first collection; we never create it ourselves.
    await conn.createCollection(COUNTERS_COLLECTION).catch((err: unknown) => {
      if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
    });
    const legacy = await ferretdbTableOf(poolOf(), conn.name, COUNTERS_COLLECTION);
    const client = await poolOf().connect();
    try {
      await client.query('BEGIN');
      // CREATE TABLE IF NOT EXISTS is not safe against itself: of two processes making the table at the
      // same moment, one fails on the catalog's unique keys (23505, or 42710 for the table's row type).
      // The lock, held to the end of the transaction, makes the second wait and then find the table.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${conn.name}.${TABLE}`]);
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
      throw err;
    } finally {
      client.release();
    }
  }

  let readying: Promise<void> | undefined;
  const readyOnce = () =>
    (readying ??= ready().catch((err: unknown) => {
      readying = undefined;
      throw err;
    }));

  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[]) {
    await readyOnce();
    try {
      return await poolOf().query<R>(text, values);
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      await ready();
      return poolOf().query<R>(text, values);
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
    // One statement for all: a row may be updated once per statement, so each name once, in name
    // order (two statements then lock shared rows in the same order, never each other's first).
    nextMany: askedTogether((steps) =>
      takeInOrder(steps, async (totals) => {
        const names = [...totals.keys()].sort();
        const { rows } = await query<{ name: string; seq: string }>(
          `INSERT INTO ${table} AS t (name, seq) ` +
            `SELECT * FROM unnest($1::text[], $2::bigint[]) ORDER BY 1 ` +
            `ON CONFLICT (name) DO UPDATE SET seq = t.seq + EXCLUDED.seq RETURNING name, seq`,
          [names, names.map((n) => totals.get(n)!)],
        );
        return new Map(rows.map((r) => [r.name, Number(r.seq)]));
      }),
    ),
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
  };
}
