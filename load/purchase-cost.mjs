// What one purchase costs, apart from queueing: N purchases one after another by army_demo of a
// maker_demo product (quantity 1), with the CPU time every process of the local stack spent on them
// (from /proc, so it holds on a busy machine better than latencies do) and the statements FerretDB
// sent PostgreSQL for them (lib/db-statements.mjs). The k6 figure of
// load/purchase.js is bounded by it: with C ms of CPU per purchase, two cores complete at most
// 2000 / C purchases a second.
//
//   make dev                                  # or AUTH_RATE_LIMIT_SCALE=100 make dev; `make seed` funds army_demo
//   node load/purchase-cost.mjs [N=50]
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { cpuByComponent, latencySummary, perOperation } from './lib/process-cpu.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const N = Math.max(1, Number(process.argv[2] || 50));
if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(BASE)) throw new Error('loopback only');

const json = { 'content-type': 'application/json', origin: BASE };

async function signIn(username, password) {
  const res = await fetch(`${BASE}/api/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username, password, portal: 'user' }),
  });
  if (res.status !== 200) throw new Error(`sign-in ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const cookie = await signIn('army_demo', process.env.ARMY_PASSWORD || 'Army@12345');
// docs/product.md §7: the plain list is an array.
const listed = await (await fetch(`${BASE}/api/products`, { headers: { cookie } })).json();
const product = (Array.isArray(listed) ? listed : [])
  // A paid one: a free product skips the wallet's hold and payment, the heart of the cost.
  .filter((p) => p.stock > N && Number(p.price) > 0)
  .sort((a, b) => Number(a.price) - Number(b.price))[0];
if (!product) throw new Error(`no product with more than ${N} units in stock (make seed adds some)`);

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
