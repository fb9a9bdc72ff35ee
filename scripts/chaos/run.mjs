// The chaos run on a started stack (docs/adr/015), shared by `make chaos` (scripts/chaos.mjs, its
// own stack) and `make test` (scripts/ci-test.mjs, the browser journeys' stack once they are done):
//   1. the k6 workload of every role (load/chaos.js), which logs each call it makes;
//   2. meanwhile a SIGKILL of one random process every `killEvery` ms, which is then started again;
//   3. heal: every process of the stack healthy again;
//   4. load/chaos-check.ts: drain the outboxes and consumers, resolve every unknown call, check the
//      invariants, write the tables (markdown and JSON) to `results`.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeExit, gatewayPorts, replicaName, ROOT } from '../stack/index.mjs';

/** What is killed: every service, the gateway, NATS and the database (FerretDB and its PostgreSQL). */
export const TARGETS = [
  'wallet',
  'orders',
  'catalog',
  'identity',
  'support',
  'activity',
  'assistant',
  'gateway',
  'nats',
  'ferretdb',
  'postgres',
];

/** The processes that run as replicas with REPLICAS > 1 (docs/adr/025): every service and the gateway. */
export const APP_TARGETS = TARGETS.filter((n) => !['nats', 'ferretdb', 'postgres'].includes(n));

/** Each app target as its replicas' process names (`wallet`, `wallet-2`, …); infrastructure as is. */
export function replicaTargets(targets, replicas) {
  return targets.flatMap((n) =>
    APP_TARGETS.includes(n) ? Array.from({ length: replicas }, (_, i) => replicaName(n, i + 1)) : [n],
  );
}

/**
 * The targets a stack on `storeEngine` may lose: on the MongoDB path (the chart's, docs/adr/024) the
 * services know one MongoDB-protocol server, FerretDB, which is killed; the PostgreSQL under it is
 * the local emulation's inside, which no product process is told about, so it is left alone.
 */
export function targetsOfEngine(targets, storeEngine) {
  return storeEngine === 'mongodb' ? targets.filter((n) => n !== 'postgres') : targets;
}

/** CHAOS_TARGETS ("wallet,orders,nats"): a subset of TARGETS; unknown names are refused. */
export function targetsFrom(text, fallback = TARGETS) {
  if (!text) return fallback;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !TARGETS.includes(n));
  if (unknown.length || !names.length)
    throw new Error(`CHAOS_TARGETS: unknown process ${unknown.join(', ')} (known: ${TARGETS.join(', ')})`);
  return names;
}

