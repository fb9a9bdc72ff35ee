import type { Connection } from 'mongoose';
import pg from 'pg';
import { connectMongo, nextSequence, openStoreEngine, type Sequences, sequencesOf } from '../src';
import { collectionSequences } from '../src/store/engine/mongodb';
import { FERRETDB_POSTGRESQL_URL, LOCAL_ENGINE, MONGO_URL, uniqueName } from './infra';

/** As startService does: the local engine attached to `conn`; answers its close. */
const keepSequencesInPostgres = async (conn: Connection) => {
  const engine = await openStoreEngine(conn, LOCAL_ENGINE);
  return () => engine.close();
};

// docs/adr/020: a service's counters, in the `counters` collection (MongoDB) or in a table of
// FerretDB's PostgreSQL (the local stack), hand out the same numbers the same way.
const connect = () => connectMongo(MONGO_URL, uniqueName('qm_test_seq'), { maxPoolSize: 20 });

describe.each([
  [
    'the counters collection',
    async (conn: Connection) => ({ seqs: collectionSequences(conn), close: async () => {} }),
  ],
  [
    "FerretDB's PostgreSQL",
    async (conn: Connection) => {
      const close = await keepSequencesInPostgres(conn);
      return { seqs: sequencesOf(conn), close };
    },
  ],
])('sequences in %s', (_name, open) => {
  let conn: Connection;
  let seqs: Sequences;
  let close: () => Promise<void>;
  beforeAll(async () => {
    conn = await connect();
    ({ seqs, close } = await open(conn));
  });
  afterAll(async () => {
    await close();
    await conn.dropDatabase();
    await conn.close();
  });

  it('hands 200 concurrent takers 200 different numbers, 1 to 200', async () => {
    const taken = await Promise.all(Array.from({ length: 200 }, () => seqs.next('things')));
    expect(new Set(taken).size).toBe(200);
    expect(Math.min(...taken)).toBe(1);
    expect(Math.max(...taken)).toBe(200);
    expect(await seqs.current('things')).toBe(200);
  });

  it('takes a block of numbers at once and answers its last', async () => {
    expect(await seqs.next('block', 5)).toBe(5);
    expect(await seqs.next('block')).toBe(6);
    expect(await seqs.current('never-taken')).toBe(0);
  });

  it('takes from several counters in one step, a name asked twice getting two ranges', async () => {
    await seqs.next('many-a', 10);
    const lasts = await seqs.nextMany([
      { name: 'many-b', count: 2 },
      { name: 'many-a', count: 1 },
      { name: 'many-b', count: 3 },
    ]);
    // many-b: 1–2 then 3–5; many-a: 11.
    expect(lasts).toEqual([2, 11, 5]);
    expect(await seqs.current('many-b')).toBe(5);
    expect(await seqs.nextMany([])).toEqual([]);
  });

  it('60 concurrent multi-counter steps over shared counters in any order: every number once, no deadlock', async () => {
    const names = ['m1', 'm2', 'm3', 'm4'];
    const steps = Array.from({ length: 60 }, (_, i) =>
      // Each step asks for three of the four counters, in an order of its own.
      [0, 1, 2].map((k) => ({ name: names[(i + k * (1 + (i % 3))) % 4]!, count: 1 })),
    );
    const results = await Promise.all(steps.map((s) => seqs.nextMany(s)));
    const byName = new Map<string, number[]>();
    steps.forEach((s, i) =>
      s.forEach((st, k) => byName.set(st.name, [...(byName.get(st.name) ?? []), results[i]![k]!])),
    );
    for (const [name, got] of byName) {
      expect(new Set(got).size).toBe(got.length);
      expect(Math.max(...got)).toBe(await seqs.current(name));
    }
  });

  it('sets counters for loaders and forgets them by prefix', async () => {
    await seqs.set('feed:log:user:1', 40);
    await seqs.set('feed:log:user:2', 7);
    await seqs.set('feed:other:user:1', 3);
    expect(await seqs.next('feed:log:user:1')).toBe(41);
    await seqs.clear('feed:log:');
    expect(await seqs.current('feed:log:user:1')).toBe(0);
    expect(await seqs.current('feed:log:user:2')).toBe(0);
    expect(await seqs.current('feed:other:user:1')).toBe(3);
  });
});

describe("counters moved into FerretDB's PostgreSQL", () => {
  let conn: Connection;
  let sql: pg.Client;
  beforeAll(async () => {
    conn = await connect();
    sql = new pg.Client({ connectionString: FERRETDB_POSTGRESQL_URL });
    await sql.connect();
  });
  afterAll(async () => {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
    await sql.end();
  });

  it('carries on from the numbers the counters collection handed out, which no longer holds them', async () => {
    const before = collectionSequences(conn);
    for (let i = 0; i < 7; i++) await before.next('users');
    await before.next('orders', 30);
    const close = await keepSequencesInPostgres(conn);
    try {
      expect(await nextSequence(conn, 'users')).toBe(8);
      expect(await nextSequence(conn, 'orders')).toBe(31);
      expect(await conn.collection('counters').countDocuments()).toBe(0);
      const rows = await sql.query(`SELECT name, seq FROM "${conn.name}".qm_sequences ORDER BY name`);
      expect(rows.rows).toEqual([
        { name: 'orders', seq: '31' },
        { name: 'users', seq: '8' },
      ]);
    } finally {
      await close();
    }
    // Closed: the connection is back to the (emptied) collection.
    expect(await sequencesOf(conn).current('users')).toBe(0);
  });

  it('makes its table again when the database was dropped under it, starting from 1', async () => {
    const close = await keepSequencesInPostgres(conn);
    try {
      expect(await nextSequence(conn, 'users')).toBe(9);
      await conn.dropDatabase();
      expect(await nextSequence(conn, 'users')).toBe(1);
      expect(await sequencesOf(conn).current('users')).toBe(1);
    } finally {
      await close();
    }
  });

  it('lets eight processes make its table on a new database at once', async () => {
    // CREATE TABLE IF NOT EXISTS in concurrent transactions can fail in all but one (two replicas
    // starting together hit it in CI). Each round is a database none of them has seen; without the
    // lock, 30 rounds failed within 2 s.
    for (let round = 0; round < 30; round++) {
      const name = uniqueName('qm_test_seq_start');
      const conns = await Promise.all(
        Array.from({ length: 8 }, () => connectMongo(MONGO_URL, name, { maxPoolSize: 2 })),
      );
      try {
        const closes = await Promise.all(conns.map(keepSequencesInPostgres));
        const taken = await Promise.all(conns.map((c) => nextSequence(c, 'users')));
        expect(taken.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        await Promise.all(closes.map((c) => c()));
      } finally {
        await conns[0]!.dropDatabase();
        await Promise.all(conns.map((c) => c.close()));
      }
    }
  });

  it('lets two processes start on one database at once', async () => {
    const other = await connectMongo(MONGO_URL, conn.name, { maxPoolSize: 2 });
    await collectionSequences(conn).next('late', 3);
    const closes = await Promise.all([keepSequencesInPostgres(conn), keepSequencesInPostgres(other)]);
    try {
      const taken = await Promise.all([nextSequence(conn, 'late'), nextSequence(other, 'late')]);
      expect(taken.sort()).toEqual([4, 5]);
    } finally {
      await Promise.all(closes.map((c) => c()));
      await other.close();
    }
  });
});
