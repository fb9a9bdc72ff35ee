// Seeds the wallet's ledger for load tests (load/ledger/seed.ts): consistent, in bulk, next to a
// running stack or `make infra`, so `npm run ledger:check` passes on it afterwards.
//
//   npx tsx load/seed-ledger.ts [--entries 1000000] [--users 1000] [--provider sandbox] [--seed 1]
//
// Env: MONGO_URL (default mongodb://127.0.0.1:27017), MONGO_DB (default qm_wallet),
// FERRETDB_POSTGRESQL_URL (default: as `make dev` sets it; the indexes FerretDB can use, docs/adr/004,
// and the counters, docs/adr/020; empty for a real MongoDB).
import { parseArgs } from 'node:util';
import { connectMongo, ensureIndexes } from '../packages/platform/src';
import { registerWalletModels } from './ledger/models';
import { seedLedger } from './ledger/seed';
import { STACK_POSTGRES_URL, useStackSequences } from './lib/stack-sequences';
import { loopbackOnly } from './lib/loopback.cjs';

async function main() {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string', default: '1000000' },
      users: { type: 'string', default: '1000' },
      provider: { type: 'string', default: 'sandbox' },
      seed: { type: 'string', default: '1' },
    },
  });
  const entries = Number(values.entries);
  const users = Number(values.users);
  const seed = Number(values.seed);
  if (![entries, users, seed].every((n) => Number.isSafeInteger(n) && n > 0))
    throw new Error('--entries, --users and --seed must be positive whole numbers');
  const url = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
  const pgUrl = STACK_POSTGRES_URL;
  loopbackOnly(url, pgUrl);

  // Inserts of distinct new documents go to four collections at once; no update races on FerretDB.
  const conn = await connectMongo(url, process.env.MONGO_DB ?? 'qm_wallet', { maxPoolSize: 4 });
  const closeSequences = await useStackSequences(conn);
  try {
    registerWalletModels(conn);
    await ensureIndexes(conn);
    const r = await seedLedger(conn, { entries, users, provider: values.provider, seed, log: console.log });
    console.log(
      `seed-ledger: ${r.entries} entries, ${r.transfers} transfers (${r.topups} top-ups), ` +
        `${r.historyLines} history lines for users ${r.firstUserId}…${r.firstUserId + users - 1} ` +
        `in ${(r.ms / 1000).toFixed(1)} s`,
    );
  } finally {
    await closeSequences();
    await conn.close();
  }
}

main().catch((err: unknown) => {
  console.error(`seed-ledger: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
