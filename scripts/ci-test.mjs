#!/usr/bin/env node
// `make test`: everything CI checks, on a fresh machine or a warm one.
//   1. provision tools (cached under ~/.cache/quartermaster), npm dependencies and the chart's images
//      (make cluster-images: minutes cold, under a second warm; each step's time is printed)
//   2. static checks: generated code, types, lint, formatting
//   3. unit tests
//   4. integration tests (jest) against real NATS, FerretDB, Keycloak and maildev on a fresh data dir,
//      then a second pass on the chart's path: the MongoDB store engine, no PostgreSQL URL (docs/adr/024)
//   5. the frontends built and the whole stack in production mode on another fresh data dir, and
//      the browser journeys (headless Chromium), the landing page's JavaScript size and the API
//      fuzzer (schemathesis) against it
//   6. a 60-second chaos run (scripts/chaos/run.mjs: processes killed, invariants checked) on a stack
//      of its own with two replicas of every service and of the gateway (docs/adr/025), then a
//      30-second one on the same infrastructure on the chart's path: one replica each on the MongoDB
//      engine, no PostgreSQL URL (docs/adr/024)
//   7. Helm chart rendering validated against the Kubernetes schemas
//   8. a single-node Kubernetes on this machine (make cluster, docs/adr/030): pods behind a Service
//      through cluster DNS, and every object of the chart admitted by its API server; then, on the same
//      cluster, make cluster-test: the chart installed with the images of step 1, ready, helm test, a
//      purchase through the gateway, an upgrade under a request loop with no failed request, uninstall
// Every step counts what it checked (each jest test, each journey check) and has a time limit; a step
// that checks nothing, overruns or crashes fails. Ends with one line `total: N passed, N failed` (one word before the colon: the form CI reads as the closing count),
// whatever happened before it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { durationMs, replicaTargets, runChaos, targetsFrom, targetsOfEngine } from './chaos/run.mjs';
import { MONGODB_PATH_ENV, mongodbPathJestArgs } from './mongodb-path.mjs';
import { createLogger } from './stack/log.mjs';
import {
  needsNpmInstall,
  npmInstall,
  POSTGRES_URL,
  ROOT,
  startStack,
  storeEngineVariables,
} from './stack/index.mjs';

const MINUTE = 60_000;
/** Time limits; a step over its limit is killed (its whole process group) and fails. */
const LIMITS = {
  provision: 20 * MINUTE,
  static: 20 * MINUTE, // typecheck alone took 14 min on a loaded 2-core machine
  unit: 10 * MINUTE,
  integration: 30 * MINUTE,
  integrationMongodbPath: 20 * MINUTE,
  build: 15 * MINUTE,
  journey: 10 * MINUTE,
  landingJs: 2 * MINUTE,
  fuzz: 30 * MINUTE,
  chaos: 6 * MINUTE,
  chaosMongodbPath: 4 * MINUTE,
  chart: 5 * MINUTE,
  cluster: 5 * MINUTE,
  // Install to uninstall took 2.5 minutes on two idle cores; a loaded machine is slower.
  clusterTest: 20 * MINUTE,
};
const RESULTS_DIR = path.join(ROOT, '.data/test-results');
/** The landing page's gzipped JavaScript may not grow past its budget (KiB, docs/architecture.md §8). */
const LANDING_JS_CI_KIB = 150;
/** Nor a buyer's /market's or /wallet's, whose phone paint waits on their bytes (docs/architecture.md §8). */
const SIGNED_IN_JS_CI_KIB = 300;

const only = process.argv
  .slice(2)
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  ?.split(',');
const want = (step) => !only || only.includes(step);
const results = []; // { step, passed, failed }
const provisionTimes = []; // "what N s", shown again in the summary (a cold run is minutes longer)
let imagesFailed = null; // why provision.sh images failed: the cluster stage then fails with it
const t0 = Date.now();

function section(name) {
  console.log(`\n\x1b[1m=== ${name} (${Math.round((Date.now() - t0) / 1000)} s) ===\x1b[0m`);
}

function record(step, passed, failed, why = '') {
  results.push({ step, passed, failed, why });
  console.log(`${step}: ${passed} passed, ${failed} failed${why ? ` (${why})` : ''}`);
}

// ---- processes -------------------------------------------------------------------------------------

const running = new Set(); // process groups of the steps under way

