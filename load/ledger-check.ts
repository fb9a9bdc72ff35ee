// `npm run ledger:check [-- --mongo-url <url> --db <name>]`: verifies the wallet ledger of a running
// stack (load/ledger/check.ts has the invariants). Prints one result line; exits 1 on any break,
// 2 when it cannot read the ledger. Defaults: MONGO_URL or mongodb://127.0.0.1:27017, MONGO_DB or
// qm_wallet.
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { checkLedger, resultLine } from './ledger/check';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'mongo-url': { type: 'string', default: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017' },
      db: { type: 'string', default: process.env.MONGO_DB ?? 'qm_wallet' },
    },
  });
  const client = new MongoClient(values['mongo-url'], { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    const db = client.db(values.db);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    if (!names.includes('accounts')) {
      console.error(`ledger-check: no ledger in database ${values.db} (no accounts collection)`);
      return 2;
    }
    const report = await checkLedger(db);
    console.log(resultLine(report));
    return report.breaks.length ? 1 : 0;
  } finally {
    await client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(
      `ledger-check: could not read the ledger — ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(2);
  },
);