/** "90s", "10m", "1h", "500ms" or a number of seconds, in ms. */
export function durationMs(text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(String(text).trim());
  if (!m) throw new Error(`not a duration: ${text}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'];
}

const sleep = (t) => new Promise((r) => setTimeout(r, t));

export function k6Binary() {
  return [path.join(ROOT, '.tools/bin/k6'), path.join(os.homedir(), '.cache/quartermaster/bin/k6')].find(
    existsSync,
  );
}

/**
 * Runs a command to its end in its own process group, output streaming through (stderr to
 * `stderrFile` when given); resolves its exit code.
 */
function runToEnd(cmd, args, { env = {}, children, stderrFile }) {
  return new Promise((resolve) => {
    const err = stderrFile ? openSync(stderrFile, 'a') : 'inherit';
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', err],
      env: { ...process.env, ...env },
      detached: true,
    });
    if (stderrFile) closeSync(err);
    children.add(child);
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code ?? 1);
    });
    child.on('error', () => resolve(1));
  });
}

/**
 * Runs the whole chaos run against `stack` (from scripts/stack startStack) and resolves the
 * checker's exit code: 0 every invariant held, 1 one broke, 2 the run could not be judged.
 * @param {object} o
 * @param {object} o.stack the running stack (restart() is used)
 * @param {string} o.vus virtual users
 * @param {string} o.duration k6 duration ("60s", "10m")
 * @param {number} o.killEvery ms between kills
 * @param {string} o.workDir where the op log and kill list go
 * @param {string} o.results where the tables go
 * @param {string} o.name the results' file name (without extension)
 * @param {object} o.log a scripts/stack logger
 * @param {Set} [o.children] the child processes under way (a caller's signal handler kills them)
 * @param {AbortSignal} [o.signal] stops the kills (a caller's time limit); the run then answers 2
 * @param {string[]} [o.targets] the processes it may kill (default TARGETS)
 * @param {number} [o.replicas] the stack's replicas: the workload goes round every gateway
 */
export async function runChaos({
  stack,
  vus,
  duration,
  killEvery,
  workDir,
  results,
  name,
  log,
  children = new Set(),
  signal,
  targets = TARGETS,
  replicas = 1,
}) {
  const k6 = k6Binary();
  if (!k6) throw new Error('k6 is missing: run scripts/provision.sh');
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const opsFile = path.join(workDir, 'ops.log');
  const killsFile = path.join(workDir, 'kills.json');
  // Kills before the workload's setup is done would fail the setup, not test the product.
  const setupDone = () =>
    existsSync(opsFile) && readFileSync(opsFile, 'utf8').includes('\\"chaos\\":\\"ready\\"');

  log.info(`k6: ${vus} virtual users for ${duration}; a SIGKILL every ${killEvery / 1000} s once set up`);
  let k6Done = false;
  const k6Exit = runToEnd(
    k6,
    ['run', '--quiet', '--log-format=json', `--console-output=${opsFile}`, 'load/chaos.js'],
    {
      env: {
        CHAOS_VUS: String(vus),
        CHAOS_DURATION: String(duration),
        GATEWAY_URLS: Array.from(
          { length: replicas },
          (_, i) => `http://127.0.0.1:${gatewayPorts(i + 1).port}`,
        ).join(','),
      },
      children,
      // k6's warnings (a "Request Failed" per refused connection) would drown the supervisor's lines.
      stderrFile: path.join(workDir, 'k6.log'),
    },
  ).then((code) => {
    k6Done = true;
    return code;
  });

  const kills = [];
  const restarting = new Map(); // name → promise of its restart
  const over = () => k6Done || signal?.aborted;
  while (!over() && !setupDone()) await sleep(500);
  const begun = Date.now();
  // Like Kubernetes' restartPolicy: a process that exits on its own (e.g. a service whose database
  // connection died under it) is started again, and counted as a crash of that process.
  const watcher = setInterval(() => {
    for (const proc of stack.processes) {
      if (!proc.exit || proc.stopping || restarting.has(proc.name)) continue;
      const crash = {
        process: proc.name,
        atS: Math.round((Date.now() - begun) / 1000),
        restartMs: null,
        healthy: false,
        crashed: true,
      };
      kills.push(crash);
      log.warn(`${proc.name} ${describeExit(proc.exit)} on its own: starting it again`);
      restarting.set(
        proc.name,
        restartUntilHealthy(stack, proc.name, crash, log).finally(() => restarting.delete(proc.name)),
      );
    }
  }, 1000);
  while (!over()) {
    await Promise.race([sleep(killEvery), k6Exit]);
    if (over()) break;
    const up = targets.filter((n) => !restarting.has(n) && stack.processes.some((p) => p.name === n));
    if (!up.length) continue;
    const target = up[Math.floor(Math.random() * up.length)];
    const kill = {
      process: target,
      atS: Math.round((Date.now() - begun) / 1000),
      restartMs: null,
      healthy: false,
    };
    kills.push(kill);
    log.warn(`SIGKILL ${target} (kill ${kills.length})`);
    restarting.set(
      target,
      restartUntilHealthy(stack, target, kill, log).finally(() => restarting.delete(target)),
    );
  }
  if (signal?.aborted) {
    clearInterval(watcher);
    return 2;
  }
  const k6Code = await k6Exit;
  log.info(`k6 ended (exit code ${k6Code}); healing`);
  while (restarting.size) await Promise.all(restarting.values());
  clearInterval(watcher);
  await heal(stack, kills, log);
  writeFileSync(killsFile, JSON.stringify(kills, null, 2));
  if (!setupDone()) {
    log.error(`k6 ended before its setup was done (exit code ${k6Code}); nothing to check`);
    return 2;
  }

  return runToEnd(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    [
      'load/chaos-check.ts',
      '--ops',
      opsFile,
      '--kills',
      killsFile,
      '--results',
      results,
      '--name',
      name,
      '--workload',
      `${vus} virtual users × ${duration}, one SIGKILL every ${killEvery / 1000} s`,
    ],
    { children },
  );
}

/** Restarts a killed process; one that does not come back healthy is killed and started again. */
async function restartUntilHealthy(stack, name, kill, log) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      kill.restartMs = await stack.restart(name);
      kill.healthy = true;
      log.ok(`${name} healthy again in ${(kill.restartMs / 1000).toFixed(1)} s`);
      return;
    } catch (err) {
      log.error(`${name} did not come back (attempt ${attempt}): ${err.message.split('\n')[0]}`);
    }
  }
}

/** Every process healthy before the checks: one that is not (it did not survive a kill) is restarted. */
async function heal(stack, kills, log) {
  for (const proc of stack.processes) {
    let healthy = false;
    for (let i = 0; i < 60 && !healthy; i++) {
      healthy = !proc.exit && (await proc.spec.check()) === true;
      if (!healthy) await sleep(500);
    }
    if (healthy) continue;
    log.warn(`${proc.name} is not healthy after the run: restarting it`);
    const kill = { process: proc.name, atS: null, restartMs: null, healthy: false, heal: true };
    kills.push(kill);
    await restartUntilHealthy(stack, proc.name, kill, log);
  }
}
