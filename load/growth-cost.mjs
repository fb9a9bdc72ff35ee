// What grows with use on the local engine, priced in the same run as one bare update (BUE):
//   - a credit against the markers its account carries (every transfer of the last
//     MARKER_RETENTION_MS leaves one on both accounts, ADR 006): the cost of a hot account;
//   - the sweeper's question for escrows due (store/accounts.ts dueEscrows) against the escrows ever
//     made, all of them released: every purchase opens one (ADR 028) and the sweep asks every 5 s;
//   - the orders' refund sweep (every 5 s) against the orders ever placed, by its filter before
//     ADR 042 (a dotted path, not passed down) and by `refundOpen: true`. The scratch collection has
//     no index on it (the services' GIN indexes come with their schemas), so the new figure is an
//     upper bound: PostgreSQL still scans, FerretDB only decodes the matches.
// Both run in scratch databases, with documents shaped like the wallet's, then dropped.
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

  const escrows = db.collection('escrows');
  await escrows.createIndex({ kind: 1 });
  const released = new Date(Date.now() - 3_600_000);
  for (const made of [500, 2000, 5000]) {
    const have = await escrows.countDocuments();
    const docs = Array.from({ length: made - have }, (_, i) =>
      account(`escrow:ORD-${have + i}`, { kind: 'escrow', sellerId: 7, buyerId: 9, releaseAt: released }),
    );
    for (let i = 0; i < docs.length; i += 500) await escrows.insertMany(docs.slice(i, i + 500));
    const due = () =>
      escrows
        .find(
          { kind: 'escrow', available: { $gt: 0 }, frozen: { $ne: true }, releaseAt: { $lte: new Date() } },
          { sort: { releaseAt: 1 }, limit: 200 },
        )
        .toArray();
    row(`the sweep's escrows due, ${made} escrows made, none due`, await engineCpuPerCall(5, due, 1));
  }

  const orders = db.collection('orders');
  const before = () => new Date(Date.now() - 10_000);
  const questions = {
    'before ADR 042': () =>
      orders
        .find({
          'refund.settled': false,
          $or: [{ 'refund.status': { $ne: 'requested' } }, { 'refund.held': null }],
          updatedAt: { $lt: before() },
        })
        .toArray(),
    'by refundOpen': () =>
      orders
        .find({
          refundOpen: true,
          'refund.settled': false,
          $or: [{ 'refund.status': { $ne: 'requested' } }, { 'refund.held': null }],
          updatedAt: { $lt: before() },
        })
        .toArray(),
  };
  const old = new Date(Date.now() - 3_600_000);
  for (const placed of [1000, 5000]) {
    const have = await orders.countDocuments();
    const docs = Array.from({ length: placed - have }, (_, i) => ({
      _id: have + i + 1,
      id: have + i + 1,
      reference: `order-${have + i + 1}`,
      status: 'completed',
      step: 'done',
      buyerId: 9,
      sellerId: 7,
      quantity: 1,
      unitPricePaise: 10_000,
      totalPaise: 10_000,
      product: { name: 'Ration Pack', type: 'Food', description: 'One day' },
      buyer: { id: 9, name: 'Buyer', username: 'army_buyer', role: 'Army' },
      seller: { id: 7, name: 'Maker', username: 'maker', role: 'Manufacturer' },
      // One in a hundred was refunded, long settled.
      ...(i % 100 === 0 ? { refund: { status: 'approved', settled: true, held: true } } : {}),
      createdAt: old,
      updatedAt: old,
    }));
    for (let i = 0; i < docs.length; i += 500) await orders.insertMany(docs.slice(i, i + 500));
    for (const [name, ask] of Object.entries(questions))
      row(`the refund sweep ${name}, ${placed} orders placed, none open`, await engineCpuPerCall(5, ask, 1));
  }
} finally {
  await db.dropDatabase();
  await client.close();
}
