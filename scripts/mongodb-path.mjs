#!/usr/bin/env node
// The integration suites on the chart's path (docs/adr/024): QM_STORE_ENGINE=mongodb and no
// PostgreSQL URL, so every in-process service and gateway uses the MongoDB API and nothing else,
// here against the local FerretDB (it speaks the MongoDB protocol). `npm run
// test:integration:mongodb-path [-- jest args]`; scripts/ci-test.mjs runs it as its second pass.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The environment of the pass: the engine chosen, the local engine's URL unset. */
export const MONGODB_PATH_ENV = { QM_STORE_ENGINE: 'mongodb', FERRETDB_POSTGRESQL_URL: undefined };

/**
 * Suites left out of the pass: they touch no service store (the event bus, tracing, fault flags,
 * the Keycloak realm), or they test the local engine itself (its indexes, ordered reads, counters
 * table and pg pool, a FerretDB process of their own). Every suite that runs a service, the gateway
 * or a store runs in both passes.
 */
export const MONGODB_PATH_SKIPS = [
  'packages/platform/test/events.int.test.ts',
  'packages/platform/test/events-prefix.int.test.ts',
  'packages/platform/test/tracing.int.test.ts',
  'packages/platform/test/faults.int.test.ts',
  'k8s/keycloak/test/realm.int.test.ts',
  'packages/platform/test/indexes.int.test.ts',
  'packages/platform/test/ordered.int.test.ts',
  'packages/platform/test/sequences.int.test.ts',
  'packages/platform/test/pg-pool.int.test.ts',
  'packages/platform/test/ferretdb-restart.int.test.ts',
  'packages/platform/test/mongo-restart.int.test.ts',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** jest's arguments for the pass (a project's own ignore patterns win over the CLI's, so a lookahead). */
export const mongodbPathJestArgs = () => [
  '--selectProjects',
  'integration',
  '--runInBand',
  '--testPathPatterns',
  `^(?!.*(${MONGODB_PATH_SKIPS.map(escape).join('|')})$)`,
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = { ...process.env, ...MONGODB_PATH_ENV };
  delete env.FERRETDB_POSTGRESQL_URL;
  const r = spawnSync('node_modules/.bin/jest', [...mongodbPathJestArgs(), ...process.argv.slice(2)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
    env,
  });
  process.exit(r.status ?? 1);
}
