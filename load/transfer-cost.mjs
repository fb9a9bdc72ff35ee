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
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { bareUpdateCpuMs, inBue } from './lib/bue.mjs';
import { cpuByComponent, latencySummary, perOperation, writesByComponent } from './lib/process-cpu.mjs';
import { transfer, walletUsers } from './lib/wallet-users.mjs';

const N = Math.max(1, Number(process.argv[2] || 50));
const [sender, receiver] = await walletUsers('cost', 2, { funded: 1 });
const run = Date.now().toString(36);

const bue = await bareUpdateCpuMs();
console.log(
  `1 BUE (a bare update's CPU, same run) = ${bue.ms.toFixed(3)} ms, ${bue.writes.toFixed(1)} write system calls:`,
  bue.per,
);

const latencies = [];
const tablesBefore = await tableCounters();
const before = cpuByComponent();
const writesBefore = writesByComponent();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const res = await transfer(sender, receiver, '0.01', `cost-${run}-${i}`);
  latencies.push(performance.now() - started);
  if (res.status !== 200) throw new Error(`transfer ${i}: ${res.status} ${res.body}`);
}
const after = cpuByComponent();
const writesAfter = writesByComponent();
await settle();
const tablesAfter = await tableCounters();

const { per, total } = perOperation(before, after, N);
console.log(`${N} transfers of ₹0.01 one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log('CPU ms per transfer:', per);
console.log(`total ${total.toFixed(1)} ms → at most ${(2000 / total).toFixed(1)} transfers/s on two cores`);
const writes = perOperation(writesBefore, writesAfter, N);
console.log(
  `write system calls per transfer (messages sent), ${writes.total.toFixed(0)} in all:`,
  writes.per,
);
printStatements('transfer', perOperationStatements(tablesBefore, tablesAfter, N));
const met = inBue('CPU per transfer, whole stack', total, bue.ms, 20);
process.exit(met ? 0 : 1);
