// A k6 run judged by ratios (docs/architecture.md §8): the script runs with the bare-update probe beside it
// (load/lib/k6-probe.js, served by load/bare-express.mjs at the same concurrency), and each budget
// is "this endpoint's p95 ≤ R × the probe's p95" in the same run, so it holds on any machine, busy
// or not. Prints every endpoint's p50/p95 beside the probe's, and how many answers were 503s shed
// by the gateway's admission control (docs/adr/026, retried by the client as Retry-After says).
// Beside them, the sequence probe (SEQUENCE_STEPS bare updates in a row, load/lib/k6-probe.js): the
// ratio that a design needing that many database round trips one after another cannot go below.
// Exits non-zero when k6 failed (its checks) or a ratio is missed.
//
// It also prints how full the machine's cores were during the load, and each process's share of a
// core: a ratio missed with the cores full is queueing for CPU the workload asks more of than the
// machine has; one missed with a process near one core is that process's event loop queueing.
// And, from the gateway's /metrics (GATEWAY_METRICS_URL), how long calls waited in each admission
// line and how long each service's methods took once sent: the two halves of an endpoint's latency.
// And the seconds in which a budgeted endpoint stalled while the probe did not (lib/k6-seconds.cjs):
// something of the stack every request waited behind, not the machine.
//
//   node load/k6-ratios.mjs load/wallet.js transfer=5 transactions=3
//   node load/k6-ratios.mjs load/purchase.js purchase=12.5
import { spawn, fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopbackOnly } from './lib/loopback.cjs';
import { durationsBySecond, readK6Json, stalls } from './lib/k6-seconds.cjs';
import { countersBetween, histogramsBetween, quantile } from './lib/prometheus.cjs';
import { cpuByComponent, machineCpu } from './lib/process-cpu.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const [script, ...budgetArgs] = process.argv.slice(2);
if (!script || budgetArgs.some((b) => !/^[\w-]+=\d+(\.\d+)?$/.test(b))) {
  console.error('usage: node load/k6-ratios.mjs <k6 script> <endpoint>=<max ratio to the probe> …');
  process.exit(2);
}
const budgets = Object.fromEntries(budgetArgs.map((b) => b.split('=')).map(([k, v]) => [k, Number(v)]));

const bare = fork(path.join(here, 'bare-express.mjs'), { stdio: 'inherit' });
const port = await new Promise((resolve) => bare.once('message', (m) => resolve(m.port)));
const dir = path.join(here, 'results');
mkdirSync(dir, { recursive: true });
const summaryFile = path.join(dir, `${path.basename(script, '.js')}-${Date.now()}.json`);
// Every request's duration, for the run second by second (lib/k6-seconds.cjs).
const pointsFile = summaryFile.replace(/\.json$/, '.points.json.gz');
const metricsUrl = process.env.GATEWAY_METRICS_URL ?? 'http://127.0.0.1:9464/metrics';
loopbackOnly(metricsUrl);
// A reading each second of every process's and the machine's CPU, and of the gateway's metrics
// (`scraped`: their text, which arrives a moment later); the load's are the last DURATION.
const readings = [];
const read = () => {
  const reading = { at: performance.now(), stack: cpuByComponent(), machine: machineCpu() };
  reading.scraped = fetch(metricsUrl)
    .then((res) => (res.ok ? res.text() : undefined))
    .then((text) => (reading.metrics = text))
    .catch(() => undefined);
  readings.push(reading);
};
read();
const reader = setInterval(read, 1000);
let code;
try {
  code = await new Promise((resolve) => {
    const k6 = spawn(
      path.join(here, '..', '.tools', 'bin', 'k6'),
      ['run', `--summary-export=${summaryFile}`, '--out', `json=${pointsFile}`, script],
      {
        stdio: 'inherit',
        env: {
          ...process.env,
          PROBE_URL: `http://127.0.0.1:${port}/bare-db/update`,
          PROBE_SEQUENCE_URL: `http://127.0.0.1:${port}/bare-db/updates`,
        },
      },
    );
    k6.on('exit', (c) => resolve(c ?? 1));
  });
} finally {
  // The last reading stays the interval's: one taken now would no longer see k6, which has exited.
  clearInterval(reader);
  bare.kill('SIGTERM');
}

