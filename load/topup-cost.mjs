// What one card top-up costs, apart from queueing: one approved user, then N sandbox top-ups of ₹100 (the least allowed)
// one after another (create-order → sandbox/pay → verify-payment, as the wallet page does), and the
// sandbox's webhook of each, which a periodic job posts later (every WEBHOOK_RETRY_MS) and which
// finds the top-up already credited. The run waits for every webhook to be delivered, so the top-up
// is charged all it causes; the stack's idle CPU over that wait is subtracted. Priced in the BUE of
// the same run, with the statements FerretDB sent PostgreSQL for it (lib/db-statements.mjs).
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev
//   node load/topup-cost.mjs [N=40]
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { MongoClient } from 'mongodb';
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { bareUpdateCpuMs } from './lib/bue.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import {
  cpuByComponent,
  idleCpuRates,
  latencySummary,
  perOperation,
  writesByComponent,
} from './lib/process-cpu.mjs';
import { BASE, walletUsers } from './lib/wallet-users.mjs';

const N = Math.max(1, Number(process.argv[2] || 40));
const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
const WALLET_DB = process.env.MONGO_DB || 'qm_wallet';
loopbackOnly(MONGO_URL);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const [user] = await walletUsers('topup', 1, { funded: 0 });
const run = Date.now().toString(36);
/** A POST as the wallet page sends it: the session cookie and an Idempotency-Key of its own. */
async function post(path, body, key) {
  const res = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: BASE,
      'x-requested-with': 'quartermaster',
      cookie: user.cookie,
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}
const mongo = await MongoClient.connect(MONGO_URL);
const deliveries = mongo.db(WALLET_DB).collection('webhook_deliveries');

const bue = await bareUpdateCpuMs();
console.log(`1 BUE (a bare update's CPU, same run) = ${bue.ms.toFixed(3)} ms:`, bue.per);
// What the stack spends with nothing asked of it (its sweepers and timers), to take out of the wait.
const idle = await idleCpuRates(Object.keys(cpuByComponent()));

const latencies = { 'create-order': [], 'sandbox-pay': [], 'verify-payment': [] };
const timed = async (name, fn) => {
  const started = performance.now();
  const out = await fn();
  latencies[name].push(performance.now() - started);
  return out;
};
const payments = [];
const tablesBefore = await tableCounters();
const before = cpuByComponent();
const writesBefore = writesByComponent();
for (let i = 0; i < N; i++) {
  const order = await timed('create-order', () =>
    post('/api/create-order', { amount: '100.00' }, `topup-${run}-${i}-order`),
  );
  const proof = await timed('sandbox-pay', () =>
    post(
      '/api/sandbox/pay',
      { orderId: order.id, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      `topup-${run}-${i}-pay`,
    ),
  );
  await timed('verify-payment', () => post('/api/verify-payment', proof, `topup-${run}-${i}-verify`));
  payments.push(proof.providerPaymentId);
}
const lastAnswered = performance.now();
// Every webhook delivered (the job's next pass or two), and what it announced consumed.
for (let waited = 0; ; waited += 200) {
  const pending = await deliveries.countDocuments({ _id: { $in: payments }, state: { $ne: 'delivered' } });
  if (pending === 0) break;
  if (waited > 60_000) throw new Error(`${pending} webhooks still undelivered after 60 s`);
  await sleep(200);
}
await sleep(1_000);
const after = cpuByComponent();
const writesAfter = writesByComponent();
const waitMs = performance.now() - lastAnswered;
for (const k of Object.keys(after)) after[k] -= (idle[k] ?? 0) * waitMs;
await settle();
const tablesAfter = await tableCounters();
await mongo.close();

const { per, total } = perOperation(before, after, N);
console.log(
  `${N} top-ups of ₹100 one after another, each with its webhook (waited ${(waitMs / 1000).toFixed(1)} s for the last ones)`,
);
for (const [name, ms] of Object.entries(latencies)) console.log(`${name} latency ms: ${latencySummary(ms)}`);
console.log('CPU ms per top-up:', per);
console.log(`total ${total.toFixed(1)} ms of CPU = ${(total / bue.ms).toFixed(1)} BUE`);
const writes = perOperation(writesBefore, writesAfter, N);
console.log(`write system calls per top-up (messages sent), ${writes.total.toFixed(0)} in all:`, writes.per);
printStatements('top-up', perOperationStatements(tablesBefore, tablesAfter, N));
