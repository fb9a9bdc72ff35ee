import pg from 'pg';

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