/** Kills a step's process group: the command and everything it started. */
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const pid of running) killGroup(pid);
    process.exit(130);
  });

/**
 * Runs a command in its own process group, output streaming through. Resolves to
 * `{ code, timedOut }`; past `timeoutMs` the group is killed. Whatever the command left running is
 * killed when it exits.
 */
function run(cmd, args, { env = {}, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    running.add(child.pid);
    const done = (code) => {
      clearTimeout(timer);
      running.delete(child.pid);
      killGroup(child.pid);
      resolve({ code, timedOut });
    };
    child.on('error', (error) => {
      console.error(`${cmd}: ${error.message}`);
      done(1);
    });
    child.on('exit', (code) => done(code ?? 1));
  });
}

const overran = (timeoutMs) => `killed after its time limit of ${Math.round(timeoutMs / 1000)} s`;

// ---- steps -----------------------------------------------------------------------------------------

/** A command that passes or fails as one check. */
async function check(step, cmd, args, timeoutMs, env = {}) {
  const { code, timedOut } = await run(cmd, args, { timeoutMs, env });
  if (timedOut) return record(step, 0, 1, overran(timeoutMs));
  record(step, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
}

/** Reads counts a step wrote as JSON; null when there are none. */
function readCounts(file) {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function resultFile(step) {
  const file = path.join(RESULTS_DIR, `${step.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.json`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  rmSync(file, { force: true });
  return file;
}

/** Jest (with --ci): every test counts; no tests, or a non-zero exit with no failed test, fails. */
async function jest(step, args, timeoutMs, env = {}) {
  const out = resultFile(step);
  const { code, timedOut } = await run(
    'node_modules/.bin/jest',
    ['--ci', ...args, '--json', `--outputFile=${out}`],
    { env, timeoutMs },
  );
  const r = readCounts(out);
  if (timedOut) return record(step, r?.numPassedTests ?? 0, (r?.numFailedTests ?? 0) + 1, overran(timeoutMs));
  if (!r) return record(step, 0, 1, 'jest wrote no results');
  if (r.numTotalTests === 0) return record(step, 0, 1, 'ran no tests');
  if (code !== 0 && r.numFailedTests === 0)
    return record(step, r.numPassedTests, 1, `jest exited with ${code}`);
  record(step, r.numPassedTests, r.numFailedTests);
}

/**
 * A journey (or the fuzzer): every check counts, as reported in E2E_RESULT_FILE (e2e/lib/report.mjs).
 * No report, no checks, or a non-zero exit with no failed check, fails.
 */
async function journey(step, script, timeoutMs, env = {}) {
  const out = resultFile(step);
  const { code, timedOut } = await run('node', [script], {
    env: { ...env, E2E_RESULT_FILE: out },
    timeoutMs,
  });
  const r = readCounts(out);
  if (timedOut) return record(step, 0, 1, overran(timeoutMs));
  if (!r) return record(step, 0, 1, `reported no results (exit code ${code})`);
  if (r.passed + r.failed === 0) return record(step, 0, 1, 'ran no checks');
  if (code !== 0 && r.failed === 0) return record(step, r.passed, 1, `exited with ${code}`);
  record(step, r.passed, r.failed);
}

/**
 * Starts a stack on a fresh data directory, runs `body` against it and stops it. Integration tests
 * and browser journeys get separate stacks: the tests' in-process services publish on the same
 * subjects as a running stack's services (e.g. notice.catalog.product.deleted for their own product ids),
 * which a running stack would take for real events. With `appsOnly`, the services and gateway on
 * infrastructure already running (the data directory then holds only their logs).
 */
async function withStack(step, options, body) {
  section(`start the stack for ${step}`);
  rmSync(path.join(ROOT, options.dataDir), { recursive: true, force: true });
  let stack;
  try {
    // The previous phase's stack has just stopped; its ports may take a little longer to come back.
    stack = await startStack({ ...options, quiet: true, portWaitMs: 20_000 });
    console.log(`stack up in ${Math.round(stack.startedInMs / 1000)} s`);
  } catch (err) {
    console.error(err.message ?? err);
    return record(`stack for ${step}`, 0, 1, String(err.message ?? err));
  }
  try {
    await body(stack);
  } finally {
    section(`stop the stack for ${step}`);
    await stack.stop();
  }
}

// ---- phases ----------------------------------------------------------------------------------------

/**
 * Tools, Chromium, k6 (the chaos run), schemathesis and node_modules; the run cannot go on without them.
 * Then the chart's images (they need node_modules), which only the cluster stage uses: if they fail,
 * that stage fails and the rest still runs.
 */
async function provision() {
  section('provision');
  const timed = async (what) => {
    const started = Date.now();
    const { code, timedOut } = await run('bash', ['scripts/provision.sh', what], {
      timeoutMs: LIMITS.provision,
    });
    provisionTimes.push(`${what} ${Math.round((Date.now() - started) / 100) / 10} s`);
    if (timedOut) throw new Error(`provision.sh ${what} ${overran(LIMITS.provision)}`);
    if (code !== 0) throw new Error(`provision.sh ${what} failed with code ${code}`);
  };
  for (const what of ['all', 'chromium', 'k6', 'schemathesis']) await timed(what);
  if (needsNpmInstall(ROOT)) {
    const started = Date.now();
    npmInstall(ROOT);
    provisionTimes.push(`npm install ${Math.round((Date.now() - started) / 1000)} s`);
  }
  if (want('cluster'))
    await timed('images').catch((error) => {
      imagesFailed = error.message;
      console.error(error.message);
    });
  console.log(`provisioned: ${provisionTimes.join(', ')}`);
}

async function staticChecks() {
  section('static checks');
  await check('proto', 'node', ['scripts/proto.mjs', '--check'], LIMITS.static);
  await check('typecheck', 'node', ['scripts/typecheck.mjs'], LIMITS.static);
  await check('lint', 'node_modules/.bin/eslint', ['.', '--max-warnings=0'], LIMITS.static);
  await check('format', 'node_modules/.bin/prettier', ['--check', '.', '--log-level=warn'], LIMITS.static);
}

async function integration() {
  await withStack('integration tests', { dataDir: '.data/test-integration', infraOnly: true }, async () => {
    section('integration tests (real NATS, FerretDB, Keycloak, maildev)');
    await jest('integration', ['--selectProjects', 'integration', '--runInBand'], LIMITS.integration, {
      FERRETDB_POSTGRESQL_URL: POSTGRES_URL,
    });
    // The same infrastructure: the services' databases are new per test either way.
    section("integration tests, MongoDB engine (the chart's path: no PostgreSQL URL, docs/adr/024)");
    const started = Date.now();
    await jest(
      'integration-mongodb-path',
      mongodbPathJestArgs(),
      LIMITS.integrationMongodbPath,
      MONGODB_PATH_ENV,
    );
    console.log(`integration-mongodb-path took ${Math.round((Date.now() - started) / 1000)} s`);
  });
}

async function e2e() {
  // Every journey and the fuzzer register and sign in from one address (127.0.0.1), which no real
  // client shares: scale the per-address limits (20 registrations per 15 min) so that a dozen journeys
  // fit, as the load tests do. No journey tests those limits; gateway tests do.
  process.env.AUTH_RATE_LIMIT_SCALE ??= '10';
  // An abandoned checkout expires after a minute, so the wallet journey sees it become Expired
  // (docs/adr/007) instead of waiting the default 30 minutes.
  process.env.TOPUP_EXPIRY_MINUTES ??= '1';
  // A sale's proceeds are held until the purchase's deadline (2 minutes) instead of 48 hours, so the
  // orders journey sees the wallet release them (docs/adr/028).
  process.env.REFUND_WINDOW_HOURS ??= '0';
  section('build frontends');
  await check('build-frontends', 'npm', ['run', 'build:frontends', '--silent'], LIMITS.build);
  await withStack(
    'browser journeys',
    { dataDir: '.data/test-e2e', prod: true, frontends: false },
    async (stack) => {
      section('browser journeys (headless Chromium)');
      const journeys = readdirSync(path.join(ROOT, 'e2e'))
        .filter((f) => f.endsWith('.e2e.mjs'))
        .sort();
      for (const j of journeys) await journey(`e2e ${j}`, path.join('e2e', j), LIMITS.journey);
      section('landing-page, /market and /wallet JavaScript (production build, gzip)');
      await check(
        'landing-js',
        'node',
        ['load/landing-js.mjs', `--budget=${LANDING_JS_CI_KIB}`],
        LIMITS.landingJs,
      );
      // The journeys' registrations used up much of the per-address sign-up limit. The counters are
      // shared and survive a restart, so they are cleared deliberately, as an operator would.
      await clearLimits();
      // Signed in, so after the clearing: the journeys' sign-ins count against the same address. The
      // stack here is not seeded (journeys make their own accounts): `make seed` makes army_demo, a
      // buyer with the demo products on /market, and so runs in CI too.
      await check('seed', 'npm', ['run', 'seed', '--silent'], LIMITS.landingJs, {
        QM_DATA_DIR: stack.dataDir,
      });
      for (const page of ['market', 'wallet'])
        await check(
          `${page}-js`,
          'node',
          [
            'load/landing-js.mjs',
            `--path=/${page}`,
            '--as=army_demo:Army@12345',
            `--budget=${SIGNED_IN_JS_CI_KIB}`,
          ],
          LIMITS.landingJs,
        );
      section('API fuzzing (schemathesis, every role)');
      await journey('api fuzz', 'e2e/api-fuzz.mjs', LIMITS.fuzz);
    },
  );
}

/**
 * The chaos runs, on one infrastructure (NATS, PostgreSQL + FerretDB, Keycloak, maildev) of their own,
 * with the services and the gateway as a stack of their own on it, so that the second run starts only
 * them again:
 *   1. two processes of every service and of the gateway on the local engine (ADR 025), the workload
 *      going round both gateways, 60 s; every kill takes one replica, or one of the single
 *      infrastructure processes (NATS, FerretDB, PostgreSQL);
 *   2. the chart's path (ADR 024): one process each on the MongoDB engine with no
 *      PostgreSQL URL, 30 s; every kill takes a service, the gateway, NATS or FerretDB.
 */
async function chaosRuns() {
  // Its virtual users all register from 127.0.0.1, as the journeys do.
  process.env.AUTH_RATE_LIMIT_SCALE ??= '10';
  const dataDir = '.data/test-chaos-stack';
  await withStack('chaos runs (infrastructure)', { dataDir, infraOnly: true }, async (infra) => {
    await chaosOnApps(infra, {
      step: 'chaos, 2 replicas',
      dataDir: `${dataDir}/apps-local`,
      replicas: 2,
      storeEngine: 'ferretdb-postgresql',
      duration: process.env.CHAOS_CI_DURATION || '60s',
      killEvery: process.env.CHAOS_KILL_EVERY || '10s',
      timeoutMs: LIMITS.chaos,
    });
    // The MongoDB engine keeps its counters in each database's `counters` collection, the local one
    // in a PostgreSQL table beside it (ADR 020): on the first run's databases it would issue again
    // the ids and numbers the first run used. So it gets fresh databases and event streams, as a
    // new installation would; the infrastructure itself (and Keycloak's realm, whose users the
    // workload names per run) is kept, which spares a second cold start.
    const step = 'chaos, MongoDB path (1 replica)';
    section('fresh databases and event streams for the MongoDB path');
    try {
      await freshProductData();
    } catch (err) {
      return record(step, 0, 1, `fresh databases and streams: ${err.message ?? err}`);
    }
    await chaosOnApps(infra, {
      step,
      dataDir: `${dataDir}/apps-mongodb`,
      replicas: 1,
      storeEngine: 'mongodb',
      duration: process.env.CHAOS_CI_MONGODB_DURATION || '30s',
      // About five kills in its 30 s (the first run has six in 60 s).
      killEvery: '6s',
      timeoutMs: LIMITS.chaosMongodbPath,
    });
  });
}

/**
 * One chaos run on `infra`: the services and the gateway started on it (`replicas` of each, on
 * `storeEngine`), the workload, the kills, the invariants, and the services and gateway stopped.
 */
async function chaosOnApps(infra, { step, dataDir, replicas, storeEngine, duration, killEvery, timeoutMs }) {
  const started = Date.now();
  await withStack(
    step,
    { dataDir, appsOnly: true, prod: true, frontends: false, replicas, storeEngine },
    async (apps) => {
      const wrong = engineMismatches(apps, storeEngine);
      if (wrong.length) return record(step, 0, 1, `not on the ${storeEngine} engine: ${wrong.join('; ')}`);
      console.log(`every service and gateway runs on ${storeEngine} (as their /proc/<pid>/environ shows)`);
      section(`${step}: ${duration} of every role, a SIGKILL every ${killEvery}, then the invariants`);
      // Every target CHAOS_TARGETS names (default all), less what this engine's products do not know.
      const targets = replicaTargets(
        targetsOfEngine(targetsFrom(process.env.CHAOS_TARGETS), storeEngine),
        replicas,
      );
      await chaos(step, joined(infra, apps), { timeoutMs, replicas, duration, killEvery, targets });
    },
  );
  console.log(`${step} took ${Math.round((Date.now() - started) / 1000)} s`);
}

/**
 * The store engine's variables as the running services and gateway have them (/proc/<pid>/environ;
 * skipped where there is none): on the MongoDB path QM_STORE_ENGINE=mongodb and no PostgreSQL URL at
 * all. Answers what differs, `<process>: <variable>=<value>`.
 */
function engineMismatches(apps, storeEngine) {
  const wanted = storeEngineVariables(storeEngine);
  const wrong = [];
  for (const proc of apps.processes) {
    let env;
    try {
      env = new Map(
        readFileSync(`/proc/${proc.pid}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
    } catch {
      continue;
    }
    for (const [name, value] of Object.entries(wanted))
      if (env.get(name) !== value) wrong.push(`${proc.name}: ${name}=${env.get(name) ?? '(unset)'}`);
  }
  return wrong;
}

/** The infrastructure's and the products' stacks as one to the chaos run: a kill goes to its owner. */
function joined(infra, apps) {
  return {
    get processes() {
      return [...infra.processes, ...apps.processes];
    },
    restart: (name, opts) =>
      (infra.processes.some((p) => p.name === name) ? infra : apps).restart(name, opts),
  };
}

/** Drops every product database (qm_*) and every event stream: the services start on empty ones. */
async function freshProductData() {
  // Imported here: the drivers are in node_modules, which the provision phase may have had to install.
  const { MongoClient } = await import('mongodb');
  const { connect } = await import('nats');
  const client = new MongoClient('mongodb://127.0.0.1:27017', { serverSelectionTimeoutMS: 10_000 });
  const dropped = [];
  try {
    await client.connect();
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases.filter((d) => d.name.startsWith('qm_'))) {
      await client.db(name).dropDatabase();
      dropped.push(name);
    }
  } finally {
    await client.close();
  }
  const nc = await connect({ servers: 'nats://127.0.0.1:4222', name: 'ci-test' });
  let streams = 0;
  try {
    const jsm = await nc.jetstreamManager();
    const names = [];
    for await (const info of jsm.streams.list()) names.push(info.config.name);
    for (const name of names) {
      await jsm.streams.delete(name);
      streams++;
    }
  } finally {
    await nc.close();
  }
  console.log(`dropped ${dropped.length} databases (${dropped.join(', ')}) and ${streams} event streams`);
}

/**
 * Clears the gateway's rate-limit counters (scripts/clear-rate-limits.mjs): they are shared by its
 * replicas and survive a restart, so this is the one way to give the next phase a fresh budget.
 */
async function clearLimits() {
  // Imported here: the driver is in node_modules, which the provision phase may have had to install.
  const { clearRateLimits } = await import('./clear-rate-limits.mjs');
  const n = await clearRateLimits({ url: 'mongodb://127.0.0.1:27017', db: 'qm_gateway' });
  console.log(`gateway rate limits cleared (${n} counters)`);
}

/**
 * `make chaos` in short (docs/adr/015): every invariant of load/chaos-check.ts counts as a check of
 * `step`, as written to <RESULTS_DIR>/<step>.json. No result, or a run past its limit, fails.
 */
async function chaos(step, stack, { timeoutMs, replicas, duration, killEvery, targets }) {
  const out = resultFile(step);
  const children = new Set();
  const aborter = new AbortController();
  let timer;
  const overrun = new Promise((resolve) => {
    timer = setTimeout(() => {
      aborter.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  const code = await Promise.race([
    // The journeys used up much of the per-address sign-up limit (kept in the gateway's database,
    // across restarts): clearing it lets the workload register its users.
    clearLimits()
      .then(() =>
        runChaos({
          stack,
          vus: process.env.CHAOS_CI_VUS || '10',
          duration,
          killEvery: durationMs(killEvery),
          // Every process, the database included (ADR 015: the MongoDB client's stuck monitor is fixed).
          targets,
          replicas,
          workDir: path.join(ROOT, '.data/test-chaos', path.basename(out, '.json')),
          results: RESULTS_DIR,
          name: path.basename(out, '.json'),
          log: createLogger(),
          children,
          signal: aborter.signal,
        }),
      )
      .catch((err) => {
        console.error(err.stack ?? err.message);
        return 2;
      }),
    overrun,
  ]);
  clearTimeout(timer);
  for (const child of children) killGroup(child.pid);
  if (code === 'timeout') return record(step, 0, 1, overran(timeoutMs));
  const r = readCounts(out);
  if (!r?.invariants?.length) return record(step, 0, 1, `reported no invariants (exit code ${code})`);
  const failed = r.invariants.filter((i) => !i.ok).length;
  record(step, r.invariants.length - failed, failed || (code === 0 ? 0 : 1));
}

async function main() {
  await provision();
  if (want('static')) await staticChecks();
  if (want('unit')) {
    section('unit tests');
    await jest('unit', ['--selectProjects', 'unit'], LIMITS.unit);
  }
  if (want('integration')) await integration();
  if (want('e2e')) await e2e();
  if (want('chaos')) await chaosRuns();
  if (want('chart')) {
    section('Helm chart');
    await check('chart-test', 'node', ['scripts/chart-test.mjs'], LIMITS.chart);
  }
  if (want('cluster')) await clusterSmoke();
}

/**
 * make cluster, then make cluster-smoke (docs/adr/030) on a data directory of their own: a real
 * Kubernetes runs pods behind a Service found through cluster DNS, and its API server admits every
 * object of the chart. Then make cluster-test on it (docs/kubernetes.md), each phase a check. The
 * cluster stops (and frees everything) whatever happened.
 */
async function clusterSmoke() {
  section('local Kubernetes (docs/adr/030)');
  const env = { CLUSTER_DATA: path.join(ROOT, '.data/test-cluster') };
  rmSync(env.CLUSTER_DATA, { recursive: true, force: true });
  const built = await run('bash', ['scripts/provision.sh', 'kubernetes'], { timeoutMs: LIMITS.provision });
  if (built.code !== 0) return record('cluster', 0, 1, `provision.sh kubernetes failed (${built.code})`);
  const cluster = spawn('bash', ['scripts/cluster/cluster.sh', 'up'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
    detached: true,
  });
  running.add(cluster.pid);
  try {
    const up = await run('bash', ['scripts/cluster/cluster.sh', 'wait'], { env, timeoutMs: LIMITS.cluster });
    if (up.code !== 0)
      return record('cluster', 0, 1, 'the cluster did not come up (logs: .data/test-cluster/logs)');
    await check('cluster-smoke', 'bash', ['scripts/cluster/cluster.sh', 'smoke'], LIMITS.cluster, env);
    section('the chart on the local Kubernetes (make cluster-test)');
    if (imagesFailed) record('cluster-test', 0, 1, `the chart's images were not built: ${imagesFailed}`);
    else await journey('cluster-test', 'scripts/cluster/cluster-test.mjs', LIMITS.clusterTest, env);
  } finally {
    await run('bash', ['scripts/cluster/cluster.sh', 'down'], { env, timeoutMs: 30_000 });
    running.delete(cluster.pid);
    killGroup(cluster.pid);
  }
}

/**
 * The summary is what survives a truncated log, so a failure carries its reason: the first two
 * lines (what failed) and the last six non-blank ones (for a stack, the end of the process's log).
 */
function gist(why) {
  const lines = why.split('\n').filter((l) => l.trim() && !l.startsWith('====='));
  const shown = lines.length > 8 ? [...lines.slice(0, 2), '…', ...lines.slice(-6)] : lines;
  return shown.join(' | ').slice(0, 1500);
}

function summary() {
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log('\nSummary:');
  for (const r of results)
    console.log(
      `  ${r.failed ? '\x1b[31mFAIL\x1b[0m' : 'ok  '} ${r.step} (${r.passed} passed, ${r.failed} failed)` +
        (r.failed && r.why ? `: ${gist(r.why)}` : ''),
    );
  if (provisionTimes.length) console.log(`provisioned: ${provisionTimes.join(', ')}`);
  console.log(`took ${Math.round((Date.now() - t0) / 1000)} s`);
  console.log(`total: ${passed} passed, ${failed} failed`);
  return failed;
}

let failed = 1;
try {
  await main();
} catch (error) {
  // An unexpected error (e.g. provisioning) ends the run as a failure, still with its summary.
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  record('the test run itself', 0, 1, `stopped by an error: ${error?.message ?? error}`);
} finally {
  failed = summary();
}
process.exit(failed ? 1 : 0);
