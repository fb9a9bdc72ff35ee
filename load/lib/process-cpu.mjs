// CPU time of the local stack's processes, read from /proc (Linux): what an operation costs apart
// from queueing, which holds on a busy machine better than latencies do. load/purchase-cost.mjs,
// load/chat-cost.mjs, load/bench.mjs, load/lib/bue.mjs and load/sequence-cost.ts use it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const CLK_TCK_MS = 10; // USER_HZ is 100 on Linux
const PROCESS_NAMES =
  /services\/(\w+)\/|(gateway)|(ferretdb)|(postgres)|(nats-server)|(keycloak)|(maildev)|(bare-express)|(bare-grpc)|(bare-obliged)|(grpc-floor)|\/(k6) run/;

/** `read(pid)` summed by stack component over every process in this network namespace but this one. */
function byComponent(read) {
  const ns = readlinkSync('/proc/self/ns/net');
  const out = {};
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/ns/net`) !== ns || pid === String(process.pid)) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const m = cmd.match(PROCESS_NAMES);
      if (!m) continue;
      const name = m.slice(1).find(Boolean);
      out[name] = (out[name] ?? 0) + read(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** CPU milliseconds (user and system) that process `pid` has spent so far. */
function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLK_TCK_MS;
}

/** CPU milliseconds so far of every process in this network namespace, by stack component. */
export function cpuByComponent() {
  return byComponent(cpuMsOf);
}

/**
 * The machine's CPU milliseconds so far, over all its cores, from /proc/stat: `busy` (everything but
 * idle and I/O wait) and `total`. Between two readings, Δbusy ÷ Δtotal is how full the cores were.
 */
export function machineCpu() {
  const [, ...jiffies] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = jiffies.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy * CLK_TCK_MS, total: (busy + idle + iowait) * CLK_TCK_MS };
}

/** `syscw` of a /proc io file: write system calls so far. */
const writesOf = (ioFile) => Number(/^syscw: (\d+)$/m.exec(readFileSync(ioFile, 'utf8'))?.[1] ?? 0);

/**
 * Write system calls so far (`syscw` of /proc/<pid>/io: every message a process sends on a socket
 * is at least one), by stack component. Reading another process's counters needs root.
 */
export function writesByComponent() {
  return byComponent((pid) => writesOf(`/proc/${pid}/io`));
}

/** This process's write system calls so far. */
export const ownWrites = () => writesOf('/proc/self/io');

/** Each component's CPU ms per operation between two readings, largest first, and their total. */
export function perOperation(before, after, n) {
  const per = Object.fromEntries(
    Object.keys(after)
      .map((k) => [k, (after[k] - (before[k] ?? 0)) / n])
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k, ms]) => [k, Number(ms.toFixed(2))]),
  );
  return { per, total: Object.values(per).reduce((a, b) => a + b, 0) };
}

/**
 * CPU ms per call of `take(i)` over `n` sequential calls, after `warm` calls (connections, plans):
 * this process's (the client's) and that of the processes the calls reach (by default the database
 * engine: FerretDB, PostgreSQL), less what those spend idle per millisecond (`idle`, from
 * idleCpuRates; none by default); the services' other background work meanwhile is not the call's.
 * `per`: the client and each process reached; `wallMs`: elapsed time per call.
 */
export async function engineCpuPerCall(
  n,
  take,
  warm = 100,
  { reaches = ['ferretdb', 'postgres'], idle = {} } = {},
) {
  for (let i = 0; i < warm; i++) await take(i);
  const before = cpuByComponent();
  const writesBefore = writesByComponent();
  const selfWrites = ownWrites();
  const self = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await take(i);
  const elapsed = performance.now() - t0;
  const own = process.cpuUsage(self);
  const after = cpuByComponent();
  const reachedWrites = perOperation(writesBefore, writesByComponent(), n).per;
  const per = { client: (own.user + own.system) / 1000 / n };
  for (const k of reaches) per[k] = ((after[k] ?? 0) - (before[k] ?? 0) - (idle[k] ?? 0) * elapsed) / n;
  // Write system calls of the client and the processes reached per call: the messages it cost.
  const writes = (ownWrites() - selfWrites) / n + reaches.reduce((w, k) => w + (reachedWrites[k] ?? 0), 0);
  return {
    wallMs: elapsed / n,
    client: per.client,
    ferretdb: per.ferretdb ?? 0,
    postgres: per.postgres ?? 0,
    total: Object.values(per).reduce((a, b) => a + b, 0),
    writes,
    per,
  };
}

/** CPU ms per millisecond that each of `components` spends over `ms` with nothing asked of it (its timers). */
export async function idleCpuRates(components, ms = 5000) {
  const before = cpuByComponent();
  await new Promise((r) => setTimeout(r, ms));
  const after = cpuByComponent();
  return Object.fromEntries(components.map((k) => [k, ((after[k] ?? 0) - (before[k] ?? 0)) / ms]));
}

/** "p50 …, p90 …, p95 …, min …" of latencies in ms. */
export function latencySummary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `p50 ${at(0.5)}, p90 ${at(0.9)}, p95 ${at(0.95)}, min ${sorted[0].toFixed(1)}`;
}

/**
 * CPU ms of work the stack does by itself later (a sweeper's pass), by stack component: after
 * `quietMs`, polls `remaining()` every `pollMs` until it answers 0, and charges the work the stretch from the
 * last poll before it started to the first after it ended, less what the stack spent idle per
 * millisecond before it started (its timers, the polls themselves). Gives up after `timeoutMs`.
 */
export async function laterWorkCpu(remaining, { pollMs = 500, timeoutMs, quietMs = 5000, settleMs = 2000 }) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // What came before (consumers, mails) finishes first, or it would pass for idle.
  await sleep(quietMs);
  const idleFrom = cpuReading();
  const total = await remaining();
  let idleTo = idleFrom;
  // Work already under way would pass for idle: measure nothing rather than something wrong.
  if (total === 0) return undefined;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (performance.now() > deadline) return undefined;
    await sleep(pollMs);
    const left = await remaining();
    const reading = cpuReading();
    if (left === total) idleTo = reading;
    else if (left === 0) {
      // The last step's consumers (activity, mails) finish a moment after it.
      await sleep(settleMs);
      return chargeAgainstIdle(idleFrom, idleTo, cpuReading());
    }
  }
}

/** A reading of every component's CPU ms so far, and when it was taken. */
export const cpuReading = () => ({ cpu: cpuByComponent(), at: performance.now() });

/**
 * Readings while nothing is asked of the stack, for its idle rate (chargeAgainstIdle): of three
 * stretches over `ms`, the quietest, so that work still finishing from before (a webhook's delivery,
 * a mail) is not taken for idle and out of what is measured after.
 */
export async function idleStretch(ms) {
  const sum = (cpu) => Object.values(cpu).reduce((a, b) => a + b, 0);
  const readings = [cpuReading()];
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, ms / 3));
    readings.push(cpuReading());
  }
  const rate = (i) =>
    (sum(readings[i + 1].cpu) - sum(readings[i].cpu)) / (readings[i + 1].at - readings[i].at);
  const quietest = [0, 1, 2].reduce((best, i) => (rate(i) < rate(best) ? i : best));
  return { from: readings[quietest], to: readings[quietest + 1] };
}

/**
 * N operations' CPU between two readings, per operation, gross and less the stack's idle rate
 * (`idle`, from idleStretch) over the same time: its own timers and polls (outbox relays, sweepers,
 * metrics) run whatever is asked of it, and are no operation's cost. `per` and `total` are net; every
 * process's share counts in `total`, below its idle rate too, or noise would only ever add.
 */
export function perOperationLessIdle(idle, from, to, n) {
  const gross = perOperation(from.cpu, to.cpu, n);
  const net = chargeAgainstIdle(idle.from, idle.to, to, from);
  const total = Object.values(net.per).reduce((a, b) => a + b, 0) / n;
  return { per: perOperation({}, net.per, n).per, total, gross: gross.total, idlePerS: net.idlePerS };
}

/** "less the idle stack's X ms of CPU a second: gross G ms" for perOperationLessIdle's answer. */
export const idleTakenOut = ({ gross, idlePerS }) =>
  `less the idle stack's ${idlePerS.toFixed(1)} ms of CPU a second (gross ${gross.toFixed(1)} ms)`;

/**
 * The CPU ms per component from `workFrom` to `end` (cpuReadings), less the idle rate of the stretch
 * from `idleFrom` to `idleTo` over that time; `idlePerS` is that rate, all components summed.
 */
export function chargeAgainstIdle(idleFrom, idleTo, end, workFrom = idleTo) {
  const idleMs = idleTo.at - idleFrom.at;
  const workMs = end.at - workFrom.at;
  const per = {};
  let idlePerMs = 0;
  for (const k of Object.keys(end.cpu)) {
    const idleRate = idleMs > 0 ? ((idleTo.cpu[k] ?? 0) - (idleFrom.cpu[k] ?? 0)) / idleMs : 0;
    idlePerMs += idleRate;
    per[k] = end.cpu[k] - (workFrom.cpu[k] ?? 0) - idleRate * workMs;
  }
  return { per, idleMs, workMs, idlePerS: idlePerMs * 1000 };
}
