import mongoose, { type Connection } from 'mongoose';
import {
  countEqual,
  engineOf,
  sumEqual,
  ensureIndexes,
  nextSequence,
  orderedPage,
  sequencesOf,
  type StoreEngine,
  type StoreEngineChoice,
  type TextSearchSpec,
} from '../src';
import { LOCAL_ENGINE, testEngineDb } from './infra';

// docs/adr/024: every capability of the store engine answers the same on both engines. Both run
// against our FerretDB here: the MongoDB engine uses nothing but the MongoDB API, so it works on any
// server that speaks the protocol (the chart's MongoDB included).
interface Doc {
  _id: string;
  owner: string;
  status: string;
  amount: number;
  n: number;
  search: string;
  note?: string;
  at: Date;
}

const schema = new mongoose.Schema<Doc>(
  {
    _id: String,
    owner: String,
    status: String,
    amount: Number,
    n: Number,
    search: String,
    note: String,
    at: Date,
  },
  { versionKey: false },
);
schema.index({ status: 1, amount: -1, n: -1 });
schema.index({ amount: -1, n: -1 });

const WORDS = ['alpha', 'beta', 'gamma 50%', 'delta_x', 'a.b'];
const START = Date.UTC(2026, 10, 1);
const DOCS: Doc[] = Array.from({ length: 90 }, (_, i) => ({
  _id: `d${String(i).padStart(3, '0')}`,
  owner: `o${i % 4}`,
  status: ['completed', 'pending', 'failed'][i % 3]!,
  amount: (i * 7919) % 25,
  n: i,
  search: `${WORDS[i % WORDS.length]} item ${i}`,
  ...(i % 2 ? { note: `note ${i}` } : {}),
  at: new Date(START + i * 60_000),
}));

const SEARCH: TextSearchSpec = {
  collection: 'docs',
  field: 'search',
  order: 'n',
  orderedWithin: ['owner'],
  fields: { owner: 'string', amount: 'number', note: 'optional-string', at: 'date' },
};

