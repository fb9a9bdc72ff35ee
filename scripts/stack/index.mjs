// Programmatic control of the local stack, shared by scripts/dev.mjs and the test runners:
//
//   import { startStack } from '../scripts/stack/index.mjs';
//   const stack = await startStack({ infraOnly: true, dataDir: '.data/test', quiet: true });
//   ...
//   await stack.stop();
//
// Every process runs in its own process group and is stopped as a group (SIGTERM, then SIGKILL),
// so nothing is left behind; ports are checked before the start and after the stop.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackError, waitHealthy } from './health.mjs';
import { createLogger, reservePrefixWidth } from './log.mjs';
import { assertPortsFree, reserveFromEphemeralRange, waitPortsFree, whoUses } from './ports.mjs';
import { gatewayPorts, GRPC_PORT, planStack, replicaPort } from './plan.mjs';
import { describeExit, groupMembers, startProcess, stopGroup } from './process.mjs';
import { provisionTools } from './setup.mjs';

export { grpcHealth, httpCheck, mongoPing, tcpCheck, waitHealthy, StackError } from './health.mjs';
export { assertPortsFree, isPortFree, waitPortsFree, whoUses } from './ports.mjs';
export { describeExit, groupMembers, startProcess, stopGroup } from './process.mjs';
export {
  commonEnv,
  FRONTENDS,
  gatewayPorts,
  GRPC_PORT,
  replicaName,
  SERVICES,
  STORE_ENGINES,
  storeEngineVariables,
  URLS,
  ZIPKIN_SPANS_URL,
} from './plan.mjs';
export { POSTGRES_PORT, POSTGRES_URL } from './postgres.mjs';
export { needsNpmInstall, npmInstall, provisionTools } from './setup.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * A stack whose orchestrator was killed hard (SIGKILL, crash of the terminal) leaves its process
 * groups behind. Their ids are in <dataDir>/run/stack.json: kill the ones that still run one of our
 * commands, or refuse when the orchestrator itself is still alive.
 */
async function reapStale(runFile, root, log) {
  if (!existsSync(runFile)) return;
  let state;
  try {
    state = JSON.parse(readFileSync(runFile, 'utf8'));
  } catch {
    return;
  }
  if (state.pid !== process.pid && pidAlive(state.pid) && /node/.test(cmdline(state.pid))) {
    throw new StackError(
      `a stack using this data directory is already running (orchestrator pid ${state.pid}); stop it first`,
    );
  }
  await Promise.all(
    (state.groups ?? []).map(async ({ name, pgid }) => {
      const ours = groupMembers(pgid).some((pid) => {
        const cmd = cmdline(pid);
        return cmd.includes(root) || cmd.includes('quartermaster');
      });
      if (!ours) return;
      log.warn(`stopping ${name} (process group ${pgid}), left over from a previous run`);
      await stopGroup(pgid, { timeoutMs: 10000 });
    }),
  );
  rmSync(runFile, { force: true });
}

/**
 * Crash and recovery of one process (the chaos run, scripts/chaos/): SIGKILL its whole group, with
 * no chance to clean up, then start it again from the same spec and wait until it is healthy. The
 * new process takes the old one's place in `processes` and is stopped with the rest. Resolves the
 * ms it took to be healthy.
 */
async function restartProcess(started, launch, name, { timeoutMs } = {}) {
  const at = started.findIndex(({ proc }) => proc.name === name);
  if (at < 0) throw new StackError(`no process named ${name} in this stack`);
  const { proc: old, tier } = started[at];
  old.stopping = true; // its exit is expected: no onExit
  await old.stop({ signal: 'SIGKILL', timeoutMs: 5000 });
  await old.exited;
  const begun = Date.now();
  const proc = launch(old.spec, tier, at);
  await waitHealthy(proc, old.spec.check, { timeoutMs: timeoutMs ?? old.spec.timeoutMs });
  proc.readyMs = Date.now() - begun;
  return proc.readyMs;
}

/**
 * Starts the stack and resolves once every process is healthy.
 * @param {object} options
 * @param {string} [options.root] repository root (default: this checkout)
 * @param {string} [options.dataDir] data directory, relative to root (default `.data`)
 * @param {boolean} [options.infraOnly] only NATS, FerretDB, Keycloak, maildev
 * @param {boolean} [options.appsOnly] no infrastructure: the services and gateway use one already running
 * @param {number} [options.replicas] processes of each service and of the gateway (default 1; docs/adr/025)
 * @param {boolean} [options.frontends] start the frontend dev servers (default true)
 * @param {boolean} [options.prod] no watch mode; the gateway serves frontends/<name>/dist
 * @param {boolean} [options.traces] also the Zipkin trace viewer, every process exporting to it
 * @param {string} [options.storeEngine] the services' and gateway's store engine: `ferretdb-postgresql`
 *   (default) or `mongodb`, the chart's path, with no PostgreSQL URL (docs/adr/024)
 * @param {boolean} [options.provision] run scripts/provision.sh all first (default false)
 * @param {number} [options.portWaitMs] how long a busy port may take to be released (default 3 s)
 * @param {boolean} [options.quiet] no console output except warnings/errors (logs still go to files)
 * @param {boolean} [options.echo] stream process output to the console (default: !quiet)
 * @param {AbortSignal} [options.signal] aborts a start in progress (everything started is stopped)
 * @param {(proc) => void} [options.onExit] called when a process exits on its own after the start
 * @returns {Promise<{ stop(): Promise<{busyPorts:number[]}>, kill(): void, restart(name: string): Promise<number>, processes: object[], dataDir: string, startedInMs: number }>}
 */
