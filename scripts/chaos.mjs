#!/usr/bin/env node
// `make chaos` (docs/adr/015): a Jepsen-style bank test of the whole product. Starts
// the whole stack (production mode, no frontends) on a fresh data directory, drives it with every
// role while killing one random process every CHAOS_KILL_EVERY, heals, drains and checks that no
// money, stock, order or event was lost or duplicated (scripts/chaos/run.mjs, load/chaos-check.ts).
//
//   node scripts/chaos.mjs [--duration 10m] [--vus 100] [--kill-every 10s] [--data-dir .data/chaos]
//                          [--results load/results] [--name chaos] [--replicas 1]
//                          [--store-engine ferretdb-postgresql|mongodb]
// CHAOS_DURATION, CHAOS_VUS, CHAOS_KILL_EVERY, REPLICAS and STORE_ENGINE stand in for the flags.
// With --store-engine mongodb the services and gateway run the chart's path (docs/adr/024: no
// PostgreSQL URL), and PostgreSQL, which they do not know, is no kill target. With replicas
// (docs/adr/025) every service and the gateway run that many processes, the workload goes round the
// gateways, and one replica of a random service or gateway is killed each time (CHAOS_TARGETS may
// add nats, ferretdb, postgres).
// Exits 0 when every invariant holds, 1 when one breaks, 2 when the run itself could not happen.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  APP_TARGETS,
  durationMs,
  replicaTargets,
  runChaos,
  TARGETS,
  targetsFrom,
  targetsOfEngine,
} from './chaos/run.mjs';
import { createLogger } from './stack/log.mjs';
import { ROOT, startStack, STORE_ENGINES } from './stack/index.mjs';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.CHAOS_DURATION || '10m' },
    vus: { type: 'string', default: process.env.CHAOS_VUS || '100' },
    'kill-every': { type: 'string', default: process.env.CHAOS_KILL_EVERY || '10s' },
    'data-dir': { type: 'string', default: '.data/chaos' },
    results: { type: 'string', default: 'load/results' },
    name: { type: 'string', default: 'chaos' },
    replicas: { type: 'string', default: process.env.REPLICAS || '1' },
    'store-engine': { type: 'string', default: process.env.STORE_ENGINE || 'ferretdb-postgresql' },
  },
});

const log = createLogger();
const replicas = Number(args.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
  console.error(`--replicas must be a whole number from 1 to 5, not "${args.replicas}"`);
  process.exit(2);
}
const storeEngine = args['store-engine'];
if (!STORE_ENGINES.includes(storeEngine)) {
  console.error(`--store-engine must be one of ${STORE_ENGINES.join(', ')}, not "${storeEngine}"`);
  process.exit(2);
}
const dataDir = path.resolve(ROOT, args['data-dir']);
// Every virtual user comes from 127.0.0.1: lift the per-address sign-up and contact limits.
process.env.AUTH_RATE_LIMIT_SCALE ??= '1000';

let stack;
const children = new Set();
async function stopAll(code) {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (stack) await stack.stop();
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll(130));

async function main() {
  rmSync(dataDir, { recursive: true, force: true });
  log.info(`starting the stack on ${path.relative(ROOT, dataDir)}`);
  stack = await startStack({
    dataDir,
    prod: true,
    frontends: false,
    quiet: true,
    provision: true,
    replicas,
    storeEngine,
  });
  log.ok(`stack up in ${(stack.startedInMs / 1000).toFixed(1)} s`);
  const code = await runChaos({
    stack,
    vus: args.vus,
    duration: args.duration,
    killEvery: durationMs(args['kill-every']),
    workDir: path.join(dataDir, 'chaos'),
    results: path.resolve(ROOT, args.results),
    name: args.name,
    log,
    children,
    targets: replicaTargets(
      targetsOfEngine(
        targetsFrom(process.env.CHAOS_TARGETS, replicas > 1 ? APP_TARGETS : TARGETS),
        storeEngine,
      ),
      replicas,
    ),
    replicas,
  });
  return code === 0 || code === 1 ? code : 2;
}

main().then(
  (code) => stopAll(code),
  (err) => {
    log.error(err.stack ?? err.message);
    return stopAll(2);
  },
);
