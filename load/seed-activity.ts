// Seeds the activity log for the admin page's benchmark (load/activity.js): `--records` activities
// (default 1 M) of `--users` users, written in bulk straight into qm_activity, filed in every feed
// exactly as the service files them (services/activity/src/store/activities.ts). It REPLACES the
// log: the collection and its feed counters are dropped first. The users are numbered from
// SEEDED_USER_BASE + 1 (user1000001…), apart from the stack's real users.
//
//   npx tsx load/seed-activity.ts [--records 1000000] [--users 1000] [--seed 1]
//
// Env: MONGO_URL (default mongodb://127.0.0.1:27017), MONGO_DB (default qm_activity),
// FERRETDB_POSTGRESQL_URL (default: as `make dev` sets it; empty for a real MongoDB): the store engine
// of the stack (docs/adr/024). On FerretDB its PostgreSQL indexes are dropped while loading and built
// once at the end (StoreEngine.beginBulkLoad/endBulkLoad), which is several times faster than keeping
// them, and the feed counters are where the service keeps them (docs/adr/020).
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ACTIVITY_ACTIONS } from '../packages/contracts/src/api/activity';
import { connectMongo, ensureIndexes, feedCounterId, feedFields, engineOf } from '../packages/platform/src';
import { toRecord } from '../services/activity/src/domain/activity';
import {
  ACTIVITY_COLLECTION,
  ACTIVITY_FEEDS,
  type ActivityDoc,
  registerActivityModel,
  toDoc,
} from '../services/activity/src/store/activities';
import { createActivitySearch } from '../services/activity/src/store/search';
import { STACK_POSTGRES_URL, useStackSequences } from './lib/stack-sequences';
import { loopbackOnly } from './lib/loopback.cjs';

const BATCH = 2000;
const IN_FLIGHT = 3;
/** load/activity.js picks its users above the same base. */
const SEEDED_USER_BASE = 1_000_000;

/** A small deterministic generator, so two runs with one --seed write the same log. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const DETAILS: Record<string, (r: () => number) => string> = {
  login: () => 'Logged in',
  logout: () => 'Logged out',
  failed_login: () => 'Error: Invalid username or password; Browser: Mozilla/5.0 (X11; Linux x86_64)',
  profile_view: () => 'Viewed profile page',
  profile_update: () => 'Updated profile fields: phoneNumber, address',
  wallet_view: () => 'Viewed wallet',
  wallet_transaction: (r) => `Credit of ₹${Math.floor(r() * 9000) + 100}.00 completed`,
  wallet_transfer: (r) => `Transferred ₹${Math.floor(r() * 900) + 10}.00 to user${Math.floor(r() * 1000)}`,
  wallet_add_money: (r) => `Added ₹${Math.floor(r() * 9000) + 100}.00 to wallet via sandbox`,
  order_place: (r) => `Order QM-${Math.floor(r() * 1e8)} for Field Radio ×${Math.floor(r() * 5) + 1}`,
  order_view: () => 'Viewed orders',
  password_change: () => 'Password changed successfully',
  password_reset_request: () => 'Password reset OTP requested',
  password_change_otp_requested: () => 'Password change OTP requested',
  product_view: (r) => `Viewed product ${Math.floor(r() * 5000)}`,
  product_create: (r) => `Created product Rifle Scope Mk${Math.floor(r() * 100)}`,
  product_update: () => 'Updated product price',
  product_delete: (r) => `Deleted product ${Math.floor(r() * 5000)}`,
};

async function main() {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
    },
  });
  const records = Number(values.records);
  const users = Number(values.users);
  const rand = random(Number(values.seed));
  if (![records, users].every((n) => Number.isSafeInteger(n) && n > 0))
    throw new Error('--records and --users must be positive whole numbers');
  const url = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
  loopbackOnly(url, STACK_POSTGRES_URL);

  const conn = await connectMongo(url, process.env.MONGO_DB ?? 'qm_activity', { maxPoolSize: IN_FLIGHT + 1 });
  const started = Date.now();
  const closeSequences = await useStackSequences(conn);
  const engine = engineOf(conn);
  const sequences = engine.sequences;
  try {
    const model = registerActivityModel(conn);
    await conn.dropCollection(ACTIVITY_COLLECTION).catch(() => undefined);
    await sequences.clear(`feed:${ACTIVITY_COLLECTION}:`); // every feed counter of the log (feedCounterId)
    await conn.createCollection(ACTIVITY_COLLECTION).catch((err: unknown) => {
      // The running service may create it again as soon as it is dropped.
      if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
    });
    // Every index the engine keeps of its own goes while loading (a running service may have made them).
    await engine.beginBulkLoad(ACTIVITY_COLLECTION);

    const seqs = new Map<string, number>();
    const file = (doc: ActivityDoc) => {
      const filed: Record<string, unknown> = { ...doc };
      for (const [feed, ownerOf] of Object.entries(ACTIVITY_FEEDS)) {
        const owner = ownerOf(doc);
        const id = feedCounterId(ACTIVITY_COLLECTION, feed, owner);
        const seq = (seqs.get(id) ?? 0) + 1;
        seqs.set(id, seq);
        Object.assign(filed, feedFields(feed, owner, seq));
      }
      return filed;
    };
    // The log spans the last 90 days, oldest first (feed numbers rise with time).
    const from = Date.now() - 90 * 86_400_000;
    const step = (90 * 86_400_000) / records;
    const batches: Promise<unknown>[] = [];
    for (let i = 0; i < records; i += BATCH) {
      const docs = [];
      for (let j = i; j < Math.min(records, i + BATCH); j++) {
        const userId = SEEDED_USER_BASE + 1 + Math.floor(rand() * users);
        const action = ACTIVITY_ACTIONS[Math.floor(rand() * ACTIVITY_ACTIONS.length)]!;
        const record = toRecord(
          { id: randomUUID(), occurredAt: new Date(from + j * step).toISOString() },
          { userId, username: `user${userId}`, action, details: DETAILS[action]!(rand) },
          `user${userId}@units.example.test`,
        );
        docs.push(file(toDoc(record)));
      }
      batches.push(model.collection.insertMany(docs, { ordered: false }));
      if (batches.length >= IN_FLIGHT) await batches.shift();
      if ((i / BATCH) % 50 === 0) console.log(`seed-activity: ${i} records…`);
    }
    await Promise.all(batches);
    const counters = [...seqs];
    for (let i = 0; i < counters.length; i += 100)
      await Promise.all(counters.slice(i, i + 100).map(([id, seq]) => sequences.set(id, seq)));
    console.log(
      `seed-activity: ${records} records and ${seqs.size} feed counters in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    // Indexes once, over the loaded table.
    const indexed = Date.now();
    await ensureIndexes(conn);
    // The search's own indexes, as the activity service makes them at start.
    await (await createActivitySearch(engine)).close();
    await engine.endBulkLoad(ACTIVITY_COLLECTION);
    console.log(`seed-activity: indexes built in ${((Date.now() - indexed) / 1000).toFixed(1)} s`);
  } finally {
    await closeSequences();
    await conn.close();
  }
}

main().catch((err: unknown) => {
  console.error(`seed-activity: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
