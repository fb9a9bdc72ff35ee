import { INFRA } from '@qm/testkit';
import pg from 'pg';
import { type Stack, startStack } from './harness';

jest.setTimeout(60_000);

// In-process services get FerretDB's PostgreSQL from @qm/testkit, so the platform's index backend
// (docs/adr/004) runs in integration tests as it does in the stack.
describe('the in-process catalog on FerretDB', () => {
  let stack: Stack;
  let sql: pg.Client;
  beforeAll(async () => {
    stack = await startStack();
    sql = new pg.Client({ connectionString: INFRA.FERRETDB_POSTGRESQL_URL });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await stack?.stop();
  });

  it("gives the products' declared fields GIN indexes in PostgreSQL", async () => {
    const table = await sql.query<{ table: string }>(
      `SELECT _jsonb->>'table' AS table FROM "${stack.db}"._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`,
      ['products'],
    );
    const idx = await sql.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2',
      [stack.db, table.rows[0]!.table],
    );
    const gin = idx.rows.map((r) => r.indexdef).filter((d) => d.includes('USING gin'));
    for (const field of ['id', 'type', 'manufacturerId'])
      expect(gin.some((d) => d.includes(`'${field}'::text`))).toBe(true);
  });
});
