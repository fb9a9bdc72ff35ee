// What grows with use on the local engine, priced in the same run as one bare update (BUE): a
// credit against the markers its account carries (every transfer of the last MARKER_RETENTION_MS
// leaves one on both accounts, ADR 006): the cost of a hot account. It runs in a scratch database,
// with documents shaped like the wallet's, then dropped. The periodic questions that read what grows
// with history are priced by load/history-cost.ts (ADR 042).
//
//   node load/growth-cost.mjs            (a running stack's MongoDB API; loopback only)
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { bareUpdateCpuMs } from './lib/bue.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import { engineCpuPerCall } from './lib/process-cpu.mjs';

const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
loopbackOnly(MONGO_URL);

const bue = await bareUpdateCpuMs();
console.log(`1 BUE = ${bue.ms.toFixed(3)} ms`);
const client = await MongoClient.connect(MONGO_URL);
const db = client.db(`qm_growth_${Date.now().toString(36)}`);
const row = (what, cpu) =>
  console.log(`${what}: ${cpu.total.toFixed(2)} ms = ${(cpu.total / bue.ms).toFixed(1)} BUE`);
const account = (id, extra) => ({
  _id: id,
  balance: 0,
  available: 0,
  held: 0,
  holds: [],
  applied: [],
  isActive: true,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...extra,
});

try {
  const accounts = db.collection('accounts');
  // Warm the client first, as the services' are.
  await accounts.insertOne({ _id: 'warm', n: 0 });
  await engineCpuPerCall(1000, () => accounts.updateOne({ _id: 'warm' }, { $inc: { n: 1 } }), 2000);

  for (const markers of [0, 100, 400, 1000, 2000]) {
    const id = `user:${markers}`;
    const applied = Array.from({ length: markers }, () => `${randomUUID()}:credit`);
    await accounts.insertOne(account(id, { kind: 'user', userId: markers + 1, applied }));
    // The wallet's credit (store/accounts.ts); each adds a marker, so the account grows by 20.
    const credit = () => {
      const m = `${randomUUID()}:credit`;
      return accounts.updateOne(
        { _id: id, applied: { $ne: m } },
        { $inc: { balance: 1, available: 1 }, $push: { applied: m }, $set: { updatedAt: new Date() } },
      );
    };
    row(`a credit to an account carrying ${markers} markers`, await engineCpuPerCall(20, credit, 0));
  }
} finally {
  await db.dropDatabase();
  await client.close();
}
