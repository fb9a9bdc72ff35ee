import type { Connection } from 'mongoose';
import { connectMongo, nextSequence } from '../src';
import { MONGO_URL, uniqueName } from './infra';

// docs/adr/008: single-document conditional updates are atomic, also with many connections at once
// (locally thanks to scripts/patches/ferretdb-*-writes-atomic-per-document.patch).
describe('single-document updates from a pool of connections (real database)', () => {
  const POOL = 40;
  let db: Connection;
  beforeAll(async () => {
    db = await connectMongo(MONGO_URL, uniqueName('qm_test_mongo'), { maxPoolSize: POOL });
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
  });

  it('hands out unique numeric ids under concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 200 }, () => nextSequence(db, 'things')));
    expect(new Set(ids).size).toBe(200);
    expect(Math.max(...ids)).toBe(200);
  });

  it('never lets a conditional decrement take stock below zero', async () => {
    const col = db.collection<{ _id: string; stock: number }>('stock');
    await col.insertOne({ _id: 'p1', stock: 10 });
    const results = await Promise.all(
      Array.from({ length: 120 }, () =>
        col.updateOne({ _id: 'p1', stock: { $gte: 1 } }, { $inc: { stock: -1 } }),
      ),
    );
    expect(results.reduce((n, r) => n + r.modifiedCount, 0)).toBe(10);
    expect((await col.findOne({ _id: 'p1' }))?.stock).toBe(0);
  });

  it('keeps every $inc and $push of concurrent updates to one document', async () => {
    const col = db.collection<{ _id: string; n: number; seen: number[] }>('tally');
    await col.insertOne({ _id: 't', n: 0, seen: [] });
    await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        i % 2
          ? col.updateOne({ _id: 't' }, { $inc: { n: 1 }, $push: { seen: i } })
          : col.findOneAndUpdate({ _id: 't' }, { $inc: { n: 1 }, $push: { seen: i } }),
      ),
    );
    const doc = await col.findOne({ _id: 't' });
    expect(doc?.n).toBe(120);
    expect(new Set(doc?.seen).size).toBe(120);
  });

  it('moves a state exactly once when many compare-and-set it at once', async () => {
    const col = db.collection<{ _id: string; state: string; by?: number }>('cas');
    await col.insertOne({ _id: 'x', state: 'pending' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        col.findOneAndUpdate(
          { _id: 'x', state: 'pending' },
          { $set: { state: i % 2 ? 'posted' : 'voided', by: i } },
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps a document atomic when some updates find it by _id and others by another field', async () => {
    const col = db.collection<{ _id: string; key: string; n: number }>('mixed');
    await col.insertOne({ _id: 'm', key: 'k', n: 0 });
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        col.updateOne(i % 2 ? { _id: 'm', n: { $lt: 30 } } : { key: 'k', n: { $lt: 30 } }, {
          $inc: { n: 1 },
        }),
      ),
    );
    expect(results.reduce((n, r) => n + r.modifiedCount, 0)).toBe(30);
    expect((await col.findOne({ _id: 'm' }))?.n).toBe(30);
  });

  it('deletes a document only while it still matches', async () => {
    const col = db.collection<{ _id: string; state: string }>('holds');
    await col.insertOne({ _id: 'h', state: 'open' });
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2
          ? col.deleteOne({ _id: 'h', state: 'open' }).then((r) => r.deletedCount)
          : col
              .updateOne({ _id: 'h', state: 'open' }, { $set: { state: 'closed' } })
              .then((r) => r.modifiedCount),
      ),
    );
    // Exactly one of the deletes and updates won; the others found nothing to match.
    expect(outcomes.reduce((a, b) => a + b, 0)).toBe(1);
  });
});