export async function startStack(options = {}) {
  const root = options.root ?? ROOT;
  const dataDir = path.resolve(root, options.dataDir ?? '.data');
  const log = options.logger ?? createLogger({ quiet: options.quiet });
  const echo = options.echo ?? !options.quiet;
  const t0 = Date.now();
  if (options.provision) provisionTools(root, { traces: options.traces });

  const tiers = planStack({
    root,
    dataDir,
    infraOnly: options.infraOnly,
    appsOnly: options.appsOnly,
    replicas: options.replicas ?? 1,
    frontends: options.frontends ?? true,
    prod: options.prod,
    traces: options.traces,
    storeEngine: options.storeEngine,
    log,
  });
  const specs = tiers.flat();
  reservePrefixWidth(specs.map((s) => s.name));
  const logDir = path.join(dataDir, 'logs');
  const runFile = path.join(dataDir, 'run', 'stack.json');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(path.dirname(runFile), { recursive: true });
  await reapStale(runFile, root, log);
  const ports = specs.flatMap((s) => s.ports.map((port) => ({ port, owner: s.name })));
  // Every port a later stack of this machine may need too (each service's and gateway's, two replicas
  // each): an integration run's test processes take ephemeral ports and must not hold one of them
  // when the journeys' stack starts.
  const laterPorts = [1, 2].flatMap((k) => [
    ...Object.values(GRPC_PORT).map((port) => replicaPort(port, k)),
    gatewayPorts(k).port,
    gatewayPorts(k).metricsPort,
  ]);
  reserveFromEphemeralRange([...ports.map((p) => p.port), ...laterPorts]);
  await assertPortsFree(ports, options.portWaitMs);

  const started = []; // { proc, tier }
  const writeRunFile = () =>
    writeFileSync(
      runFile,
      JSON.stringify(
        { pid: process.pid, root, groups: started.map(({ proc }) => ({ name: proc.name, pgid: proc.pgid })) },
        null,
        2,
      ),
    );
  // Last resort if the orchestrator exits without stopping (uncaught error): no orphans.
  const killAll = () => {
    for (const { proc } of started) {
      try {
        process.kill(-proc.pgid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  };
  process.on('exit', killAll);

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      const tierCount = tiers.length;
      for (let t = tierCount - 1; t >= 0; t--) {
        const procs = started.filter((s) => s.tier === t).map((s) => s.proc);
        await Promise.all(
          procs.map(async (proc) => {
            const how = await proc.stop({ timeoutMs: proc.spec.stopTimeoutMs ?? 10000 });
            if (how === 'killed') log.warn(`${proc.name} did not stop in time and was killed`);
            else if (how === 'stuck') log.error(`${proc.name} (process group ${proc.pgid}) survived SIGKILL`);
            else log.info(`${proc.name} stopped`);
          }),
        );
      }
      const ports = started.flatMap(({ proc }) => proc.spec.ports);
      const busyPorts = await waitPortsFree(ports, 5000);
      for (const port of busyPorts) log.error(`port ${port} is still in use by ${whoUses(port)}`);
      process.off('exit', killAll);
      rmSync(runFile, { force: true });
      return { busyPorts };
    })();
    return stopping;
  };

  /** Starts one process of the plan (again, for a restart: it takes the old one's place). */
  const launch = (spec, tier, at = started.length) => {
    spec.prepare?.();
    const proc = startProcess({ ...spec, cwd: root, logDir, echo });
    proc.spec = spec;
    started[at] = { proc, tier };
    writeRunFile();
    proc.exited.then((exit) => {
      if (stopping || proc.stopping || !proc.readyMs) return;
      if (options.onExit) options.onExit(proc);
      else log.error(`${proc.name} ${describeExit(exit)} (log: ${proc.logFile})`);
    });
    return proc;
  };

  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    for (const [t, tier] of tiers.entries()) {
      const results = await Promise.allSettled(
        tier.map(async (spec) => {
          const begun = Date.now();
          const proc = launch(spec, t);
          try {
            await waitHealthy(proc, spec.check, { timeoutMs: spec.timeoutMs, signal: abort.signal });
          } catch (err) {
            abort.abort(); // no point waiting for the others of this tier
            throw err;
          }
          proc.readyMs = Date.now() - begun;
          log.ok(`${spec.name} healthy in ${(proc.readyMs / 1000).toFixed(1)} s`);
        }),
      );
      const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
      if (failed.length) {
        // Report the real failure, not the "aborted" of the siblings we gave up on.
        throw failed.find((e) => !/aborted$/.test(e.message)) ?? failed[0];
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }

  return {
    dataDir,
    /** The processes as they are now (restart replaces entries). */
    get processes() {
      return started.map(({ proc }) => proc);
    },
    restart: (name, opts) => restartProcess(started, launch, name, opts),
    startedInMs: Date.now() - t0,
    stop,
    /** Immediate SIGKILL of every process group (a second Ctrl-C). */
    kill: killAll,
  };
}
