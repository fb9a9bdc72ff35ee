// A seller's wallet under steady payments (docs/adr/006, amendment of 2026-12-04: hot accounts): P2P
// transfers from 20 payers into one payee at RATE a second, sent on a clock (open loop: a slow answer
// does not slow the arrivals), for SECONDS, longer than each credit's marker stays on the payee's
// account (MARKER_RETENTION_MS and up to a settling window and a sweep more). The payee's document
// carries a marker per payment of that time, and every credit rewrites it on the local engine. Each request is sent again with the same Idempotency-Key after a
// 503's Retry-After, as a real client would. Per 30 s: the transfers completed, their latency, the
// stack's CPU per transfer, and the markers on the payee.
//
// The payee keeps up when every payment completed within 1 s of the last one sent, and the last 30 s
// cost no more CPU per transfer than the first 30 s did, times 1.5 (the run then exits 0).
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev        (production mode for figures: node scripts/dev.mjs --prod)
//   node load/hot-payee.mjs [RATE=20] [SECONDS=150]
//
// Then `npm run ledger:check`: nothing created or lost.
import { MongoClient } from 'mongodb';
import { loopbackOnly } from './lib/loopback.cjs';
import { cpuByComponent, latencySummary } from './lib/process-cpu.mjs';
import { transfer, walletUsers } from './lib/wallet-users.mjs';

const RATE = Math.max(1, Number(process.argv[2] || 20));
const SECONDS = Math.max(30, Number(process.argv[3] || 150));
const SLICE_MS = 30_000;
const MAX_ATTEMPTS = 30;
const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
loopbackOnly(MONGO_URL);
const run = Date.now().toString(36);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const payers = await walletUsers('hot_payer', 20);
const [payee] = await walletUsers('hot_payee', 1, { funded: 0 });
// Each payer's first transfer pays its PIN's slow hash (ADR 009): done before the clock starts.
await Promise.all(payers.map((p, i) => transfer(p, payee, '0.01', `hot-warm-${run}-${i}`)));

const client = await MongoClient.connect(MONGO_URL);
const accounts = client.db(process.env.WALLET_DB || 'qm_wallet').collection('accounts');
const markersOnPayee = async () =>
  (await accounts.findOne({ username: payee.username }, { projection: { applied: 1 } })).applied.length;

/** One payment, sent until it completes (honouring 503 + Retry-After). */
async function pay(i) {
  const started = performance.now();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const res = await transfer(payers[i % payers.length], payee, '0.01', `hot-${run}-${i}`);
    if (res.status !== 503 || !res.retryAfter) return { status: res.status, ms: performance.now() - started };
    await sleep(Number(res.retryAfter) * 1000 * (0.5 + Math.random()));
  }
  return { status: 'gave up', ms: performance.now() - started };
}

const slices = [];
const clockStart = performance.now();
let sliceStart = { at: clockStart, cpu: cpuByComponent() };
const ticker = setInterval(async () => {
  const now = { at: performance.now(), cpu: cpuByComponent() };
  slices.push({ from: sliceStart, to: now, markers: await markersOnPayee() });
  sliceStart = now;
}, SLICE_MS);

const done = [];
await Promise.all(
  Array.from({ length: RATE * SECONDS }, async (_, i) => {
    await sleep((i * 1000) / RATE);
    const r = await pay(i);
    done.push({ ...r, sentAt: (i * 1000) / RATE, doneAt: performance.now() - clockStart });
  }),
);
clearInterval(ticker);
const markersAtEnd = await markersOnPayee();
const end = { at: performance.now(), cpu: cpuByComponent() };
if (end.at - sliceStart.at > 5_000) slices.push({ from: sliceStart, to: end, markers: markersAtEnd });
await client.close();

const rows = slices.map(({ from, to, markers }) => {
  const start = from.at - clockStart;
  const end = to.at - clockStart;
  const sent = done.filter((d) => d.sentAt >= start && d.sentAt < end).length;
  // By when they completed, so a backlog's transfers are counted with the CPU that finished them.
  const ok = done.filter((d) => d.status === 200 && d.doneAt >= start && d.doneAt < end);
  const spent = (names) => names.reduce((s, k) => s + (to.cpu[k] ?? 0) - (from.cpu[k] ?? 0), 0);
  const cpu = spent(Object.keys(to.cpu));
  const each = (ms) => +(ms / Math.max(1, ok.length)).toFixed(1);
  return {
    seconds: `${Math.round(start / 1000)}–${Math.round(end / 1000)}`,
    sent,
    completed: ok.length,
    latency: ok.length ? latencySummary(ok.map((d) => d.ms)) : '',
    'stack CPU ms a transfer': each(cpu),
    'of which the engine': each(spent(['ferretdb', 'postgres'])),
    'the wallet': each(spent(['wallet'])),
    'markers on the payee': markers,
  };
});
console.log(`${RATE} payments a second into one wallet for ${SECONDS} s (20 payers)`);
console.table(rows);
const statuses = {};
for (const d of done) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
console.log(`answers: ${JSON.stringify(statuses)}; markers on the payee at the end: ${markersAtEnd}`);

// The last whole 30 s against the first; what completed after the clock stopped is a backlog.
const [first, last] = [rows[0], rows.at(slices.length > SECONDS / 30 ? -2 : -1)];
const backlog = done.filter((d) => d.doneAt > SECONDS * 1000 + 1000).length;
const failures = [];
if (statuses[504]) failures.push(`${statuses[504]} × 504`);
if (done.some((d) => d.status !== 200)) failures.push('payments not completed');
if (backlog) failures.push(`${backlog} payments completed more than 1 s after the last was sent`);
if (first && last && last['stack CPU ms a transfer'] > 1.5 * first['stack CPU ms a transfer'])
  failures.push(
    `CPU a transfer grew from ${first['stack CPU ms a transfer']} to ${last['stack CPU ms a transfer']} ms`,
  );
for (const f of failures) console.error(`the payee did not keep up: ${f}`);
process.exit(failures.length ? 1 : 0);
