import mongoose from 'mongoose';
import { connectMongo, ensureIndexes, openStoreEngine, type StoreEngineChoice } from '../src';
import { LOCAL_ENGINE, MONGO_URL, testEngineDb } from './infra';

// docs/adr/025: two replicas of a service start together on a new database and both declare its
// indexes and search at the same moment. Both must start: `CREATE … IF NOT EXISTS` races in
// PostgreSQL's catalog, and the loser's error means only that the other one made it.
const schema = new mongoose.Schema({ _id: String, owner: String, n: Number, search: String });
schema.index({ owner: 1, n: -1 });
const SEARCH = {
  collection: 'things',
  field: 'search',
  order: 'n',
  orderedWithin: ['owner'],
  fields: { owner: 'string' as const },
};

describe.each<[string, StoreEngineChoice]>([
  ['mongodb', { engine: 'mongodb' }],
  ['ferretdb-postgresql', LOCAL_ENGINE],
])('the %s engine, two replicas starting at once', (name, choice) => {
  it('both declare the indexes and the search of a new database', async () => {
    const first = await testEngineDb(`replicas_${name.replace(/-/g, '_')}`, choice);
    const second = await connectMongo(MONGO_URL, first.db.name);
    const secondEngine = await openStoreEngine(second, choice);
    try {
      for (const db of [first.db, second]) db.model('things', schema);
      const starts = [first, { db: second, engine: secondEngine }].flatMap(({ db, engine }) => [
        ensureIndexes(db),
        engine.textSearch(SEARCH),
        ensureIndexes(db),
      ]);
      const results = await Promise.allSettled(starts);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await first.db.dropDatabase();
      await secondEngine.close();
      await first.engine.close();
      await second.close();
      await first.db.close();
    }
  }, 60_000);
});