const { metrics } = JSON.parse(readFileSync(summaryFile, 'utf8'));
const trend = (endpoint) =>
  metrics[`http_req_duration{endpoint:${endpoint},expected_response:true}`] ??
  metrics[`http_req_duration{endpoint:${endpoint}}`];
const probe = trend('probe');
if (!probe) throw new Error('the run reported no probe latency: does the script spread probeOptions?');
const shed = (endpoint) => metrics[`http_reqs{endpoint:${endpoint},status:503}`]?.count ?? 'n/a';

const rows = [];
const missed = [];
for (const [endpoint, max] of Object.entries(budgets)) {
  const t = trend(endpoint);
  if (!t) {
    missed.push(`${endpoint}: no latency reported`);
    continue;
  }
  const ratio = t['p(95)'] / probe['p(95)'];
  if (!(ratio <= max)) missed.push(`${endpoint}: p95 ${ratio.toFixed(1)} × the probe's (budget ${max})`);
  rows.push({
    endpoint,
    'p50 ms': +t.med.toFixed(1),
    'p95 ms': +t['p(95)'].toFixed(1),
    'p95 ÷ probe p95': +ratio.toFixed(1),
    budget: max,
    '503 shed': shed(endpoint),
  });
}
// A kind of an endpoint's requests the script reports on its own (a threshold on
// `{endpoint:…,expected_response:true,<tag>:<value>}`), beside the whole endpoint, without a budget.
for (const [key, t] of Object.entries(metrics)) {
  const kind = /^http_req_duration\{endpoint:([\w-]+),expected_response:true,(\w+):([\w-]+)\}$/.exec(key);
  if (!kind || !(kind[1] in budgets)) continue;
  rows.push({
    endpoint: `${kind[1]}, ${kind[2]} ${kind[3]}`,
    'p50 ms': +t.med.toFixed(1),
    'p95 ms': +t['p(95)'].toFixed(1),
    'p95 ÷ probe p95': +(t['p(95)'] / probe['p(95)']).toFixed(1),
  });
}
rows.push({
  endpoint: 'probe (bare update)',
  'p50 ms': +probe.med.toFixed(1),
  'p95 ms': +probe['p(95)'].toFixed(1),
});
// The floor of a design with that many round trips in a row: no budget, a reference beside them.
const sequence = trend('probe-sequence');
if (sequence)
  rows.push({
    endpoint: `${process.env.SEQUENCE_STEPS || 10} bare updates in a row`,
    'p50 ms': +sequence.med.toFixed(1),
    'p95 ms': +sequence['p(95)'].toFixed(1),
    'p95 ÷ probe p95': +(sequence['p(95)'] / probe['p(95)']).toFixed(1),
  });
console.table(rows);
printStalls();
const load = loadWindow();
printCpuDuringLoad(load);
await Promise.all(readings.map((r) => r.scraped));
printGatewaySplit(load);
console.log(`summary: ${path.relative(process.cwd(), summaryFile)}`);
for (const m of missed) console.error(`budget missed: ${m}`);
if (code !== 0) console.error(`k6 exited with ${code}`);
process.exit(code || (missed.length ? 1 : 0));

/**
 * The seconds in which a budgeted endpoint stalled while the probe did not (lib/k6-seconds.cjs),
 * and its ratio without them: how much of a missed budget a stall of the stack makes.
 */
