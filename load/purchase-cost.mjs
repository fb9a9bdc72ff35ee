// What one purchase costs, apart from queueing: N purchases one after another by a new funded buyer
// of a seeded product (quantity 1, the cheapest paid one with enough stock), with the CPU time every
// process of the local stack spent on them (from /proc, so it holds on a busy machine better than latencies do) and the statements FerretDB
// sent PostgreSQL for them (lib/db-statements.mjs). The k6 figure of
// load/purchase.js is bounded by it: with C ms of CPU per purchase, two cores complete at most
// 2000 / C purchases a second.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev        # `make seed` adds the products
//   node load/purchase-cost.mjs [N=50]
//
// Each sale's proceeds wait in an escrow until its refund window ends (docs/adr/028), and only then
// does the wallet's sweeper release them to the seller: work the purchase causes, minutes after its
// answer. The script waits for those releases when they fall due within RELEASE_WAIT_SECONDS (300)
// and adds their CPU to the purchase's (against what the idle stack spent meanwhile). Run the stack with
// REFUND_WINDOW_HOURS=0 for that: the release then comes at the order's deadline
// (ORDERS_HOLD_TIMEOUT_SECONDS after the purchase, 120 by default; this script waits for 30 to 300).
//
// The stack's idle rate is measured for IDLE_MS (15 s) before the purchases and taken out of their CPU,
// as load/topup-cost.mjs does (docs/adr/049); the gross figure is printed beside it. The unit is
// measured before the purchases and again after them; their BUE are over the mean of the two, and a run
// whose unit moved by more than 15 % says so (lib/bue.mjs unitOverRun).
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { MongoClient } from 'mongodb';
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { bareUpdateCpuMs, inBue, unitOverRun } from './lib/bue.mjs';
import {
  cpuReading,
  idleStretch,
  idleTakenOut,
  laterWorkCpu,
  latencySummary,
  perOperationLessIdle,
} from './lib/process-cpu.mjs';
import { BASE, topUp, walletUsers } from './lib/wallet-users.mjs';
import { loopbackOnly } from './lib/loopback.cjs';

const N = Math.max(1, Number(process.argv[2] || 50));
const json = { 'content-type': 'application/json', origin: BASE };
// A buyer of its own, topped up below for exactly this run, so that repeated runs never run out.
const [buyer] = await walletUsers('buyer', 1, { funded: 0 });
const { cookie } = buyer;
// docs/product.md §7: the plain list is an array.
const listed = await (await fetch(`${BASE}/api/products`, { headers: { cookie } })).json();
const product = (Array.isArray(listed) ? listed : [])
  // A paid one: a free product skips the wallet's hold and payment, the heart of the cost.
  .filter((p) => p.stock > N && Number(p.price) > 0)
  .sort((a, b) => Number(a.price) - Number(b.price))[0];
if (!product) throw new Error(`no product with more than ${N} units in stock (make seed adds some)`);
for (let paid = 0; paid < N * Number(product.price); paid += 100_000) await topUp(buyer.call, '100000');

const bue = await bareUpdateCpuMs();
console.log(`1 BUE before the run (a bare update's CPU) = ${bue.ms.toFixed(3)} ms:`, bue.per);
const idle = await idleStretch(Number(process.env.IDLE_MS || 15_000));

const latencies = [];
const escrows = [];
const tablesBefore = await tableCounters();
const before = cpuReading();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const res = await fetch(`${BASE}/api/orders`, {
    method: 'POST',
    headers: { ...json, cookie, 'idempotency-key': `cost-${Date.now()}-${i}` },
    body: JSON.stringify({ productId: product.id, quantity: 1, totalPrice: product.price }),
  });
  const body = await res.json();
  latencies.push(performance.now() - started);
  if (res.status !== 201 || body.status !== 'completed')
    throw new Error(`purchase ${i}: ${res.status} ${JSON.stringify(body)}`);
  escrows.push(`escrow:${body.reference ?? `order-${body.id}`}`);
}
const after = cpuReading();
await settle();
const tablesAfter = await tableCounters();
// Measured again after the purchases (before their releases are due), so that it is charged to none of them.
const unit = unitOverRun(bue, await bareUpdateCpuMs());

const cost = perOperationLessIdle(idle, before, after, N);
const { per: perPurchase, total } = cost;
console.log(`${N} purchases of "${product.name}" one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log(`CPU ms per purchase, ${idleTakenOut(cost)}:`, perPurchase);
console.log(
  `total ${total.toFixed(1)} ms → at most ${(2000 / cost.gross).toFixed(1)} purchases/s on two cores (by the gross)`,
);
console.log(`gross until its answer, the idle stack's share included: ${(cost.gross / unit).toFixed(1)} BUE`);
printStatements('purchase', perOperationStatements(tablesBefore, tablesAfter, N));
inBue('CPU per purchase until its answer', total, unit, 50);

const release = await releasesOf(escrows);
if (!release) process.exit(1);
const perRelease = Object.fromEntries(
  Object.entries(release.per)
    .map(([k, ms]) => [k, Number((ms / N).toFixed(2))])
    .filter(([, ms]) => Math.abs(ms) >= 0.01)
    .sort((a, b) => b[1] - a[1]),
);
const releaseTotal = Object.values(perRelease).reduce((a, b) => a + b, 0);
console.log(
  `the sale's release to the seller, CPU ms per purchase (${(release.workMs / 1000).toFixed(1)} s of work ` +
    `against ${(release.idleMs / 1000).toFixed(1)} s idle before it):`,
  perRelease,
);
const met = inBue('CPU per purchase with its release, whole stack', total + releaseTotal, unit, 50);
process.exit(met ? 0 : 1);

/** The CPU of releasing these escrows, once all of them are funded and due soon enough; else undefined. */
async function releasesOf(ids) {
  const url = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
  loopbackOnly(url);
  const client = await MongoClient.connect(url);
  const accounts = client.db(process.env.WALLET_DB || 'qm_wallet').collection('accounts');
  try {
    const funded = () => accounts.countDocuments({ _id: { $in: ids }, balance: { $gt: 0 } });
    const due = (order) =>
      accounts
        .find({ _id: { $in: ids } })
        .sort({ releaseAt: order })
        .limit(1)
        .next()
        .then((escrow) => escrow?.releaseAt?.getTime() ?? Infinity);
    const [firstMs, lastMs] = [(await due(1)) - Date.now(), (await due(-1)) - Date.now()];
    const limitMs = Number(process.env.RELEASE_WAIT_SECONDS ?? 300) * 1000;
    // The first release must leave a quiet spell to measure the idle stack by (laterWorkCpu's 5 s and
    // as long again), and the last come within the wait allowed.
    if ((await funded()) !== ids.length || !(firstMs > 10_000 && lastMs < limitMs)) {
      console.log(
        `the releases to the seller are not counted: due in ${Math.round(firstMs / 1000)} to ${Math.round(lastMs / 1000)} s` +
          ' (run the stack with REFUND_WINDOW_HOURS=0 and ORDERS_HOLD_TIMEOUT_SECONDS of 30 to 300)',
      );
      return undefined;
    }
    console.log(`waiting ${Math.ceil(lastMs / 1000)} s for the sales' releases to the seller…`);
    const cpu = await laterWorkCpu(funded, { timeoutMs: lastMs + 60_000 });
    if (!cpu) console.log('the releases to the seller did not all come within a minute of their time');
    return cpu;
  } finally {
    await client.close();
  }
}
