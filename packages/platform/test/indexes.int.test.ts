import mongoose, { type Connection } from 'mongoose';
import pg from 'pg';
import { addFeeds, BUCKET_SIZE, ensureIndexes, feedsOf, type StoreEngine } from '../src';
import { ferretdbTableOf } from '../src/store/engine/ferretdb-postgresql/sql';
import { eventually, FERRETDB_POSTGRESQL_URL, LOCAL_ENGINE, testEngineDb } from './infra';

// docs/adr/004: declared indexes are served by the local engine (FerretDB's PostgreSQL), and feeds page
// newest-first with a bounded number of indexed equality reads.
interface Entry {
  _id: string;
  owner: string;
  kind: string;
  n: number;
}

const schema = new mongoose.Schema<Entry>({ _id: String, owner: String, kind: String, n: Number });
schema.index({ owner: 1, n: -1 });
addFeeds(schema, ['owner', 'all']);

interface Line {
  _id: string;
  status: string;
}
const lineSchema = new mongoose.Schema<Line>({ _id: String, status: String });
lineSchema.index({ status: 1 });

describe('declared indexes and feeds on the real database', () => {
  let db: Connection;
  let sql: pg.Client;
  let engine: StoreEngine;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb('indexes', LOCAL_ENGINE));
    db.model<Entry>('entries', schema);
    await ensureIndexes(db);
    sql = new pg.Client({ connectionString: FERRETDB_POSTGRESQL_URL });
    await sql.connect();
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
    await engine.close();
    await sql.end();
  });

  const tableOf = async (collection: string) => (await ferretdbTableOf(sql, db.name, collection))!;

  it('gives every declared field, _id and the platform collections a GIN index FerretDB can use', async () => {
    const table = await tableOf('entries');
    const idx = await sql.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2',
      [db.name, table],
    );
    const gin = idx.rows.map((r) => r.indexdef).filter((d) => d.includes('USING gin'));
    for (const field of ['_id', 'owner', 'n', 'feed_owner', 'feed_all'])
      expect(gin.some((d) => d.includes(`'${field}'::text`))).toBe(true);
    // The platform's own collections are read by _id on every keyed call: a scan there cost each
    // transfer 50–100 ms once its idempotency keys numbered thousands.
    // Idempotency keys also by their expiry window, which their sweep asks for.
    const expected = { counters: 1, processed_events: 1, outbox: 1, idempotency_keys: 2 };
    for (const [collection, gin] of Object.entries(expected)) {
      const platformIdx = await sql.query(
        'SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexdef LIKE $3',
        [db.name, await tableOf(collection), '%USING gin%'],
      );
      expect({ collection, gin: platformIdx.rowCount }).toEqual({ collection, gin });
    }

    // The query FerretDB issues for {owner: "o1"}, planned with enough rows that a scan would lose.
    await db
      .collection<Entry>('entries')
      .insertMany(
        Array.from({ length: 3000 }, (_, i) => ({ _id: `x${i}`, owner: `o${i % 300}`, kind: 'x', n: i })),
      );
    await sql.query(`ANALYZE "${db.name}"."${table}"`);
    const plan = await sql.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT _jsonb FROM "${db.name}"."${table}" WHERE _jsonb->'owner' @> '"o1"'`,
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan|Bitmap Index Scan/);
    await db.collection<Entry>('entries').deleteMany({});
  });

  it("drops our indexes for a bulk load, keeps FerretDB's, and ensureIndexes makes them again", async () => {
    const table = await tableOf('entries');
    const names = async () =>
      (
        await sql.query<{ name: string }>(
          'SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1',
          [db.name, table],
        )
      ).rows.map((r) => r.name);
    const before = await names();
    const ours = before.filter((n) => n.startsWith('qm_'));
    expect(ours.length).toBeGreaterThan(0);
    await engine.beginBulkLoad('entries');
    expect(await names()).toEqual(before.filter((n) => !n.startsWith('qm_')));
    await ensureIndexes(db);
    await engine.endBulkLoad('entries');
    expect(await names()).toEqual(before);
  });

  it("finds a compare-and-set's document by its _id alone, not by the index of the other field", async () => {
    // The wallet closes a hold's history line with {_id, status: "pending"}. PostgreSQL planned that
    // through the status index, whose entries include every dead version of every line once pending:
    // ~25,000 entries and 5,000 heap pages read per close on a 1 M-line ledger. Our FerretDB build
    // pushes the _id down alone (scripts/patches/ferretdb-*-pushdown-id-alone.patch).
    const lines = db.model<Line>('lines', lineSchema);
    await ensureIndexes(db);
    await lines.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: `l${i}`, status: 'pending' })));
    await lines.updateMany({}, { $set: { status: 'completed' } });
    await lines.create({ _id: 'target', status: 'pending' });
    const table = await tableOf('lines');
    await sql.query(`ANALYZE "${db.name}"."${table}"`);

    const scansOf = async () => {
      const r = await sql.query<{ field: string; scans: string }>(
        `SELECT substring(i.indexdef from '''(\\w+)''::text') AS field, s.idx_scan AS scans
           FROM pg_stat_user_indexes s JOIN pg_indexes i ON i.schemaname = s.schemaname AND i.indexname = s.indexrelname
          WHERE s.schemaname = $1 AND s.relname = $2 AND i.indexdef LIKE '%USING gin%'`,
        [db.name, table],
      );
      return Object.fromEntries(r.rows.map((row) => [row.field, Number(row.scans)]));
    };
    const before = await scansOf();
    for (let i = 0; i < 5; i++) await lines.findOne({ _id: 'target', status: 'pending' }).lean();
    const closed = await lines.updateOne(
      { _id: 'target', status: 'pending' },
      { $set: { status: 'completed' } },
    );
    expect(closed.modifiedCount).toBe(1);

    // FerretDB's sessions report their index statistics when idle, within PostgreSQL's 10 s.
    const used = (now: Record<string, number>) => ({
      _id: now._id! - before._id!,
      status: now.status! - before.status!,
    });
    const after = await eventually(async () => {
      const now = used(await scansOf());
      return now._id + now.status >= 6 && now;
    }, 20_000);
    expect(after).toEqual({ _id: 6, status: 0 });
  }, 30_000);

  it('pages an owner newest first across bucket boundaries, in every feed', async () => {
    const Entries = db.model<Entry>('entries');
    const feeds = feedsOf(db, Entries, { owner: (e) => e.owner, all: () => 'all' });
    const count = BUCKET_SIZE * 2 + 5;
    for (let n = 1; n <= count; n++) {
      await feeds.insert({ _id: `a${n}`, owner: n % 3 === 0 ? 'b' : 'a', kind: 'k', n });
    }
    const ownA = Array.from({ length: count }, (_, i) => count - i).filter((n) => n % 3 !== 0);

    const pages: number[][] = [];
    for (let page = 1; ; page++) {
      const { items, total } = await feeds.page('owner', 'a', page, 20);
      expect(total).toBe(ownA.length);
      if (!items.length) break;
      pages.push(items.map((e) => e.n));
    }
    expect(pages.flat()).toEqual(ownA);
    expect(pages[0]).toHaveLength(20);

    const all = await feeds.page('all', 'all', 2, 7);
    expect(all.items.map((e) => e.n)).toEqual([
      count - 7,
      count - 8,
      count - 9,
      count - 10,
      count - 11,
      count - 12,
      count - 13,
    ]);
    expect(all.total).toBe(count);
    await expect(feeds.page('owner', 'a', 1, BUCKET_SIZE + 1)).rejects.toThrow(RangeError);
    expect((await feeds.page('owner', 'nobody', 1, 20)).items).toEqual([]);
  });

  it('numbers concurrent inserts of one owner without duplicates', async () => {
    const Entries = db.model<Entry>('entries');
    const feeds = feedsOf(db, Entries, { owner: (e) => e.owner });
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => feeds.insert({ _id: `c${i}`, owner: 'c', kind: 'k', n: i })),
    );
    const seen = [];
    for (let page = 1; page <= 3; page++) seen.push(...(await feeds.page('owner', 'c', page, 20)).items);
    expect(seen).toHaveLength(50);
    expect(new Set(seen.map((e) => e._id)).size).toBe(50);
  });
});
