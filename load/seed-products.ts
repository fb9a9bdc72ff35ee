// Seeds the catalogue through the catalog service's gRPC API (never the database), as one
// manufacturer: `npx tsx load/seed-products.ts [--count 10000] [--addr 127.0.0.1:50052]
// [--manufacturer <user id> --username <name> | --username maker_demo --password … --gateway …]
// [--concurrency 8]`. Without an id it signs the manufacturer in through the gateway to learn it:
// ids follow the order users registered in, so no default id names the demo manufacturer.
// Products are deterministic by index, so two runs produce the same catalogue (twice over).
// It speaks for the manufacturer as the gateway does, with an assertion signed by CALLER_SIGNING_KEY
// (default: the development key the local stack's services accept; docs/adr/021).
import { parseArgs } from 'node:util';
import { catalogV1 } from '@qm/contracts/grpc';
import {
  createCallerSigner,
  createClient,
  DEV_CALLER_SIGNING_KEY,
  newRequestId,
  runWithContext,
  signingKeyFrom,
} from '@qm/platform';
import { signIn, signOut } from './lib/sign-in.cjs';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: process.env.SEED_COUNT ?? '10000' },
    addr: { type: 'string', default: process.env.CATALOG_GRPC_ADDR ?? '127.0.0.1:50052' },
    manufacturer: { type: 'string', default: process.env.SEED_MANUFACTURER_ID },
    username: { type: 'string', default: process.env.SEED_MANUFACTURER_USERNAME ?? 'maker_demo' },
    password: { type: 'string', default: process.env.SEED_MANUFACTURER_PASSWORD ?? 'Maker@12345' },
    gateway: { type: 'string', default: process.env.SEED_GATEWAY_URL ?? 'http://127.0.0.1:8080' },
    concurrency: { type: 'string', default: process.env.SEED_CONCURRENCY ?? '8' },
  },
});
const count = Number(values.count);
const concurrency = Math.max(1, Number(values.concurrency));
if (!Number.isSafeInteger(count) || count < 1) {
  console.error(
    'usage: seed-products.ts --count <n> [--manufacturer <user id> --username <name>] [--addr host:port]',
  );
  process.exit(2);
}

interface Caller {
  userId: number;
  username: string;
  roles: ['Manufacturer'];
}

/** The manufacturer named on the command line, or the one the gateway signs in. */
async function manufacturer(): Promise<Caller> {
  const username = values.username!;
  if (values.manufacturer !== undefined) {
    const userId = Number(values.manufacturer);
    if (!Number.isSafeInteger(userId) || userId < 1) throw new Error('--manufacturer must be a user id');
    return { userId, username, roles: ['Manufacturer'] };
  }
  const base = values.gateway!;
  const { user, cookie } = await signIn(base, username, values.password!);
  // Only the id was wanted: the session is closed again rather than left to expire.
  await signOut(base, cookie);
  if (user.role !== 'Manufacturer') throw new Error(`${username} is not a Manufacturer`);
  return { userId: user.id, username: user.username, roles: ['Manufacturer'] };
}

const T = catalogV1.ProductType;
const KINDS: [catalogV1.ProductType, string[]][] = [
  [
    T.PRODUCT_TYPE_WEAPON,
    ['Assault Rifle', 'Carbine', 'Sniper Rifle', 'Sidearm', 'Light Machine Gun', 'Grenade Launcher'],
  ],
  [
    T.PRODUCT_TYPE_VEHICLE,
    ['Armoured Carrier', 'Utility Truck', 'Recon Jeep', 'Supply Trailer', 'Field Ambulance'],
  ],
  [
    T.PRODUCT_TYPE_EQUIPMENT,
    ['Night Vision Goggles', 'Tactical Radio', 'Body Armour', 'Field Binoculars', 'GPS Unit', 'Helmet'],
  ],
  [
    T.PRODUCT_TYPE_AMMUNITION,
    ['5.56mm Rounds', '7.62mm Rounds', '9mm Rounds', 'Smoke Grenades', 'Signal Flares'],
  ],
  [
    T.PRODUCT_TYPE_OTHER,
    ['Ration Pack', 'Desert Boots', 'Camouflage Net', 'Water Purifier', 'First Aid Kit'],
  ],
];
const SERIES = [
  'Kestrel',
  'Falcon',
  'Cobra',
  'Himalaya',
  'Thar',
  'Garuda',
  'Nilgiri',
  'Vajra',
  'Trishul',
  'Agni',
];
const FEATURES = [
  'thermal imaging',
  'all-weather operation',
  'desert-rated seals',
  'lightweight alloy frame',
  'modular rail system',
  'encrypted channels',
  'long service intervals',
  'low maintenance',
  'rugged casing',
  'extended battery life',
  'quick-release mounts',
  'armoured protection',
];

function productFor(i: number): catalogV1.CreateProductRequest {
  const [type, nouns] = KINDS[i % KINDS.length]!;
  const noun = nouns[Math.floor(i / KINDS.length) % nouns.length]!;
  const series = SERIES[Math.floor(i / 7) % SERIES.length]!;
  const mark = `Mk-${(i % 9) + 1}`;
  const name = `${series} ${noun} ${mark} #${i + 1}`;
  const f1 = FEATURES[i % FEATURES.length]!;
  const f2 = FEATURES[(i * 5 + 3) % FEATURES.length]!;
  return {
    name,
    type,
    pricePaise: 100_000 + ((i * 7919) % 50_000_000),
    description:
      `${name} from the ${series} line offers ${f1} and ${f2}. ` +
      'Built for trained personnel and demanding field conditions; contact the manufacturer for full specifications.',
    stock: (i * 37) % 250,
  };
}

async function main(): Promise<void> {
  const caller = await manufacturer();
  const client = createClient(catalogV1.CatalogServiceService, values.addr!, {
    defaultDeadlineMs: 30_000,
    signer: createCallerSigner(signingKeyFrom(process.env.CALLER_SIGNING_KEY ?? DEV_CALLER_SIGNING_KEY)),
  });
  const started = Date.now();
  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      try {
        await runWithContext({ requestId: newRequestId(), caller }, () =>
          client.createProduct(productFor(i)),
        );
        done++;
      } catch (err) {
        failed++;
        if (failed <= 5) console.error(`product ${i + 1}: ${(err as Error).message}`);
        if (failed === 50) throw new Error('too many failures, stopping');
      }
      if ((done + failed) % 500 === 0)
        console.log(`${done + failed}/${count} (${Math.round((done * 1000) / (Date.now() - started))}/s)`);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    client.close();
  }
  console.log(
    `seeded ${done} products as manufacturer ${caller.userId} in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (failed ? `, ${failed} failed` : ''),
  );
  if (failed) process.exitCode = 1;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
