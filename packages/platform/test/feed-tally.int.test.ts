import mongoose, { type Connection } from 'mongoose';
import {
  addFeeds,
  ensureIndexes,
  feedFields,
  feedCounterId,
  feedTally,
  sequencesOf,
  type StoreEngine,
} from '../src';
import { testEngineDb } from './infra';

// A running per-day tally over a long feed: exact totals however many steps the catch-up takes,
// starting at the horizon (found by binary search), and nothing counted twice on the next read.
interface Doc {
  _id: string;
  owner: string;
  at: Date;
  paise: number;
}

const schema = new mongoose.Schema<Doc>(
  { _id: String, owner: String, at: Date, paise: Number },
  { versionKey: false },
);
addFeeds(schema, ['owner']);

const DAY = 24 * 60 * 60_000;
const NOW = new Date(Date.UTC(2026, 10, 23, 12));
const SINCE = new Date(NOW.getTime() - 10 * DAY);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

describe('feedTally on the real database', () => {
  let db: Connection;
  let engine: StoreEngine;

  beforeAll(async () => {
    ({ db, engine } = await testEngineDb('tally'));
    db.model<Doc>('docs', schema);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
    await engine.close();
  });

  it('sums a 5,000-entry feed in several saved steps from the horizon, then only what is new', async () => {
    const Docs = db.model<Doc>('docs');
    // 5,000 entries over 20 days, in time order: the first half is older than the horizon.
    const docs = Array.from({ length: 5000 }, (_, i) => {
      const seq = i + 1;
      const at = new Date(NOW.getTime() - 20 * DAY + i * ((20 * DAY) / 5000));
      return { _id: `d${seq}`, owner: 'o', at, paise: seq % 97, ...feedFields('owner', 'o', seq) };
    });
    for (let i = 0; i < docs.length; i += 1000) await Docs.insertMany(docs.slice(i, i + 1000));
    await sequencesOf(db).set(feedCounterId('docs', 'owner', 'o'), 5000);

    const tally = feedTally<Doc>({
      conn: db,
      model: Docs,
      feed: 'owner',
      owner: 'o',
      id: 'test-tally',
      dateOf: (d) => d.at,
      dayOf: (d) => (d.at >= SINCE ? dayOf(d.at) : null),
      paiseOf: (d) => d.paise,
      settled: () => true,
      horizon: () => ({ since: SINCE, oldestDay: dayOf(SINCE) }),
    });
    const expected: Record<string, { count: number; amountPaise: number }> = {};
    for (const d of docs.filter((x) => x.at >= SINCE)) {
      const e = (expected[dayOf(d.at)] ??= { count: 0, amountPaise: 0 });
      e.count++;
      e.amountPaise += d.paise;
    }
    expect(await tally.days(NOW)).toEqual(expected);
    // Started at the horizon's bucket, not at the feed's first entry.
    const saved = await db.collection('feed_tallies').findOne({ _id: 'test-tally' as never });
    expect(saved!.throughSeq).toBe(5000);

    // Asked again: nothing new, the same totals; one more entry counts once.
    expect(await tally.days(NOW)).toEqual(expected);
    const late = { _id: 'd5001', owner: 'o', at: NOW, paise: 50, ...feedFields('owner', 'o', 5001) };
    await Docs.create(late);
    await sequencesOf(db).set(feedCounterId('docs', 'owner', 'o'), 5001);
    const after = await tally.days(new Date(NOW.getTime() + 2 * 60_000));
    expect(after[dayOf(NOW)]).toEqual({
      count: expected[dayOf(NOW)]!.count + 1,
      amountPaise: expected[dayOf(NOW)]!.amountPaise + 50,
    });
  });

  it("counts a new feed's first entries: a tally started before any entry begins at the start", async () => {
    const Docs = db.model<Doc>('docs');
    const tally = feedTally<Doc>({
      conn: db,
      model: Docs,
      feed: 'owner',
      owner: 'fresh',
      id: 'fresh-tally',
      dateOf: (d) => d.at,
      dayOf: (d) => dayOf(d.at),
      paiseOf: (d) => d.paise,
      settled: () => true,
      horizon: () => ({ since: SINCE, oldestDay: dayOf(SINCE) }),
    });
    // The dashboard asked before the first order: an empty feed is not "older than the horizon".
    expect(await tally.days(NOW)).toEqual({});
    const first = [1, 2, 3].map((seq) => ({
      _id: `fresh${seq}`,
      owner: 'fresh',
      at: NOW,
      paise: 100 * seq,
      ...feedFields('owner', 'fresh', seq),
    }));
    await Docs.insertMany(first);
    await sequencesOf(db).set(feedCounterId('docs', 'owner', 'fresh'), 3);
    expect(await tally.days(new Date(NOW.getTime() + 2 * 60_000))).toEqual({
      [dayOf(NOW)]: { count: 3, amountPaise: 600 },
    });
  });
});
