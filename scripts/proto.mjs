#!/usr/bin/env node
// Lints the protos with buf and regenerates the ts-proto code in packages/contracts/src/gen.
// With --check, fails when the committed generated code differs from a fresh generation.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const gen = join(root, 'packages/contracts/src/gen');
const buf = join(root, 'node_modules/.bin/buf');
const run = (args) => execFileSync(buf, args, { cwd: join(root, 'proto'), stdio: 'inherit' });

run(['lint']);
if (!process.argv.includes('--check')) {
  rmSync(gen, { recursive: true, force: true });
  run(['generate']);
  console.log('proto: generated', relative(root, gen));
} else {
  const saved = mkdtempSync(join(tmpdir(), 'qm-gen-'));
  cpSync(gen, saved, { recursive: true });
  try {
    rmSync(gen, { recursive: true, force: true });
    run(['generate']);
    const stale = diff(saved, gen);
    if (stale.length) {
      console.error(`proto: generated code is stale, run \`npm run proto\`:\n  ${stale.join('\n  ')}`);
      process.exitCode = 1;
    } else console.log('proto: generated code is up to date');
  } finally {
    rmSync(gen, { recursive: true, force: true });
    cpSync(saved, gen, { recursive: true });
    rmSync(saved, { recursive: true, force: true });
  }
}

function files(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, base) : [relative(base, p)];
  });
}
function diff(a, b) {
  const fa = new Set(files(a));
  const fb = new Set(files(b));
  const all = [...new Set([...fa, ...fb])].sort();
  return all.filter(
    (f) => !fa.has(f) || !fb.has(f) || !readFileSync(join(a, f)).equals(readFileSync(join(b, f))),
  );
}
