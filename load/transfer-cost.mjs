// What one P2P transfer costs, apart from queueing: two new approved users, the sender with a PIN
// (set with the mailed code) and ₹1,000 from the sandbox, then N transfers of ₹0.01 one after
// another, with the CPU every process of the local stack spent on them (from /proc) and the
// statements FerretDB sent PostgreSQL for them (lib/db-statements.mjs). The k6 figure of
// load/wallet.js is bounded by it, as load/purchase-cost.mjs bounds load/purchase.js.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev
//   node load/transfer-cost.mjs [N=50]
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { apiClient, emailOf, registerApproved, topUp } from '../e2e/lib/api.mjs';
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { cpuByComponent, latencySummary, perOperation } from './lib/process-cpu.mjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const MAILDEV = process.env.MAILDEV_URL || 'http://127.0.0.1:1080';
const ADMIN = { username: 'admin', password: process.env.ADMIN_PASSWORD || 'Admin@12345' };
const N = Math.max(1, Number(process.argv[2] || 50));
for (const url of [BASE, MAILDEV])
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('loopback only');

const PASSWORD = 'CostRun@12345';
const PIN = '135790';
const run = Date.now().toString(36);
const [sender, receiver] = ['from', 'to'].map((side) => ({
  username: `cost_${side}_${run}`,
  firstName: 'Cost',
  lastName: side,
  role: 'Army',
}));
await registerApproved(BASE, [sender, receiver], PASSWORD, ADMIN);

const call = apiClient(BASE);
await call('POST', '/api/login', { username: sender.username, password: PASSWORD, portal: 'user' });
await call('POST', '/api/wallet/setup-pin', { pin: PIN, confirmPin: PIN });
await call('POST', '/api/wallet/send-otp', {});
await call('POST', '/api/wallet/verify-otp', { otp: await mailedCode(emailOf(sender)) });
await topUp(call, '1000');

/** The newest 6-digit code maildev holds for `address`. */
async function mailedCode(address) {
  for (let i = 0; i < 50; i++) {
    const mails = await (await fetch(`${MAILDEV}/email`)).json();
    const code = mails
      .filter((m) => m.to.some((t) => t.address.toLowerCase() === address))
      .map((m) => /\b(\d{6})\b/.exec(m.text || '')?.[1])
      .findLast(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${address}`);
}

const latencies = [];
const tablesBefore = await tableCounters();
const before = cpuByComponent();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const res = await fetch(`${BASE}/api/wallet/transfer`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: BASE,
      cookie: call.cookie(),
      'idempotency-key': `cost-${run}-${i}`,
    },
    body: JSON.stringify({ receiverUsername: receiver.username, amount: '0.01', pin: PIN }),
  });
  const body = await res.text();
  latencies.push(performance.now() - started);
  if (res.status !== 200) throw new Error(`transfer ${i}: ${res.status} ${body}`);
}
const after = cpuByComponent();
await settle();
const tablesAfter = await tableCounters();

const { per, total } = perOperation(before, after, N);
console.log(`${N} transfers of ₹0.01 one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log('CPU ms per transfer:', per);
console.log(`total ${total.toFixed(1)} ms → at most ${(2000 / total).toFixed(1)} transfers/s on two cores`);
printStatements('transfer', perOperationStatements(tablesBefore, tablesAfter, N));