describe.each<[string, StoreEngineChoice | undefined]>([
  ['mongodb', { engine: 'mongodb' }],
  ['ferretdb-postgresql', LOCAL_ENGINE],
])('the %s engine on our FerretDB', (name, choice) => {
  let db: Connection;
  let engine: StoreEngine;
  let Docs: mongoose.Model<Doc>;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb(`engine_${name.replace(/-/g, '_')}`, choice));
    Docs = db.model<Doc>('docs', schema);
    await ensureIndexes(db);
    await Docs.insertMany(DOCS);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await engine.close();
    await db.close();
  });

  it('is the engine attached to the connection', () => {
    expect(engine.name).toBe(name);
    expect(engineOf(db).name).toBe(name);
  });

  it('counters: concurrent takers never share a number; current, set and clear', async () => {
    const taken = await Promise.all(Array.from({ length: 60 }, () => nextSequence(db, 'things')));
    expect([...taken].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await nextSequence(db, 'things', 5)).toBe(65);
    const seqs = sequencesOf(db);
    expect(await seqs.current('things')).toBe(65);
    expect(await seqs.current('never')).toBe(0);
    await seqs.set('feed:a:1', 40);
    await seqs.set('feed:b:1', 3);
    expect(await seqs.next('feed:a:1')).toBe(41);
    await seqs.clear('feed:a:');
    expect([await seqs.current('feed:a:1'), await seqs.current('feed:b:1')]).toEqual([0, 3]);
  });

  it('ordered pages and counts: what find().sort().skip().limit() means', async () => {
    const expected = (equals: Partial<Doc>, skip: number, limit: number) =>
      DOCS.filter((d) => Object.entries(equals).every(([k, v]) => d[k as keyof Doc] === v))
        .sort((a, b) => b.amount - a.amount || b.n - a.n)
        .slice(skip, skip + limit)
        .map((d) => d._id);
    for (const [equals, skip] of [
      [{}, 0],
      [{}, 37],
      [{ status: 'pending' }, 5],
      [{ status: 'none' }, 0],
    ] as const) {
      const page = await orderedPage(Docs, {
        equals,
        sort: [
          ['amount', -1],
          ['n', -1],
        ],
        skip,
        limit: 10,
      });
      expect(page.items.map((d) => d._id)).toEqual(expected(equals, skip, 10));
      expect(page.total).toBe(expected(equals, 0, 1000).length);
    }
    expect(await countEqual(Docs, {})).toBe(90);
    expect(await countEqual(Docs, { status: 'failed' })).toBe(30);
    expect(await countEqual(Docs, { status: 'failed', owner: 'o1' })).toBe(
      DOCS.filter((d) => d.status === 'failed' && d.owner === 'o1').length,
    );
  });

  it('sums a field by the database, with and without a filter; what is no number adds nothing', async () => {
    const sum = (docs: Doc[]) => docs.reduce((t, d) => t + d.amount, 0);
    expect(await sumEqual(Docs, {}, 'amount')).toBe(sum(DOCS));
    expect(await sumEqual(Docs, { status: 'failed' }, 'amount')).toBe(
      sum(DOCS.filter((d) => d.status === 'failed')),
    );
    expect(await sumEqual(Docs, { status: 'failed', owner: 'o1' }, 'amount')).toBe(
      sum(DOCS.filter((d) => d.status === 'failed' && d.owner === 'o1')),
    );
    expect(await sumEqual(Docs, { status: 'nope' }, 'amount')).toBe(0);
    expect(await sumEqual(Docs, {}, 'note')).toBe(0);
  });

  it('text search: a literal substring, newest first, with equality filters and paging', async () => {
    const search = await engine.textSearch(SEARCH);
    try {
      const expected = (text: string, equals: Partial<Doc>, skip: number, limit: number) =>
        DOCS.filter(
          (d) => d.search.includes(text) && Object.entries(equals).every(([k, v]) => d[k as keyof Doc] === v),
        )
          .sort((a, b) => b.n - a.n)
          .slice(skip, skip + limit)
          .map((d) => ({ _id: d._id, owner: d.owner, amount: d.amount, note: d.note ?? null, at: d.at }));
      for (const [text, equals, skip] of [
        ['alpha', {}, 0],
        ['item 1', { owner: 'o1' }, 2],
        // The pattern languages' own characters are literal.
        ['50%', {}, 0],
        ['_x', { owner: 'o3' }, 0],
        ['a.b', {}, 1],
        ['.', {}, 0],
        ['nothing like it', {}, 0],
      ] as const) {
        const found = await search.find({ text, equals, skip, limit: 6 });
        expect([text, found]).toEqual([text, expected(text, equals, skip, 6)]);
      }
      expect(expected('50%', {}, 0, 6).length).toBeGreaterThan(0);
    } finally {
      await search.close();
    }
  });

  it('bulk load: begin, insert, make the indexes again, end; reads answer what was loaded', async () => {
    const Bulk = db.model<Doc>('bulk_docs', schema);
    await ensureIndexes(db);
    const search = await engine.textSearch({ ...SEARCH, collection: 'bulk_docs' });
    await search.close();
    await engine.beginBulkLoad('bulk_docs');
    await Bulk.insertMany(DOCS);
    await ensureIndexes(db);
    const again = await engine.textSearch({ ...SEARCH, collection: 'bulk_docs' });
    try {
      await engine.endBulkLoad('bulk_docs');
      expect(await countEqual(Bulk, { status: 'failed' })).toBe(30);
      const page = await orderedPage(Bulk, { equals: {}, sort: [['n', -1]], skip: 0, limit: 3 });
      expect(page).toMatchObject({ items: [{ _id: 'd089' }, { _id: 'd088' }, { _id: 'd087' }], total: 90 });
      const found = await again.find({ text: 'alpha', equals: {}, skip: 0, limit: 2 });
      expect(found.map((d) => d._id)).toEqual(['d085', 'd080']);
    } finally {
      await again.close();
    }
    // A collection the engine keeps nothing of yet is no error.
    await engine.beginBulkLoad('never_made');
    await engine.endBulkLoad('never_made');
  });
});
