#!/usr/bin/env node
// `make test`: everything CI checks, on a fresh machine or a warm one.
//   1. provision tools (cached under ~/.cache/quartermaster) and npm dependencies
//   2. static checks: generated code, types, lint, formatting
//   3. unit tests
//   4. integration tests (jest) against real NATS, FerretDB, Keycloak and maildev on a fresh data dir
//   5. the frontends built and the whole stack in production mode on another fresh data dir, and
//      the browser journeys (headless Chromium) and the API fuzzer (schemathesis) against it
//   6. Helm chart rendering validated against the Kubernetes schemas
// Ends with one line `make test: N passed, N failed`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  needsNpmInstall,
  npmInstall,
  POSTGRES_URL,
  provisionTools,
  ROOT,
  startStack,
} from './stack/index.mjs';

const only = process.argv
  .slice(2)
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  ?.split(',');
const want = (step) => !only || only.includes(step);
const results = []; // { step, passed, failed }
const t0 = Date.now();

function section(name) {
  console.log(`\n\x1b[1m=== ${name} (${Math.round((Date.now() - t0) / 1000)} s) ===\x1b[0m`);
}

/** Runs a command; returns its exit code. Output streams through. */
/**
 * Runs a command to its end without blocking this process: the stack started here streams its
 * processes' output through pipes this event loop drains, and a blocked loop (spawnSync) lets
 * FerretDB fill its pipe and hang in the middle of the tests.
 */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...opts.env } });
    p.on('error', () => resolve(1));
    p.on('close', (code) => resolve(code ?? 1));
  });
}

function record(step, passed, failed) {
  results.push({ step, passed, failed });
  console.log(`${step}: ${passed} passed, ${failed} failed`);
}

async function jest(step, args, env = {}) {
  const out = path.join(ROOT, `.data/test-results/${step}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  rmSync(out, { force: true });
  const code = await run('node_modules/.bin/jest', [...args, '--json', `--outputFile=${out}`], { env });
  if (!existsSync(out)) return record(step, 0, 1);
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const failed = r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
  record(step, r.numPassedTests, failed);
}

async function check(step, cmd, args) {
  const code = await run(cmd, args);
  record(step, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
}

section('provision');
provisionTools(ROOT);
execFileSync(path.join(ROOT, 'scripts/provision.sh'), ['chromium'], { stdio: 'inherit' });
execFileSync(path.join(ROOT, 'scripts/provision.sh'), ['schemathesis'], { stdio: 'inherit' });
if (needsNpmInstall(ROOT)) npmInstall(ROOT);

if (want('static')) {
  section('static checks');
  await check('proto', 'node', ['scripts/proto.mjs', '--check']);
  await check('typecheck', 'node', ['scripts/typecheck.mjs']);
  await check('lint', 'node_modules/.bin/eslint', ['.', '--max-warnings=0']);
  await check('format', 'node_modules/.bin/prettier', ['--check', '.', '--log-level=warn']);
}

if (want('unit')) {
  section('unit tests');
  await jest('unit', ['--selectProjects', 'unit']);
}

/**
 * Starts a stack on a fresh data directory, runs `body` against it and stops it. Integration tests
 * and browser journeys get separate stacks: the tests' in-process services publish on the same
 * subjects as a running stack's services (e.g. catalog.product.deleted for their own product ids),
 * which a running stack would take for real events.
 */
async function withStack(step, options, body) {
  section(`start the stack for ${step}`);
  rmSync(path.join(ROOT, options.dataDir), { recursive: true, force: true });
  let stack;
  try {
    stack = await startStack({ ...options, quiet: true });
    console.log(`stack up in ${Math.round(stack.startedInMs / 1000)} s`);
  } catch (err) {
    console.error(err.message ?? err);
    return record(`stack for ${step}`, 0, 1);
  }
  try {
    await body();
  } finally {
    section(`stop the stack for ${step}`);
    await stack.stop();
  }
}

if (want('integration')) {
  await withStack('integration tests', { dataDir: '.data/test-integration', infraOnly: true }, async () => {
    section('integration tests (real NATS, FerretDB, Keycloak, maildev)');
    await jest('integration', ['--selectProjects', 'integration', '--runInBand'], {
      FERRETDB_POSTGRESQL_URL: POSTGRES_URL,
    });
  });
}

if (want('e2e')) {
  section('build frontends');
  await check('build-frontends', 'npm', ['run', 'build:frontends', '--silent']);
  await withStack(
    'browser journeys',
    { dataDir: '.data/test-e2e', prod: true, frontends: false },
    async () => {
      section('browser journeys (headless Chromium)');
      const journeys = readdirSync(path.join(ROOT, 'e2e'))
        .filter((f) => f.endsWith('.e2e.mjs'))
        .sort();
      for (const j of journeys) await check(`e2e ${j}`, 'node', [path.join('e2e', j)]);
      section('API fuzzing (schemathesis, every role)');
      await check('api fuzz', 'node', ['e2e/api-fuzz.mjs']);
    },
  );
}

if (want('chart')) {
  section('Helm chart');
  await check('chart-test', 'node', ['scripts/chart-test.mjs']);
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary:');
for (const r of results)
  console.log(
    `  ${r.failed ? '\x1b[31mFAIL\x1b[0m' : 'ok  '} ${r.step} (${r.passed} passed, ${r.failed} failed)`,
  );
console.log(`took ${Math.round((Date.now() - t0) / 1000)} s`);
console.log(`make test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
