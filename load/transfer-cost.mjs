// What one P2P transfer costs, apart from queueing: new approved users in pairs, each sender with a PIN
// (set with the mailed code) and ₹1,000 from the sandbox, then N transfers of ₹0.01 one after
// another, with the CPU every process of the local stack spent on them (from /proc) and the
// statements FerretDB sent PostgreSQL for them (lib/db-statements.mjs). The k6 figure of
// load/wallet.js is bounded by it, as load/purchase-cost.mjs bounds load/purchase.js.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev
//   node load/transfer-cost.mjs [N=50] [--later] [--pairs=P] [--warm=W]
//
// --pairs=P spreads the transfers over P senders, each paying a receiver of its own in turn, so that
// no wallet is hot: with one pair (the default) both wallets take every transfer, and each carries a
// marker per transfer of the last 15-30 s (ADR 006), which every step on it pays for. A seller paid
// that often is the hot-account case (load/hot-payee.mjs); a P2P transfer between two people is not.
//
// The stack's idle rate is measured for IDLE_MS (15 s) before the transfers and taken out of their
// CPU, as load/topup-cost.mjs does: its relays, sweepers and timers run whatever is asked of it
// (docs/adr/049). The gross figure is printed beside it.
//
// --later also charges what the transfers cost after their answer: the wallet keeps each transfer's
// markers on both accounts for MARKER_RETENTION_MS (15 s, ADR 006) and its sweeper then clears
// them. It waits until none of its wallets carries one, and charges the stack's CPU meanwhile, less its
// idle rate. Start it on a stack that has moved no money for the retention time, or the idle rate
// includes an earlier run's later work.
//
// The unit is measured before the transfers and again after all their work; their BUE are over the
// mean of the two, and a run whose unit moved by more than 15 % says so (lib/bue.mjs unitOverRun).
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { perOperationStatements, printStatements, settle, tableCounters } from './lib/db-statements.mjs';
import { bareUpdateCpuMs, inBue, unitOverRun } from './lib/bue.mjs';
import {
  chargeAgainstIdle,
  cpuReading,
  idleStretch,
  idleTakenOut,
  latencySummary,
  perOperation,
  perOperationLessIdle,
  writesByComponent,
} from './lib/process-cpu.mjs';
import { transfer, walletUsers } from './lib/wallet-users.mjs';
import { markersCleared } from './lib/wallet-markers.mjs';

const N = Math.max(1, Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) || 50));
const LATER = process.argv.includes('--later');
const PAIRS = Math.max(1, Number(process.argv.find((a) => a.startsWith('--pairs='))?.slice(8) || 1));
const WARM = Math.max(0, Number(process.argv.find((a) => a.startsWith('--warm='))?.slice(7) || 0));
const users = await walletUsers('cost', 2 * PAIRS, { funded: PAIRS });
const senders = users.slice(0, PAIRS);
const receivers = users.slice(PAIRS);
const run = Date.now().toString(36);
// The first markers go a retention and a window after settling: asking before only costs reads.
const usersMarkersCleared = () =>
  markersCleared(
    users.map((u) => u.username),
    { firstPollAfterMs: Number(process.env.MARKER_RETENTION_MS || 15_000) + 10_000 },
  );

// Each sender's first transfer hashes its PIN (scrypt, about 40 BUE; later ones within 15 minutes are
// checked by the PIN the wallet remembers, ADR 009): made before the measurement, as k6-ratios splits it.
for (const [i, sender] of senders.entries()) {
  const res = await transfer(sender, receivers[i], '0.01', `cost-${run}-first-${i}`);
  if (res.status !== 200) throw new Error(`first transfer of sender ${i}: ${res.status} ${res.body}`);
}
// --warm=W: W transfers more, not measured, so that the processes' code is compiled for this path as
// a service's is after its first minutes (a fresh stack's first hundreds cost up to a fifth more).
// Their markers are left to be cleared first, so that neither the idle stretch nor the later work
// counts that clearing.
for (let i = 0; i < WARM; i++) {
  const res = await transfer(senders[i % PAIRS], receivers[i % PAIRS], '0.01', `cost-${run}-warm-${i}`);
  if (res.status !== 200) throw new Error(`warm-up transfer ${i}: ${res.status} ${res.body}`);
}
if (WARM > 0) await usersMarkersCleared();

const bue = await bareUpdateCpuMs();
console.log(
  `1 BUE before the run (a bare update's CPU) = ${bue.ms.toFixed(3)} ms, ${bue.writes.toFixed(1)} write system calls:`,
  bue.per,
);

const idle = await idleStretch(Number(process.env.IDLE_MS || process.env.LATER_IDLE_MS || 15_000));
const latencies = [];
const tablesBefore = await tableCounters();
const before = cpuReading();
const writesBefore = writesByComponent();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const res = await transfer(senders[i % PAIRS], receivers[i % PAIRS], '0.01', `cost-${run}-${i}`);
  latencies.push(performance.now() - started);
  if (res.status !== 200) throw new Error(`transfer ${i}: ${res.status} ${res.body}`);
}
const afterReading = cpuReading();
const writesAfter = writesByComponent();
await settle();
const tablesAfter = await tableCounters();

const cost = perOperationLessIdle(idle, before, afterReading, N);
const { per, total } = cost;
console.log(
  `${N} transfers of ₹0.01 one after another, between ${PAIRS === 1 ? 'one pair of wallets' : `${PAIRS} pairs in turn`}`,
);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log(`CPU ms per transfer, ${idleTakenOut(cost)}:`, per);
console.log(
  `total ${total.toFixed(1)} ms → at most ${(2000 / cost.gross).toFixed(1)} transfers/s on two cores (by the gross)`,
);
const writes = perOperation(writesBefore, writesAfter, N);
console.log(
  `write system calls per transfer (messages sent), ${writes.total.toFixed(0)} in all:`,
  writes.per,
);
printStatements('transfer', perOperationStatements(tablesBefore, tablesAfter, N));
let charged = total;
if (LATER) {
  await usersMarkersCleared();
  const later = chargeAgainstIdle(idle.from, idle.to, cpuReading(), afterReading);
  await settle();
  printStatements('transfer, later', perOperationStatements(tablesAfter, await tableCounters(), N));
  const perLater = perOperation({}, later.per, N);
  console.log(
    `later, until the sweeper cleared the accounts' markers (${(later.workMs / 1000).toFixed(0)} s, ` +
      `idle ${later.idlePerS.toFixed(1)} ms of CPU per s subtracted): CPU ms per transfer:`,
    perLater.per,
  );
  // Every process's share counts, below its idle rate too, or noise would only ever add.
  const laterTotal = Object.values(later.per).reduce((a, b) => a + b, 0) / N;
  console.log(`later work per transfer: ${laterTotal.toFixed(1)} ms of CPU`);
  charged += laterTotal;
}
// Measured again once the transfers' work is done, so that it is charged to none of it.
const unit = unitOverRun(bue, await bareUpdateCpuMs());
console.log(
  `gross, the idle stack's share included: ${((charged - total + cost.gross) / unit).toFixed(1)} BUE`,
);
const met = inBue('CPU per transfer, whole stack', charged, unit, 20);
process.exit(met ? 0 : 1);
