import type { Connection } from 'mongoose';
import { nextSequence } from '../src';
import { testDb } from './infra';

// docs/adr/002: the platform's default connection keeps conditional single-document updates atomic.
describe('single-document updates through connectMongo (real database)', () => {
  let db: Connection;
  beforeAll(async () => {
    db = await testDb('mongo');
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
  });

  it('hands out unique numeric ids under concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextSequence(db, 'things')));
    expect(new Set(ids).size).toBe(50);
    expect(Math.max(...ids)).toBe(50);
  });

  it('never lets a conditional decrement take stock below zero', async () => {
    const col = db.collection<{ _id: string; stock: number }>('stock');
    await col.insertOne({ _id: 'p1', stock: 10 });
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        col.updateOne({ _id: 'p1', stock: { $gte: 1 } }, { $inc: { stock: -1 } }),
      ),
    );
    expect(results.reduce((n, r) => n + r.modifiedCount, 0)).toBe(10);
    expect((await col.findOne({ _id: 'p1' }))?.stock).toBe(0);
  });
});
