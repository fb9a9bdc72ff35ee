import { type Connection, Schema } from 'mongoose';
import { addFeeds, connectMongo, feedsOf } from '../src';
import { MONGO_URL, uniqueName } from './infra';

interface Line {
  _id: number;
  owner: number;
  text: string;
}

// A feed's insertMany numbers a batch in order with one counter step per owner, alongside insert().
describe('feeds (real database)', () => {
  let db: Connection;
  beforeAll(async () => {
    db = await connectMongo(MONGO_URL, uniqueName('qm_test_feeds'));
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
  });

  it('pages a batch inserted at once in order, interleaved with single inserts and other owners', async () => {
    const schema = new Schema<Line>({ _id: Number, owner: Number, text: String }, { autoIndex: false });
    addFeeds(schema, ['owner']);
    const Lines = db.model<Line>('Line', schema);
    const feeds = feedsOf<Line>(db, Lines, { owner: (l) => l.owner });
    await feeds.insert({ _id: 1, owner: 7, text: 'a' });
    await feeds.insertMany([
      { _id: 2, owner: 7, text: 'b' },
      { _id: 3, owner: 8, text: 'x' },
      { _id: 4, owner: 7, text: 'c' },
    ]);
    await feeds.insert({ _id: 5, owner: 7, text: 'd' });
    const page = await feeds.page('owner', 7, 1, 10);
    expect(page.total).toBe(4);
    expect(page.items.map((l) => l.text)).toEqual(['d', 'c', 'b', 'a']);
    expect((await feeds.page('owner', 8, 1, 10)).items.map((l) => l.text)).toEqual(['x']);
  });
});
