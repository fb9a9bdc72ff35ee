import mongoose, { type Connection } from 'mongoose';
import {
  countEqual,
  ensureIndexes,
  orderedPage,
  type OrderedPageQuery,
  queryPage,
  type StoreEngine,
} from '../src';
import { LOCAL_ENGINE, testEngineDb } from './infra';

// Sorted pages read through the local engine's PostgreSQL (store/engine/ferretdb-postgresql) must
// be exactly what MongoDB's find().sort().skip().limit() answers, the reference the plain path follows.
interface Line {
  _id: string;
  status: string;
  amount: number;
  createdAt: Date;
  n: number;
}

const schema = new mongoose.Schema<Line>(
  { _id: String, status: String, amount: Number, createdAt: Date, n: Number },
  { versionKey: false },
);
schema.index({ createdAt: -1, n: -1 });
schema.index({ amount: -1, n: -1 });
schema.index({ status: 1, amount: -1, n: -1 });

describe('ordered pages on the real database', () => {
  let db: Connection;
  let engine: StoreEngine;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb('ordered', LOCAL_ENGINE));
    const Lines = db.model<Line>('lines', schema);
    await ensureIndexes(db);
    const start = Date.UTC(2026, 10, 1);
    await Lines.insertMany(
      Array.from({ length: 150 }, (_, i) => ({
        _id: `l${i}`,
        status: ['completed', 'pending', 'failed'][i % 3]!,
        // Repeated amounts and dates, so the tie-break on n decides the order too.
        amount: (i * 7919) % 40,
        createdAt: new Date(start + Math.floor(i / 4) * 60_000),
        n: i,
      })),
    );
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
    await engine.close();
  });

  const cases: [string, OrderedPageQuery][] = [
    [
      'newest first',
      {
        equals: {},
        sort: [
          ['createdAt', -1],
          ['n', -1],
        ],
        skip: 0,
        limit: 20,
      },
    ],
    [
      'oldest first, third page',
      {
        equals: {},
        sort: [
          ['createdAt', 1],
          ['n', 1],
        ],
        skip: 40,
        limit: 20,
      },
    ],
    [
      'by amount, one status',
      {
        equals: { status: 'pending' },
        sort: [
          ['amount', -1],
          ['n', -1],
        ],
        skip: 10,
        limit: 15,
      },
    ],
    [
      'smallest first, one status',
      {
        equals: { status: 'failed' },
        sort: [
          ['amount', 1],
          ['n', 1],
        ],
        skip: 0,
        limit: 50,
      },
    ],
    [
      'past the end',
      {
        equals: { status: 'completed' },
        sort: [
          ['amount', -1],
          ['n', -1],
        ],
        skip: 60,
        limit: 20,
      },
    ],
  ];

  it.each(cases)('%s: the same page and total as MongoDB semantics', async (_name, q) => {
    const Lines = db.model<Line>('lines');
    const viaPostgres = await orderedPage(Lines, q);
    const plain = await queryPage(Lines, q);
    expect(viaPostgres.items.map((l) => l._id)).toEqual(plain.items.map((l) => l._id));
    expect(viaPostgres.total).toBe(plain.total);
    expect(viaPostgres.items[0]).toEqual(plain.items[0]);
  });

  it('counts with and without a filter', async () => {
    expect(await countEqual(db.model<Line>('lines'), {})).toBe(150);
    expect(await countEqual(db.model<Line>('lines'), { status: 'pending' })).toBe(50);
    expect(await countEqual(db.model<Line>('lines'), { status: 'nope' })).toBe(0);
  });
});
