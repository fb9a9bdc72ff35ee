#!/usr/bin/env node
// Profiles a running Node process of the local stack while a load runs, to see where a request's CPU goes.
//   node load/cpu-profile.mjs [--seconds 10] <pid> [-- command to run meanwhile]
// The process gets SIGUSR1, so Node opens its inspector on 127.0.0.1:9229, and closes it when done.
// Writes load/results/<pid>.cpuprofile (open in Chrome DevTools) and prints the top self-time
// functions and packages, and the shares of our code, libraries and the runtime (lib/profile-owners.cjs).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { ownersReport, packageOf, profileOwners } from './lib/profile-owners.cjs';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
const command = dash < 0 ? [] : argv.slice(dash + 1);
let seconds = 10;
let pid;
for (let i = 0; i < own.length; i++) {
  if (own[i] === '--seconds') seconds = Number(own[++i]);
  else pid = Number(own[i]);
}
if (!pid) {
  console.error('usage: node load/cpu-profile.mjs [--seconds N] <pid> [-- command]');
  process.exit(2);
}

async function attach(pid, port = 9229) {
  // SIGUSR1 opens Node's inspector, but ends most other programs (FerretDB, PostgreSQL, a shell).
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  if (!/(^|\/)node$/.test(cmdline[0] ?? ''))
    throw new Error(`pid ${pid} is not a Node process: ${cmdline[0]}`);
  process.kill(pid, 'SIGUSR1');
  for (let i = 0; i < 50; i++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      const ws = new WebSocket(list[0].webSocketDebuggerUrl);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      let id = 0;
      const pending = new Map();
      ws.on('message', (m) => {
        const msg = JSON.parse(m.toString());
        if (msg.id && pending.has(msg.id)) pending.get(msg.id)(msg);
      });
      const send = (method, params = {}) =>
        new Promise((resolve) => {
          pending.set(++id, resolve);
          ws.send(JSON.stringify({ id, method, params }));
        });
      return { pid, ws, send };
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`no inspector for pid ${pid} on port ${port}`);
}

function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    self.set(n, (self.get(n) ?? 0) + (dt[i] ?? 0));
  }
  const fns = new Map();
  const pkgs = new Map();
  let total = 0;
  for (const [n, us] of self) {
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += us;
    const file = url.replace(/^file:\/\//, '');
    const key = `${functionName || '(anonymous)'} ${path.basename(file)}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const pkg =
      packageOf(file) ??
      (file.startsWith('node:') || !file
        ? 'node'
        : path.relative(process.cwd(), file).split('/').slice(0, 2).join('/'));
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
  }
  const top = (m, k) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => `${((us / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
  return { totalMs: total / 1000, functions: top(fns, 25), packages: top(pkgs, 15) };
}

const s = await attach(pid);
await s.send('Profiler.enable');
await s.send('Profiler.setSamplingInterval', { interval: 200 });
await s.send('Profiler.start');
if (command.length) {
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  await new Promise((resolve) => child.on('exit', resolve));
} else await sleep(seconds * 1000);
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
mkdirSync(dir, { recursive: true });
const { result } = await s.send('Profiler.stop');
const file = path.join(dir, `${pid}.cpuprofile`);
writeFileSync(file, JSON.stringify(result.profile));
const { totalMs, functions, packages } = summarize(result.profile);
console.log(
  `\n# pid ${pid}: ${totalMs.toFixed(0)} ms busy, CPU and system calls (${path.relative(process.cwd(), file)})`,
);
console.log(packages.join('\n'));
console.log('--');
console.log(functions.join('\n'));
console.log("-- by owner (the nearest frame up the stack that is ours or a library's):");
console.log(ownersReport(profileOwners(result.profile)).join('\n'));
// Frees port 9229 for the next process to profile (the inspector goes away with no answer).
s.ws.send(
  JSON.stringify({ id: 0, method: 'Runtime.evaluate', params: { expression: 'process._debugEnd()' } }),
);
setTimeout(() => process.exit(0), 200);
