#!/usr/bin/env node
// `make bench`: a simple read through gateway → gRPC → database against a bare Express handler on
// the same machine in the same run, both driven from loopback by autocannon, with two floors beside
// it: two bare processes and one gRPC hop (bare-grpc.mjs), and the same with the obligations of a
// request (bare-obliged.mjs, docs/adr/040).
// Uses the running stack at BENCH_URL (default http://127.0.0.1:8080; `make dev` or `make infra`+services),
// signs in as BENCH_USER (default the seeded army_demo) and writes load/results/bench-<time>.json.
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { obligedKeys } from './bare-obliged.mjs';
import { cpuByComponent, perOperation } from './lib/process-cpu.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import { signIn } from './lib/sign-in.cjs';

const BASE = process.env.BENCH_URL ?? 'http://127.0.0.1:8080';
const USER = process.env.BENCH_USER ?? 'army_demo';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'Army@12345';
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
// Unmeasured load first, so each target is compared running as a server runs: warm. The gateway
// path's code reaches full speed later than a bare handler's (on a stack started a minute before,
// the gateway's CPU per read was 3.5 ms, and 2.2 ms some minutes of load later).
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
// The three reads the budget compares are measured in turn, round after round, and each ratio is
// taken within a round: the stack's age moves its cost per request for minutes (docs/performance/
// 2026-11-28-gateway-read-floor.md), and a ratio of neighbours in time does not carry that drift.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const here = path.dirname(new URL(import.meta.url).pathname);

loopbackOnly(BASE);

async function login() {
  try {
    return (await signIn(BASE, USER, PASSWORD)).cookie;
  } catch (err) {
    throw new Error(`${err.message} (is the stack seeded?)`);
  }
}

async function measure(title, url, headers = {}, { warm = true } = {}) {
  if (warm && WARMUP > 0) await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, headers });
  const before = cpuByComponent();
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (err, r) => {
      if (err) return reject(err);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad) return reject(new Error(`${title}: ${bad} failed requests of ${r.requests.total}`));
      resolve({
        title,
        url,
        requestsPerSecond: Math.round(r.requests.average),
        p50ms: r.latency.p50,
        p95ms: p95(r.latency),
        p99ms: r.latency.p99,
        requests: r.requests.total,
        // What a request costs each process apart from queueing (holds on a busy machine).
        cpuMsPerRequest: perOperation(before, cpuByComponent(), r.requests.total),
      });
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// autocannon reports p50/p90/p97.5/p99; p95 is interpolated between p90 and p97.5.
function p95({ p90, p97_5 }) {
  return Math.round((p90 + ((p97_5 - p90) * (95 - 90)) / (97.5 - 90)) * 100) / 100;
}

