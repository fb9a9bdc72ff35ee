// `make bench` part 1 (also alone: `npx tsx load/db-scaling.ts`): how the local database behaves as
// one collection grows to 10 k, 100 k and 1 M rows (docs/adr/004). Against the running stack's
// database (MONGO_URL, FERRETDB_POSTGRESQL_URL as `make dev` sets them) or `make infra`.
//
// Per size: the newest 20 of one owner through a feed (@qm/platform feedsOf) and, for contrast, as
// a plain `find({owner}).sort().limit(20)`, for a typical owner (1 of 1,000) and a hot one (10 % of
// all rows, like a payment provider's clearing account); a point read by _id; and 50 concurrent
// conditional updates through one service connection. Prints a table; writes load/results/.
// Env: DB_SCALING_SIZES=10000,100000,1000000 DB_SCALING_SAMPLES=200
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import {
  addFeeds,
  connectMongo,
  ensureIndexes,
  feedCounterId,
  feedFields,
  feedsOf,
  openStoreEngine,
  storeEngineOfStack,
  sequencesOf,
} from '../packages/platform/src';
import { loopbackOnly } from './lib/loopback.cjs';

const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
const ENGINE = storeEngineOfStack({
  ...process.env,
  FERRETDB_POSTGRESQL_URL: process.env.FERRETDB_POSTGRESQL_URL ?? '',
});
const PG_URL = ENGINE.postgresqlUrl;
const SIZES = (process.env.DB_SCALING_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const SAMPLES = Number(process.env.DB_SCALING_SAMPLES ?? 200);
const OWNERS = 1000;
const HOT = 'hot';
const DB = `qm_bench_scaling_${Date.now()}`;

loopbackOnly(MONGO_URL, PG_URL);

interface Entry {
  _id: string;
  owner: string;
  amountPaise: number;
  createdAt: Date;
}

const schema = new mongoose.Schema<Entry>(
  { _id: String, owner: String, amountPaise: Number, createdAt: Date },
  { versionKey: false },
);
schema.index({ owner: 1, createdAt: -1 });
addFeeds(schema, ['owner']);

/** Row i's owner: every 10th row is the hot owner's, the rest spread over OWNERS owners. */
const ownerOf = (i: number) => (i % 10 === 0 ? HOT : `o${i % OWNERS}`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function timed(samples: number, fn: (i: number) => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

async function main() {
  const conn = await connectMongo(MONGO_URL, DB, { maxPoolSize: 1 });
  const engine = await openStoreEngine(conn, ENGINE);
  const Entries = conn.model<Entry>('entries', schema);
  await ensureIndexes(conn);
  const feeds = feedsOf(conn, Entries, { owner: (e) => e.owner });
  const seqs = new Map<string, number>();
  const rows: Record<string, string | number>[] = [];
  let inserted = 0;

  try {
    for (const size of SIZES) {
      const t0 = Date.now();
      while (inserted < size) {
        const batch: Record<string, unknown>[] = [];
        for (; inserted < size && batch.length < 2000; inserted++) {
          const owner = ownerOf(inserted);
          const seq = (seqs.get(owner) ?? 0) + 1;
          seqs.set(owner, seq);
          batch.push({
            _id: `e${inserted}`,
            owner,
            amountPaise: 100 + (inserted % 997),
            createdAt: new Date(Date.UTC(2026, 0, 1) + inserted * 1000),
            ...feedFields('owner', owner, seq),
          });
        }
        await Entries.collection.insertMany(batch as never[], { ordered: false });
      }
      // One update per counter: FerretDB v1 stalls on an `update` command carrying many statements.
      for (const [owner, seq] of seqs)
        await sequencesOf(conn).set(feedCounterId('entries', 'owner', owner), seq);
      const loadS = (Date.now() - t0) / 1000;

      const owner = (i: number) => `o${(i * 7919) % OWNERS}`;
      const feedTypical = await timed(SAMPLES, (i) => feeds.page('owner', owner(i), 1, 20));
      const feedHot = await timed(SAMPLES, () => feeds.page('owner', HOT, 1, 20));
      const naiveSamples = size >= 1_000_000 ? 20 : 50;
      const naiveTypical = await timed(naiveSamples, (i) =>
        Entries.find({ owner: owner(i) })
          .sort({ createdAt: -1 })
          .limit(20)
          .lean(),
      );
      const naiveHot = await timed(Math.min(naiveSamples, 10), () =>
        Entries.find({ owner: HOT }).sort({ createdAt: -1 }).limit(20).lean(),
      );
      const point = await timed(SAMPLES, (i) => Entries.findOne({ _id: `e${(i * 104729) % size}` }).lean());

      // 50 concurrent conditional decrements of a stock of 10, and 50 concurrent $inc.
      const stock = conn.collection<{ _id: string; stock: number; n: number }>('stock');
      await stock.deleteOne({ _id: `s${size}` });
      await stock.insertOne({ _id: `s${size}`, stock: 10, n: 0 });
      const [decs] = await Promise.all([
        Promise.all(
          Array.from({ length: 50 }, () =>
            stock.updateOne({ _id: `s${size}`, stock: { $gte: 1 } }, { $inc: { stock: -1 } }),
          ),
        ),
        Promise.all(
          Array.from({ length: 50 }, () => stock.updateOne({ _id: `s${size}` }, { $inc: { n: 1 } })),
        ),
      ]);
      const after = await stock.findOne({ _id: `s${size}` });
      const modified = decs.reduce((n, r) => n + r.modifiedCount, 0);
      const exact = modified === 10 && after?.stock === 0 && after?.n === 50;

      rows.push({
        rows: size,
        'load s': loadS.toFixed(1),
        'feed newest 20 p50/p95 ms': `${feedTypical.p50.toFixed(1)} / ${feedTypical.p95.toFixed(1)}`,
        'feed, hot owner': `${feedHot.p50.toFixed(1)} / ${feedHot.p95.toFixed(1)}`,
        'find+sort newest 20': `${naiveTypical.p50.toFixed(1)} / ${naiveTypical.p95.toFixed(1)}`,
        'find+sort, hot owner': `${naiveHot.p50.toFixed(0)} / ${naiveHot.p95.toFixed(0)}`,
        'point read p50/p95 ms': `${point.p50.toFixed(1)} / ${point.p95.toFixed(1)}`,
        'conditional updates': exact
          ? 'exact (10 of 50, 50 $inc)'
          : `WRONG: ${modified} modified, stock ${after?.stock}, n ${after?.n}`,
      });
      console.table(rows.slice(-1));
    }
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
    await engine.close();
  }

  console.log(`\ndb-scaling: ${PG_URL ? 'FerretDB on PostgreSQL' : MONGO_URL}, ${SAMPLES} samples per read`);
  console.table(rows);
  const dir = path.join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `db-scaling-${Date.now()}.json`), JSON.stringify(rows, null, 2));
  if (rows.some((r) => String(r['conditional updates']).startsWith('WRONG'))) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
