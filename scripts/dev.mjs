#!/usr/bin/env node
// `make dev`: provisions what is missing, starts the whole local stack in dependency order (each
// process healthy before the next tier starts), streams the logs, and stops everything on Ctrl-C.
//
//   node scripts/dev.mjs [--infra-only | --apps-only] [--no-frontends] [--prod] [--traces]
//                        [--store-engine mongodb] [--data-dir <dir>]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bold, createLogger, cyan, dim } from './stack/log.mjs';
import {
  commonEnv,
  describeExit,
  gatewayPorts,
  needsNpmInstall,
  npmInstall,
  provisionTools,
  ROOT,
  startProcess,
  startStack,
  STORE_ENGINES,
  URLS,
} from './stack/index.mjs';

const HELP = `Usage: node scripts/dev.mjs [options]

  --infra-only       only NATS, FerretDB, Keycloak and maildev (used by tests)
  --apps-only        no infrastructure: services and gateway use the one already running (make infra)
  --replicas <n>     processes of each service and of the gateway (default REPLICAS or 1): the k-th
                     gateway listens on 8080 + 10(k-1), the k-th replica of a service on its port + 100(k-1)
  --no-frontends     no frontend dev servers
  --prod             as the images run: each service and the gateway bundled (dist/main.js), no watch
                     mode, the gateway serving frontends/<name>/dist (used by e2e and chaos tests)
  --traces           also the Zipkin trace viewer (http://localhost:9411/zipkin/), every process
                     exporting its spans to it (make dev TRACES=1; docs/adr/016)
  --store-engine <e> the services' and gateway's store engine (default STORE_ENGINE or
                     ferretdb-postgresql, the local one with its shortcuts): mongodb runs the chart's
                     path, the MongoDB API alone with no PostgreSQL URL (docs/adr/024)
  --data-dir <dir>   where data and logs live (default .data; tests use .data/test)
  -h, --help         this text`;