const portOf = (child) => new Promise((resolve) => child.once('message', (m) => resolve(m.port)));
const bareGrpc = fork(path.join(here, 'bare-grpc.mjs'), { stdio: 'inherit' });
const bare = fork(path.join(here, 'bare-express.mjs'), {
  stdio: 'inherit',
  env: { ...process.env, BARE_GRPC_PORT: String(await portOf(bareGrpc)) },
});
const barePort = await portOf(bare);
// The floor again, with the obligations every API request of ours carries (bare-obliged.mjs).
const keys = obligedKeys();
const obligedService = fork(path.join(here, 'bare-obliged.mjs'), ['service'], {
  stdio: 'inherit',
  env: { ...process.env, BARE_OBLIGED_KEYS: keys },
});
const obligedFront = fork(
  path.join(here, 'bare-obliged.mjs'),
  ['front', String(await portOf(obligedService))],
  { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, BARE_OBLIGED_KEYS: keys } },
);
// Its access log, read and dropped, as the stack's log collector reads the gateway's.
obligedFront.stdout.resume();
const obligedPort = await portOf(obligedFront);
try {
  const cookie = await login();
  const list = await fetch(`${BASE}/api/products?page=1&pageSize=1`, { headers: { cookie } });
  const [first] = await list.json();
  if (!first) throw new Error('no product to read: seed the stack first (make seed)');
  console.log(
    `bench: ${DURATION}s per target after ${WARMUP}s of warm-up, ${CONNECTIONS} connections, loopback`,
  );
  const results = [];
  results.push(await measure('bare Express handler', `http://127.0.0.1:${barePort}/bare`));
  const compared = [
    // The same user document as the gateway's read, straight from the database by the driver.
    [
      'bare Express → database (the same user)',
      `http://127.0.0.1:${barePort}/bare-db/users/${first.manufacturerId}`,
    ],
    // The floor of any design with a service behind the gateway: two processes, one gRPC hop.
    [
      'bare Express → bare gRPC server → database (the floor)',
      `http://127.0.0.1:${barePort}/bare-grpc/users/${first.manufacturerId}`,
    ],
    // The floor with a request's obligations: context, log, headers, compression, metrics, session, caller.
    [
      'the floor with the obligations of a request (bare-obliged.mjs)',
      `http://127.0.0.1:${obligedPort}/bare-obliged/users/${first.manufacturerId}`,
      { cookie },
    ],
    // A read that reaches the database on every request: the identity service loads the user.
    [
      'gateway → gRPC → database (GET /api/users/{id})',
      `${BASE}/api/users/${first.manufacturerId}`,
      { cookie },
    ],
  ];
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const measured = [];
    for (const [title, url, headers] of compared)
      measured.push(await measure(`${title}, round ${round}`, url, headers, { warm: round === 1 }));
    const [bareDatabase, floor, obliged, gateway] = measured;
    rounds.push({
      ofBareDatabase: gateway.requestsPerSecond / bareDatabase.requestsPerSecond,
      floorOfBareDatabase: floor.requestsPerSecond / bareDatabase.requestsPerSecond,
      ofFloor: gateway.requestsPerSecond / floor.requestsPerSecond,
      obligedOfBareDatabase: obliged.requestsPerSecond / bareDatabase.requestsPerSecond,
      ofObliged: gateway.requestsPerSecond / obliged.requestsPerSecond,
    });
    results.push(...measured);
  }
  // The product read: the catalog answers from its in-memory read model and records a product_view.
  const product = `${BASE}/api/products/${first.id}`;
  results.push(
    await measure('gateway → gRPC → catalog read model (GET /api/products/{id})', product, { cookie }),
  );
  console.table(results.map(({ url: _u, cpuMsPerRequest: _c, ...r }) => r));
  for (const { title, cpuMsPerRequest: cpu } of results)
    console.log(`${title}: CPU ms per request ${cpu.total.toFixed(2)}`, cpu.per);
  const percent = (x) => `${(x * 100).toFixed(0)} %`;
  for (const [i, r] of rounds.entries())
    console.log(
      `round ${i + 1}: the floor reaches ${percent(r.floorOfBareDatabase)} of the bare database read, ` +
        `with the obligations ${percent(r.obligedOfBareDatabase)}; the gateway path ${percent(r.ofFloor)} of the ` +
        `floor, ${percent(r.ofObliged)} of the floor with obligations and ${percent(r.ofBareDatabase)} of the bare read`,
    );
  // docs/architecture.md §8 (a ratio of the same run, as 70 % and 20 ms were not met on two cores):
  // the gateway path reaches ≥ 50 % of the bare database read, the median of the rounds.
  const floor = median(rounds.map((r) => r.floorOfBareDatabase));
  const ofFloor = median(rounds.map((r) => r.ofFloor));
  const obliged = median(rounds.map((r) => r.obligedOfBareDatabase));
  const ofObliged = median(rounds.map((r) => r.ofObliged));
  const ofBareDatabase = median(rounds.map((r) => r.ofBareDatabase));
  console.log(
    `median of ${ROUNDS} rounds: the floor (bare Express → bare gRPC → database) reaches ${percent(floor)} ` +
      `of the bare database read; the gateway path reaches ${percent(ofFloor)} of the floor`,
  );
  console.log(
    `median of ${ROUNDS} rounds: the floor with the obligations of a request reaches ${percent(obliged)} ` +
      `of the bare database read; the gateway path reaches ${percent(ofObliged)} of it`,
  );
  console.log(
    `gateway→gRPC→database reaches ${percent(ofBareDatabase)} of the bare database read ` +
      `(budget ≥ 50 %: ${ofBareDatabase >= 0.5 ? 'met' : 'MISSED'})`,
  );
  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        duration: DURATION,
        warmup: WARMUP,
        connections: CONNECTIONS,
        results,
        rounds,
        ofBareDatabase,
        floorOfBareDatabase: floor,
        ofFloor,
        obligedOfBareDatabase: obliged,
        ofObliged,
      },
      null,
      2,
    ),
  );
  console.log(`written ${path.relative(process.cwd(), file)}`);
} finally {
  bare.kill('SIGTERM');
  bareGrpc.kill('SIGTERM');
  obligedFront.kill('SIGTERM');
  obligedService.kill('SIGTERM');
}
