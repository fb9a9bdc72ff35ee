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
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { bareUpdateCpuMs, inBue } from './lib/bue.mjs';
import { cpuByComponent, latencySummary, perOperation } from './lib/process-cpu.mjs';
import { BASE, topUp, walletUsers } from './lib/wallet-users.mjs';

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
console.log(`1 BUE (a bare update's CPU, same run) = ${bue.ms.toFixed(3)} ms:`, bue.per);

const latencies = [];
const tablesBefore = await tableCounters();
const before = cpuByComponent();
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
}
const after = cpuByComponent();
await settle();
const tablesAfter = await tableCounters();

const { per: perPurchase, total } = perOperation(before, after, N);
console.log(`${N} purchases of "${product.name}" one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log('CPU ms per purchase:', perPurchase);
console.log(`total ${total.toFixed(1)} ms → at most ${(2000 / total).toFixed(1)} purchases/s on two cores`);
printStatements('purchase', perOperationStatements(tablesBefore, tablesAfter, N));
const met = inBue('CPU per purchase, whole stack', total, bue.ms, 50);
process.exit(met ? 0 : 1);
