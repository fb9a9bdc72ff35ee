// The admin dashboard's purchases-per-day read (services/orders/src/app/stats.ts) as the window fills:
// `npx tsx load/dashboard-stats.ts` against the running stack's database (MONGO_URL,
// FERRETDB_POSTGRESQL_URL as `make dev` sets them) or `make infra`.
//
// Per size: a scratch database with OLDER completed orders placed 31 to 365 days ago and then `size`
// placed over the last 30 days (oldest first, as they would be filed), written through the orders
// store's own model and feed fields; then the statistics call the gRPC handler makes: the first
// (which tallies the window), the next ones (nothing new), and one after 100 more orders.
// The money-in tally (wallet) reads a clearing account's entry feed the same way.
// Env: DASHBOARD_SIZES=1000,10000,30000 DASHBOARD_OLDER=20000 DASHBOARD_SAMPLES=10
import {
  connectMongo,
  ensureIndexes,
  feedCounterId,
  feedFields,
  openStoreEngine,
  storeEngineOfStack,
  sequencesOf,
} from '../packages/platform/src';
import { statsWindow } from '../packages/contracts/src/api/stats';
import { createOrderStats } from '../services/orders/src/app/stats';
import type { OrderRecord } from '../services/orders/src/domain/order';
import { ALL_ORDERS, createOrderStore } from '../services/orders/src/store/orders';
import { loopbackOnly } from './lib/loopback.cjs';

const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
const ENGINE = storeEngineOfStack({
  ...process.env,
  FERRETDB_POSTGRESQL_URL: process.env.FERRETDB_POSTGRESQL_URL ?? '',
});
const PG_URL = ENGINE.postgresqlUrl;
const SIZES = (process.env.DASHBOARD_SIZES ?? '1000,10000,30000').split(',').map(Number);
const OLDER = Number(process.env.DASHBOARD_OLDER ?? 20_000);
const SAMPLES = Number(process.env.DASHBOARD_SAMPLES ?? 10);
const DAY_MS = 24 * 60 * 60_000;
const ADMIN = { userId: 1, username: 'admin', roles: ['Admin'] };

loopbackOnly(MONGO_URL, PG_URL);

const party = (id: number, role: string) => ({ id, name: 'Bench User', username: `bench${id}`, role });

/** Order `id` placed at `at`, completed, filed as number `id` of the administrators' feed. */
function order(id: number, at: Date): Record<string, unknown> {
  const o: OrderRecord = {
    id,
    reference: `order-${id}`,
    productId: 1 + (id % 50),
    buyerId: 2 + (id % 100),
    sellerId: 1000,
    quantity: 1,
    unitPricePaise: 125_050,
    totalPaise: 125_050,
    status: 'completed',
    paymentStatus: 'paid',
    step: 'done',
    cancelReason: '',
    product: { name: 'Field Radio', type: 'Equipment', description: 'VHF, 5 W' },
    buyerDetails: { name: 'Bench User', role: 'Army', email: 'bench@example.test', phone: '' },
    buyer: party(2 + (id % 100), 'Army'),
    seller: party(1000, 'Manufacturer'),
    deadlineAt: at,
    createdAt: at,
    updatedAt: at,
  };
  return { _id: id, ...o, ...feedFields('all', ALL_ORDERS, id) };
}

async function run(size: number) {
  const conn = await connectMongo(MONGO_URL, `qm_bench_dashboard_${Date.now()}`, { maxPoolSize: 10 });
  const engine = await openStoreEngine(conn, ENGINE);
  try {
    const orders = createOrderStore(conn);
    await ensureIndexes(conn);
    const now = Date.now();
    const since = statsWindow(new Date(now), 30).since.getTime();
    const total = OLDER + size;
    const t0 = Date.now();
    for (let first = 1; first <= total; first += 2000) {
      const batch = [];
      for (let id = first; id < Math.min(first + 2000, total + 1); id++) {
        const at =
          id <= OLDER
            ? now - 365 * DAY_MS + ((id - 1) / OLDER) * 334 * DAY_MS
            : since + ((id - OLDER) / size) * (now - since - 60_000);
        batch.push(order(id, new Date(at)));
      }
      await orders.model.collection.insertMany(batch as never[], { ordered: false });
    }
    await sequencesOf(conn).set(feedCounterId('orders', 'all', ALL_ORDERS), total);
    const loadS = (Date.now() - t0) / 1000;

    const stats = createOrderStats({ conn, orders });
    const timed = async () => {
      const t = process.hrtime.bigint();
      const out = await stats.get(ADMIN, 30);
      return {
        ms: Number(process.hrtime.bigint() - t) / 1e6,
        count: out.days.reduce((n, d) => n + d.count, 0),
      };
    };
    // The first read tallies the window; later ones read only what was filed since.
    const cold = await timed();
    const warm: number[] = [];
    for (let i = 0; i < SAMPLES; i++) warm.push((await timed()).ms);
    warm.sort((a, b) => a - b);
    const p = (q: number) => warm[Math.min(warm.length - 1, Math.ceil(q * warm.length) - 1)]!.toFixed(0);
    const more = [];
    for (let id = total + 1; id <= total + 100; id++) more.push(order(id, new Date(now - 120_000)));
    await orders.model.collection.insertMany(more as never[], { ordered: false });
    await sequencesOf(conn).set(feedCounterId('orders', 'all', ALL_ORDERS), total + 100);
    const after = await timed();
    const counted = (n: number, want: number) => (n === want ? `${n} (exact)` : `WRONG: ${n}, not ${want}`);
    return {
      'orders in 30 days': size,
      'older orders': OLDER,
      'load s': loadS.toFixed(1),
      'first read ms': cold.ms.toFixed(0),
      counted: counted(cold.count, size),
      'next reads p50 / p95 ms': `${p(0.5)} / ${p(0.95)}`,
      'after 100 more ms': after.ms.toFixed(0),
      'then counted': counted(after.count, size + 100),
    };
  } finally {
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
    await engine.close();
  }
}

async function main() {
  const rows = [];
  for (const size of SIZES) {
    rows.push(await run(size));
    console.table(rows.slice(-1));
  }
  console.log(`\ndashboard-stats: ${PG_URL ? 'FerretDB on PostgreSQL' : MONGO_URL}, ${SAMPLES} samples`);
  console.table(rows);
  if (rows.some((r) => `${r.counted} ${r['then counted']}`.includes('WRONG'))) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