let args;
try {
  args = parseArgs({
    options: {
      'infra-only': { type: 'boolean', default: false },
      'apps-only': { type: 'boolean', default: false },
      replicas: { type: 'string', default: process.env.REPLICAS || '1' },
      'no-frontends': { type: 'boolean', default: false },
      prod: { type: 'boolean', default: false },
      traces: { type: 'boolean', default: false },
      'store-engine': { type: 'string', default: process.env.STORE_ENGINE || 'ferretdb-postgresql' },
      'data-dir': { type: 'string', default: '.data' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (err) {
  console.error(`${err.message}\n\n${HELP}`);
  process.exit(2);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
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

const log = createLogger();
const dataDir = path.resolve(ROOT, args['data-dir']);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

// Signals: during the start they abort it; afterwards they stop the stack; a second one kills at once.
const aborter = new AbortController();
let stack;
let seedProc;
let shuttingDown = false;
async function shutdown(code, reason) {
  if (shuttingDown) {
    log.warn('second signal: killing everything now');
    stack?.kill();
    process.exit(1);
  }
  shuttingDown = true;
  if (reason) log.info(reason);
  if (!stack) {
    aborter.abort(); // startStack stops what it started and rejects; main() exits
    return;
  }
  const t = performance.now();
  if (seedProc && !seedProc.exit) await seedProc.stop();
  const { busyPorts } = await stack.stop();
  if (!busyPorts.length) log.ok(`stopped in ${secs(performance.now() - t)}; all ports free`);
  process.exit(busyPorts.length ? 1 : code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => shutdown(0, `${sig}: stopping the stack`));

function readAccounts() {
  const file = path.join(dataDir, 'seed-accounts.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The seed (scripts/seed.ts, `npm run seed`) runs once per data directory; `.seeded` marks it done.
 * It gets QM_DATA_DIR and is expected to write the demo accounts it creates to
 * <dataDir>/seed-accounts.json as [{ "username", "password", "role" }], which is printed below.
 */
async function seedOnce() {
  const marker = path.join(dataDir, '.seeded');
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  if (existsSync(marker) || !pkg.scripts?.seed) return;
  log.info('first start on this data directory: running npm run seed');
  const proc = (seedProc = startProcess({
    name: 'seed',
    command: 'npm',
    args: ['run', 'seed'],
    cwd: ROOT,
    env: {
      ...process.env,
      ...commonEnv({ storeEngine }),
      QM_DATA_DIR: dataDir,
      GATEWAY_URL: 'http://127.0.0.1:8080',
    },
    logDir: path.join(dataDir, 'logs'),
  }));
  const exit = await proc.exited;
  if (exit.code === 0) {
    writeFileSync(marker, `${new Date().toISOString()}\n`);
    log.ok('seed done');
  } else if (!shuttingDown) {
    log.warn(`seed ${describeExit(exit)}; it will run again on the next start (log: ${proc.logFile})`);
  }
}

function printSummary(startMs) {
  const line = (label, value) => console.log(`  ${label.padEnd(18)} ${cyan(value)}`);
  console.log('');
  console.log(
    bold(`Quartermaster ${args['infra-only'] ? 'infrastructure' : 'stack'} is up (${secs(startMs)})`),
  );
  if (!args['infra-only']) line('app', URLS.app);
  for (let k = 2; k <= replicas && !args['infra-only']; k++)
    line(`app (gateway ${k})`, `http://localhost:${gatewayPorts(k).port}`);
  line('Keycloak', `${URLS.keycloak}  (admin / admin)`);
  line('maildev', URLS.maildev);
  line('NATS monitoring', URLS.natsMonitoring);
  line('MongoDB', URLS.mongo);
  if (!args['infra-only'] && storeEngine !== STORE_ENGINES[0]) line('store engine', storeEngine);
  if (args.traces) line('traces (Zipkin)', `${URLS.traces}  (search by tag qm.request_id=<X-Request-Id>)`);
  const accounts = readAccounts();
  if (accounts?.length) {
    console.log(bold('Demo accounts'));
    for (const a of accounts)
      line(a.role ?? '', `${a.username} / ${a.password}${a.description ? `  ${dim(a.description)}` : ''}`);
  } else if (existsSync(path.join(ROOT, 'scripts/seed.ts'))) {
    console.log(
      dim('  Demo accounts: created by `make seed` (scripts/seed.ts); they are listed here once it has run.'),
    );
  }
  console.log(
    dim(
      `  logs in ${path.relative(ROOT, path.join(dataDir, 'logs')) || '.'}/<name>.log — Ctrl-C stops everything`,
    ),
  );
  console.log('');
}

async function main() {
  const t0 = performance.now();
  provisionTools(ROOT, { traces: args.traces });
  if (needsNpmInstall(ROOT)) {
    log.info('node_modules is missing or older than package-lock.json: npm install');
    npmInstall(ROOT);
  }
  const prepMs = performance.now() - t0;
  stack = await startStack({
    root: ROOT,
    dataDir,
    infraOnly: args['infra-only'],
    appsOnly: args['apps-only'],
    replicas,
    frontends: !args['no-frontends'],
    prod: args.prod,
    traces: args.traces,
    storeEngine,
    signal: aborter.signal,
    logger: log,
    onExit: (proc) =>
      shutdown(1, `${proc.name} ${describeExit(proc.exit)}; stopping the stack (log: ${proc.logFile})`),
  });
  log.info(`provision and install checks ${secs(prepMs)}, processes ${secs(stack.startedInMs)}`);
  if (!args['infra-only']) await seedOnce();
  printSummary(performance.now() - t0);
}

main().catch((err) => {
  if (shuttingDown && aborter.signal.aborted) {
    log.ok('start aborted; everything started was stopped');
    process.exit(130);
  }
  log.error(err.message);
  process.exit(1);
});
