// What tracing costs (docs/adr/016): N product creations one after another by maker_demo — gateway →
// catalog over gRPC → outbox → NATS → the activity service's consumer, the path the traces test follows —
// with the CPU time every process of the local stack spent on them (from /proc, which holds on a busy
// machine better than latencies do). Run it once against `make dev` and once against `make dev TRACES=1`
// (or with OTEL_EXPORTER_OTLP_ENDPOINT set) and compare. The viewer's own CPU (Zipkin) is not counted:
// in a deployment the collector runs elsewhere. The products it creates are deleted afterwards.
//
//   node load/trace-cost.mjs [N=100]
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { cpuByComponent, latencySummary, perOperation } from './lib/process-cpu.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import { signIn } from './lib/sign-in.cjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const N = Math.max(1, Number(process.argv[2] || 100));
loopbackOnly(BASE);

const json = { 'content-type': 'application/json', origin: BASE };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const { cookie } = await signIn(BASE, 'maker_demo', process.env.MAKER_PASSWORD || 'Maker@12345');

const created = [];
const latencies = [];
const before = cpuByComponent();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const res = await fetch(`${BASE}/api/products`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({
      name: `Trace cost ${Date.now()}-${i}`,
      type: 'Equipment',
      price: '1.00',
      description: 'load/trace-cost.mjs',
      stock: 1,
    }),
  });
  const body = await res.json();
  latencies.push(performance.now() - started);
  if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${JSON.stringify(body)}`);
  created.push(body.id);
}
// The activity consumer works after the responses: let it finish before the second reading.
await sleep(2000);
const after = cpuByComponent();

for (const id of created)
  await fetch(`${BASE}/api/products/${id}`, { method: 'DELETE', headers: { ...json, cookie } });

const { per, total } = perOperation(before, after, N);
console.log(`${N} product creations one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log('CPU ms per creation:', per);
console.log(`total ${total.toFixed(1)} ms`);
