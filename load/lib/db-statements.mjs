// What an operation asks of the database: PostgreSQL's own per-table counters (pg_stat_user_tables)
// for the tables FerretDB keeps each service's collections in, read before and after a run of
// operations. Every statement FerretDB sends costs CPU in FerretDB and in PostgreSQL, so this is the
// count to cut when an operation is too slow. load/purchase-cost.mjs and load/transfer-cost.mjs use it.
import pg from 'pg';

const PG_URL = process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5433/postgres';
const COUNTERS = ['seq_scan', 'idx_scan', 'n_tup_ins', 'n_tup_upd', 'n_tup_del'];
/** The key of the database's transactions among the tables' counters. */
const TRANSACTIONS = '(transactions)';

/** Per `<database>.<collection>`: scans and rows written so far. */
export async function tableCounters() {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT schemaname, relname, ${COUNTERS.map((c) => `coalesce(${c}, 0)::int AS ${c}`).join(', ')}
         FROM pg_stat_user_tables WHERE schemaname LIKE 'qm\\_%'`,
    );
    // Every command FerretDB runs, and every counter step, is a transaction of its own: their count
    // is the number of statements an operation asked for, whatever rows they touched.
    const { rows: db } = await client.query(
      'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    // FerretDB names a collection's table <collection>_<hash>.
    return Object.fromEntries([
      ...rows.map((r) => [
        `${r.schemaname.replace(/^qm_/, '')}.${r.relname.replace(/_[0-9a-f]{8}$/, '')}`,
        COUNTERS.map((c) => r[c]),
      ]),
      [TRANSACTIONS, Number(db[0].n)],
    ]);
  } finally {
    await client.end();
  }
}

/** PostgreSQL publishes a backend's counters when it goes idle, at most once a second. */
export const settle = () => new Promise((r) => setTimeout(r, 1_500));

/**
 * Per operation, the table reads (sequential + index scans) and rows written (inserted, updated,
 * deleted) between two readings; tables touched less than once per 10 operations are left out.
 */
export function perOperationStatements(before, after, n) {
  const tables = [];
  const total = { reads: 0, writes: 0 };
  // Less this script's own two readings.
  const transactions = +((after[TRANSACTIONS] - before[TRANSACTIONS] - 2) / n).toFixed(1);
  for (const [table, now] of Object.entries(after)) {
    if (table === TRANSACTIONS) continue;
    const was = before[table] ?? COUNTERS.map(() => 0);
    const d = now.map((v, i) => (v - was[i]) / n);
    const reads = d[0] + d[1];
    const writes = d[2] + d[3] + d[4];
    total.reads += reads;
    total.writes += writes;
    if (reads + writes >= 0.1) tables.push({ table, reads: +reads.toFixed(1), writes: +writes.toFixed(1) });
  }
  tables.sort((a, b) => b.reads + b.writes - (a.reads + a.writes));
  return { tables, reads: +total.reads.toFixed(1), writes: +total.writes.toFixed(1), transactions };
}

/** Prints perOperationStatements as a table with its totals. */
export function printStatements(label, { tables, reads, writes, transactions }) {
  console.log(`PostgreSQL per ${label} (FerretDB's statements; background work of the stack included):`);
  console.table(tables);
  console.log(
    `total ${reads} table reads, ${writes} rows written, in ${transactions} transactions (statements)`,
  );
}
