#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json (strict, no emit), in parallel pairs.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dirs = [
  'gateway',
  ...['packages', 'services', 'frontends'].flatMap((d) =>
    existsSync(join(root, d)) ? readdirSync(join(root, d)).map((n) => `${d}/${n}`) : [],
  ),
  // The landing page's prerender runs the shell's code in Node (its own tsconfig, with Node's types).
  'frontends/shell/prerender',
  'scripts',
  'e2e',
  'load',
  // The phone floor's pages (load/lib/phone-floor.mjs) are browser code: DOM types, JSX.
  'load/phone-floor',
  'k8s/keycloak',
].filter((d) => existsSync(join(root, d, 'tsconfig.json')));

const tsc = join(root, 'node_modules/.bin/tsc');
let failed = 0;
const run = (dir) =>
  new Promise((resolve) => {
    const p = spawn(tsc, ['-p', dir, '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('close', (code) => {
      if (code !== 0) failed++;
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${dir}${out ? `\n${out}` : ''}`);
      resolve();
    });
  });
const queue = [...dirs];
await Promise.all(
  [0, 1].map(async () => {
    while (queue.length) await run(queue.shift());
  }),
);
console.log(`typecheck: ${dirs.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
