import { LOCAL_POSTGRESQL_URL } from '@qm/platform';
import { INFRA } from '@qm/testkit';
import pg from 'pg';
import { type Stack, startStack } from './harness';

jest.setTimeout(60_000);

// In-process services get the tests' store engine from @qm/testkit (docs/adr/024). On the local
// engine the platform gives declared fields GIN indexes in FerretDB's PostgreSQL (docs/adr/004); with
// the MongoDB engine the service touches nothing but the MongoDB API, so PostgreSQL (still what our
// FerretDB stores in) gets none of ours.
const local = INFRA.STORE_ENGINE.engine === 'ferretdb-postgresql';

describe(`the in-process catalog on the ${INFRA.STORE_ENGINE.engine} engine`, () => {
  let stack: Stack;
  let sql: pg.Client;
  beforeAll(async () => {
    stack = await startStack();
    sql = new pg.Client({ connectionString: INFRA.STORE_ENGINE.postgresqlUrl ?? LOCAL_POSTGRESQL_URL });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await stack?.stop();
  });

  it(
    local
      ? "gives the products' declared fields GIN indexes in PostgreSQL"
      : 'creates nothing in PostgreSQL itself',
    async () => {
      const table = await sql.query<{ table: string }>(
        `SELECT _jsonb->>'table' AS table FROM "${stack.db}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`,
        ['products'],
      );
      const idx = await sql.query<{ indexdef: string }>(
        'SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2',
        [stack.db, table.rows[0]!.table],
      );
      const gin = idx.rows.map((r) => r.indexdef).filter((d) => d.includes('USING gin'));
      if (!local) {
        expect(gin).toEqual([]);
        const own = await sql.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [
          stack.db,
          'qm_sequences',
        ]);
        expect(own.rowCount).toBe(0);
        return;
      }
      for (const field of ['id', 'type', 'manufacturerId'])
        expect(gin.some((d) => d.includes(`'${field}'::text`))).toBe(true);
    },
  );
});
