// Spawning one long-running process in its own process group, logging it, and stopping the whole group.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  createWriteStream,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { prefix } from './log.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TAIL_LINES = 200;

/**
 * Live members of a process group, zombies excluded (read from /proc on Linux; elsewhere a kill(0)
 * probe stands in). A zombie no longer runs, and in a container without a reaping init it may linger.
 */
export function groupMembers(pgid) {
  if (process.platform === 'linux') {
    const pids = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid pgrp ...
        if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(Number(entry));
      } catch {
        // the process ended while we looked
      }
    }
    return pids;
  }
  try {
    process.kill(-pgid, 0);
    return [pgid];
  } catch (err) {
    return err.code === 'EPERM' ? [pgid] : [];
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Stops a process group: SIGTERM, wait, then SIGKILL. Resolves with how it ended. */
export async function stopGroup(pgid, { timeoutMs = 10000, signal = 'SIGTERM' } = {}) {
  if (!groupMembers(pgid).length) return 'gone';
  signalGroup(pgid, signal);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupMembers(pgid).length) return 'stopped';
    await sleep(100);
  }
  signalGroup(pgid, 'SIGKILL');
  const killDeadline = Date.now() + 3000;
  while (Date.now() < killDeadline) {
    if (!groupMembers(pgid).length) return 'killed';
    await sleep(100);
  }
  return 'stuck';
}

/**
 * Starts `command` detached (so it leads its own process group and Ctrl-C in the terminal reaches
 * only the orchestrator), appends its output to `<logDir>/<name>.log`, keeps the last lines in memory
 * for error messages, and echoes every line with a coloured `[name]` prefix unless `echo` is false.
 */
export function startProcess({
  name,
  command,
  args = [],
  cwd,
  env,
  logDir,
  echo = true,
  spawnAs,
  stopSignal,
}) {
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const header = `\n===== ${new Date().toISOString()} ${command} ${args.join(' ')}\n`;
  const spawnOpts = { cwd, env, detached: true, ...(spawnAs ?? {}) }; // spawnAs { uid, gid }: PostgreSQL refuses root
  let child;
  let log;
  let tailLines;
  if (echo) {
    log = createWriteStream(logFile, { flags: 'a' });
    log.write(header);
    const tail = [];
    tailLines = (n) => tail.slice(-n).join('\n');
    const pushLine = (line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      process.stdout.write(`${prefix(name)} ${line}\n`);
    };
    child = spawn(command, args, { ...spawnOpts, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        log.write(chunk);
        const lines = (partial + chunk).split(/\r?\n/);
        partial = lines.pop();
        for (const line of lines) pushLine(line);
      });
      stream.on('end', () => {
        if (partial) pushLine(partial);
        partial = '';
      });
    }
  } else {
    // Quiet (tests): the process writes its log file itself. Through a pipe it would depend on this
    // process reading it, and a runner that waits synchronously (spawnSync of jest) would stall a
    // server as soon as the pipe filled.
    const out = openSync(logFile, 'a');
    writeSync(out, header);
    child = spawn(command, args, { ...spawnOpts, stdio: ['ignore', out, out] });
    closeSync(out);
    tailLines = (n) =>
      readFileSync(logFile, 'utf8')
        .split(/\r?\n/)
        .slice(-n - 1)
        .join('\n');
  }

  const proc = {
    name,
    pid: child.pid,
    pgid: child.pid,
    logFile,
    exit: undefined,
    stopping: false,
    /** Resolves with { code, signal } when the group leader exits (or fails to spawn). */
    exited: undefined,
    tail: (n = 30) => tailLines(n),
    stop: async (opts) => {
      proc.stopping = true;
      const how = child.pid ? await stopGroup(child.pid, { signal: stopSignal, ...opts }) : 'gone';
      log?.end();
      return how;
    },
  };
  proc.exited = new Promise((resolve) => {
    child.once('error', (err) => {
      proc.exit = { code: null, signal: null, error: err };
      appendFileSync(logFile, `failed to start ${command}: ${err.message}\n`);
      resolve(proc.exit);
    });
    child.once('exit', (code, signal) => {
      proc.exit = { code, signal };
      resolve(proc.exit);
    });
  });
  return proc;
}

export function describeExit(exit) {
  if (!exit) return 'running';
  if (exit.error) return `could not start (${exit.error.message})`;
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
}
