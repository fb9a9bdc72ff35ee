// What the local stack spends with nothing asked of it, by process: its outbox relays' and sweepers'
// polls, its timers, its metrics. The cost scripts take this rate out of what they measure
// (docs/adr/049); a rise here is paid by every replica all day, whatever it serves.
//
//   node load/idle-cpu.mjs [seconds = 20]
//
// Runs on Linux against the stack on loopback only; counts the processes of this network namespace.
import { cpuReading } from './lib/process-cpu.mjs';

const seconds = Math.max(1, Number(process.argv[2] || 20));
const from = cpuReading();
await new Promise((r) => setTimeout(r, seconds * 1000));
const to = cpuReading();
const perS = Object.fromEntries(
  Object.keys(to.cpu)
    .map((k) => [k, ((to.cpu[k] - (from.cpu[k] ?? 0)) / (to.at - from.at)) * 1000])
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => [k, Number(ms.toFixed(1))]),
);
const total = Object.values(perS).reduce((a, b) => a + b, 0);
console.log(`the idle stack over ${seconds} s: ${total.toFixed(1)} ms of CPU a second`, perS);