function printStalls() {
  const FACTOR = 3;
  if (!existsSync(pointsFile)) return;
  const by = durationsBySecond(readK6Json(pointsFile));
  for (const endpoint of Object.keys(budgets)) {
    if (!by.has(endpoint)) continue;
    const { seconds, ratio, ratioWithout } = stalls(by, endpoint, { factor: FACTOR });
    const said = `${endpoint}, second by second: its median over ${FACTOR} × the run's while the probe's was not`;
    if (seconds.length === 0) {
      console.log(`${said}: in no second`);
      continue;
    }
    console.log(`${said}: in ${seconds.length} of ${by.get(endpoint).size} s`);
    console.table(
      seconds.map((s) => ({
        second: s.second,
        requests: s.requests,
        'median ms': +s.medianMs.toFixed(1),
        'probe median ms': +s.probeMedianMs.toFixed(1),
      })),
    );
    console.log(
      `${endpoint}: p95 ÷ probe p95 ${ratio.toFixed(1)}, without those seconds ${ratioWithout.toFixed(1)}`,
    );
  }
}

/** Seconds of a k6 duration such as `60s`, `2m` or `1m30s`. */
function seconds(duration) {
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|m|s)/g)];
  return parts.reduce((s, [, n, unit]) => s + Number(n) * { h: 3600, m: 60, s: 1 }[unit], 0) || 60;
}

/**
 * The first and last readings of the load's last DURATION seconds (the scripts' scenarios run that
 * long after their setup).
 */
function loadWindow() {
  const end = readings.at(-1);
  const from = end.at - seconds(process.env.DURATION || '60s') * 1000;
  return { start: readings.find((r) => r.at >= from) ?? readings[0], end };
}

/** The CPU of the load: how full the cores were, and each process's share of one core. */
function printCpuDuringLoad({ start, end }) {
  const wallMs = end.at - start.at;
  const full = (end.machine.busy - start.machine.busy) / (end.machine.total - start.machine.total);
  const cores = (end.machine.total - start.machine.total) / wallMs;
  const shares = Object.keys(end.stack)
    .map((k) => [k, (end.stack[k] - (start.stack[k] ?? 0)) / wallMs])
    .filter(([, share]) => share >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  console.log(
    `CPU over the load's last ${(wallMs / 1000).toFixed(0)} s: the machine's ${cores.toFixed(0)} cores ` +
      `${(full * 100).toFixed(0)} % busy; share of one core: ` +
      shares.map(([k, share]) => `${k} ${share.toFixed(2)}`).join(', '),
  );
}

/**
 * What the gateway's calls spent during the load: the wait in each admission line (docs/adr/041)
 * and the busiest methods' time once sent (quantiles interpolated within the metrics' buckets).
 */
function printGatewaySplit({ start }) {
  const first = readings.find((r) => r.at >= start.at && r.metrics);
  const last = readings.findLast((r) => r.metrics);
  if (!first || !last || first === last) {
    console.log(`the gateway's metrics (${metricsUrl}) were not readable: no split of the latencies`);
    return;
  }
  const ms = (seconds) => +(seconds * 1000).toFixed(1);
  const summary = (h) => ({
    calls: h.count,
    'mean ms': ms(h.sum / h.count),
    'p50 ms ≈': ms(quantile(0.5, h)),
    'p95 ms ≈': ms(quantile(0.95, h)),
  });
  const lines = histogramsBetween(first.metrics, last.metrics, 'gateway_admission_wait_seconds');
  const calls = histogramsBetween(first.metrics, last.metrics, 'gateway_upstream_call_seconds')
    .sort((a, b) => b.sum - a.sum)
    .slice(0, 8);
  console.log(`the gateway during the load's last ${((last.at - first.at) / 1000).toFixed(0)} s:`);
  console.table(
    lines.map((h) => ({ 'waited in line': `${h.labels.service} ${h.labels.line}`, ...summary(h) })),
  );
  console.table(
    calls.map((h) => ({ 'call, once sent': `${h.labels.service}.${h.labels.method}`, ...summary(h) })),
  );
  for (const c of countersBetween(first.metrics, last.metrics, 'gateway_admission_refused_total'))
    console.log(`refused: ${c.labels.service} ${c.labels.line} (${c.labels.reason}) × ${c.value}`);
}
