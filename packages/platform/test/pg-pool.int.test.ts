import pg from 'pg';
import { createPgPool } from '../src/store/engine/ferretdb-postgresql/sql';
import { eventually, FERRETDB_POSTGRESQL_URL } from './infra';

// docs/adr/015: a PostgreSQL kill ended every process holding an idle client of a pg pool (an
// 'error' event with no listener). Here the idle client's backend is ended by the server instead
// (pg_terminate_backend), which reaches the client the same way, without stopping the shared server.
describe('createPgPool', () => {
  it('outlives the server ending its idle client, and the next query answers', async () => {
    const pool = createPgPool(FERRETDB_POSTGRESQL_URL, 2);
    const admin = new pg.Client({ connectionString: FERRETDB_POSTGRESQL_URL });
    await admin.connect();
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const idle = rows[0]!.pid;
      await admin.query('SELECT pg_terminate_backend($1)', [idle]);
      // The pool drops the client; without createPgPool's listener its 'error' is thrown out of the
      // socket's handler (an uncaught exception: the test fails, a service process ends).
      await eventually(() => pool.totalCount === 0);
      const again = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(again.rows[0]!.pid).not.toBe(idle);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
