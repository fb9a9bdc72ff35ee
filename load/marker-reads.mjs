// What a read of a wallet costs with the markers it carries (docs/adr/006): an account read by `_id`
// with 0, 100 and 400 markers, whole and with the markers left out (the store's reads since
// 2026-12-05), and the conditional credit each payment makes, in rounds that alternate. A seller paid
// 20 times a second carries about 400 (docs/performance/2026-12-04-markers-fenced.md).
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev      (or any stack whose document engine is on 127.0.0.1:27017)
//   node load/marker-reads.mjs [ROUNDS=3]
//
// Prints each figure as the CPU per call of client, document engine and PostgreSQL together, and in
// BUE of the same run. Writes only to a scratch database, which it drops. Loopback only.
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { bareUpdateCpuMs } from './lib/bue.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import { engineCpuPerCall } from './lib/process-cpu.mjs';

const ROUNDS = Math.max(1, Number(process.argv[2] || 3));
const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
loopbackOnly(MONGO_URL);
const CALLS = 1000;
const MARKERS = [0, 100, 400];

const bue = await bareUpdateCpuMs();
console.log(`1 BUE = ${bue.ms.toFixed(3)} ms`);
const client = await MongoClient.connect(MONGO_URL);
const db = client.db(`qm_marker_reads_${Date.now().toString(36)}`);
const accounts = db.collection('accounts');
const markers = (n) => Array.from({ length: n }, () => `${randomUUID()}:credit`);
try {
  for (const n of MARKERS)
    await accounts.insertOne({
      _id: `user:${n}`,
      kind: 'user',
      userId: n,
      walletId: n,
      username: `payee_${n}`,
      balance: 0,
      held: 0,
      available: 0,
      applied: markers(n),
      holds: [],
      currency: 'INR',
      isActive: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  const reads = {
    whole: (id) => accounts.findOne({ _id: id }),
    'markers left out': (id) => accounts.findOne({ _id: id }, { projection: { applied: 0, holds: 0 } }),
  };
  const results = new Map();
  const add = (key, ms) => results.set(key, [...(results.get(key) ?? []), ms]);
  for (let round = 0; round < ROUNDS; round++)
    for (const n of MARKERS) {
      for (const [label, read] of Object.entries(reads))
        add(`${n}\t${label}`, (await engineCpuPerCall(CALLS, () => read(`user:${n}`), 200)).total);
      // A credit adds its marker, and the sweep's $pullAll takes it away again: the size stays n.
      const credit = async () => {
        const m = `${randomUUID()}:credit`;
        await accounts.updateOne(
          { _id: `user:${n}`, applied: { $ne: m } },
          { $inc: { balance: 1 }, $push: { applied: m } },
        );
        await accounts.updateOne({ _id: `user:${n}` }, { $pullAll: { applied: [m] } });
      };
      add(`${n}\ta credit and its clearing`, (await engineCpuPerCall(CALLS / 2, credit, 100)).total);
    }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('markers\twhat\tCPU ms per call (median of rounds)\tBUE');
  for (const [key, xs] of results)
    console.log(`${key}\t${median(xs).toFixed(3)}\t${(median(xs) / bue.ms).toFixed(2)}`);
} finally {
  await db.dropDatabase();
  await client.close();
}
