// What mongoose adds over the MongoDB driver per command (issue: measure it on the hot paths, both are in
// the design card). The commands a transfer sends most, each issued the two ways against the same
// documents of a scratch database, in alternating rounds so the stack's drift lands on both: a read
// by _id, a conditional $inc with $push (a ledger step), a findOneAndUpdate returning the document (a
// transfer's state move), and an insert, by `create` and as @qm/platform insertBuilt makes it. Prints
// each command's CPU (client, FerretDB, PostgreSQL) per call both ways and the client's difference in
// BUE, measured in the same run.
//
//   node scripts/dev.mjs --infra-only   (or any running stack)
//   node load/mongoose-cost.mjs [calls per round = 1000] [rounds = 3]
//
// Loopback only, like every script under load/.
import mongoose from 'mongoose';
import { bareUpdateCpuMs } from './lib/bue.mjs';
import { engineCpuPerCall } from './lib/process-cpu.mjs';
import { loopbackOnly } from './lib/loopback.cjs';

const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
loopbackOnly(MONGO_URL);
const N = Math.max(100, Number(process.argv[2] || 1000));
const ROUNDS = Math.max(1, Number(process.argv[3] || 3));

const conn = await mongoose
  .createConnection(MONGO_URL, { dbName: `qm_mongoose_cost_${Date.now().toString(36)}` })
  .asPromise();
// A wallet account's shape, as the wallet's store declares it (strict schema, no version key).
const Accounts = conn.model(
  'Account',
  new mongoose.Schema(
    {
      _id: String,
      balance: Number,
      available: Number,
      applied: [String],
      updatedAt: Date,
    },
    { collection: 'accounts', versionKey: false, strict: true, autoIndex: false },
  ),
);
const native = conn.db.collection('accounts');
// Inserts go to a collection of their own, so the other commands always meet the same 50 documents.
const Inserted = conn.model('Inserted', Accounts.schema.clone(), 'inserted');
const inserted = conn.db.collection('inserted');
const ids = Array.from({ length: 50 }, (_, i) => `user:${i}`);
await native.insertMany(
  ids.map((_id) => ({ _id, balance: 0, available: 0, applied: [], updatedAt: new Date() })),
);

let seq = 0;
const step = () => {
  const id = ids[seq % ids.length];
  const marker = `t${seq++}:credit`;
  return {
    filter: { _id: id, applied: { $ne: marker } },
    update: {
      $inc: { balance: 1, available: 1 },
      $push: { applied: marker },
      $set: { updatedAt: new Date() },
    },
  };
};
/** A new account to insert. */
const fresh = (_id) => ({ _id, balance: 0, available: 0, applied: [], updatedAt: new Date() });
// The $push grows each document; trim now and then so both ways meet documents of the same size.
const trim = () => native.updateMany({}, { $set: { applied: [] } });

const commands = {
  'read by _id': {
    mongoose: (i) =>
      Accounts.findById(ids[i % ids.length])
        .lean()
        .exec(),
    driver: (i) => native.findOne({ _id: ids[i % ids.length] }),
  },
  'conditional update': {
    mongoose: () => {
      const { filter, update } = step();
      return Accounts.updateOne(filter, update).exec();
    },
    driver: () => {
      const { filter, update } = step();
      return native.updateOne(filter, update);
    },
  },
  'findOneAndUpdate, new document': {
    mongoose: (i) =>
      Accounts.findOneAndUpdate(
        { _id: ids[i % ids.length] },
        { $set: { updatedAt: new Date() } },
        { new: true },
      )
        .lean()
        .exec(),
    driver: (i) =>
      native.findOneAndUpdate(
        { _id: ids[i % ids.length] },
        { $set: { updatedAt: new Date() } },
        { returnDocument: 'after' },
      ),
  },
  insert: {
    mongoose: (i) => Inserted.create(fresh(`new:m:${i}:${seq++}`)),
    driver: (i) => inserted.insertOne(fresh(`new:d:${i}:${seq++}`)),
  },
  // @qm/platform insertBuilt (ADR 047): the schema's defaults and fields, no document hydrated or validated.
  'insert, lean (insertBuilt)': {
    mongoose: (i) =>
      Inserted.insertMany([Inserted.applyDefaults(fresh(`new:l:${i}:${seq++}`))], { lean: true }),
    driver: (i) => inserted.insertOne(fresh(`new:e:${i}:${seq++}`)),
  },
};

try {
  const bue = await bareUpdateCpuMs();
  console.log(`1 BUE = ${bue.ms.toFixed(3)} ms of CPU (client ${bue.per.client} ms)`);
  const results = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, ways] of Object.entries(commands)) {
      // Alternate which way goes first, so neither always meets the warmer stack.
      const order = round % 2 ? ['driver', 'mongoose'] : ['mongoose', 'driver'];
      for (const way of order) {
        await trim();
        const cpu = await engineCpuPerCall(N, ways[way], 100);
        ((results[name] ??= {})[way] ??= []).push(cpu);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = Object.entries(results).map(([name, r]) => {
    const m = (way, key) => median(r[way].map((c) => c[key]));
    const extra = m('mongoose', 'client') - m('driver', 'client');
    return {
      command: name,
      'mongoose client ms': +m('mongoose', 'client').toFixed(3),
      'driver client ms': +m('driver', 'client').toFixed(3),
      'engine ms (m / d)': `${(m('mongoose', 'ferretdb') + m('mongoose', 'postgres')).toFixed(3)} / ${(m('driver', 'ferretdb') + m('driver', 'postgres')).toFixed(3)}`,
      'mongoose adds ms': +extra.toFixed(3),
      'in BUE': +(extra / bue.ms).toFixed(2),
    };
  });
  console.log(`${N} calls per round, ${ROUNDS} rounds, medians:`);
  console.table(rows);
} finally {
  await conn.db.dropDatabase();
  await conn.close();
}
