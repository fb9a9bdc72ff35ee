// `npm run system:check [-- --mongo-url <url> --wallet-db <name> --catalog-db <name> --orders-db <name>]`:
// verifies a running stack across the wallet, catalog and orders databases, read-only
// (load/system/check.ts has the invariants). Prints a summary line and every break; exits 1 on any
// break, 2 when it cannot read the databases. Defaults: MONGO_URL or mongodb://127.0.0.1:27017, and
// the services' own databases qm_wallet, qm_catalog and qm_orders.
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { checkSystem, systemLines } from './system/check';

const REQUIRED = { wallet: 'accounts', catalog: 'products', orders: 'orders' } as const;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'mongo-url': { type: 'string', default: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017' },
      'wallet-db': { type: 'string', default: 'qm_wallet' },
      'catalog-db': { type: 'string', default: 'qm_catalog' },
      'orders-db': { type: 'string', default: 'qm_orders' },
    },
  });
  const client = new MongoClient(values['mongo-url'], { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    const dbs = {
      wallet: client.db(values['wallet-db']),
      catalog: client.db(values['catalog-db']),
      orders: client.db(values['orders-db']),
    };
    for (const [service, collection] of Object.entries(REQUIRED)) {
      const db = dbs[service as keyof typeof dbs];
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      if (!names.includes(collection)) {
        console.error(`system-check: no ${service} data in database ${db.databaseName} (no ${collection})`);
        return 2;
      }
    }
    const report = await checkSystem(dbs);
    for (const line of systemLines(report)) console.log(line);
    return report.breaks.length ? 1 : 0;
  } finally {
    await client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(
      `system-check: could not read the databases — ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(2);
  },
);
