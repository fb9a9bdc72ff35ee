import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The import rules of eslint.config.mjs (docs/CONVENTIONS.md, Contracts), proven on small snippets
 * linted with the repository's own configuration, so the rules cannot silently disappear. ESLint
 * loads its flat config with import(), which Jest's module sandbox refuses: it runs in a child.
 */
const root = join(__dirname, '../../..');

interface Case {
  code: string;
  file: string;
}

const LINT = `
import { ESLint } from 'eslint';
const cases = JSON.parse(process.env.LINT_CASES);
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { code, file } of cases) {
  const [result] = await eslint.lintText(code, { filePath: file });
  out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
}
process.stdout.write(JSON.stringify(out));
`;

/** The no-restricted-imports messages of each case, in order. */
function restricted(cases: Case[]): string[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT], {
    cwd: root,
    env: {
      ...process.env,
      LINT_CASES: JSON.stringify(cases.map((c) => ({ ...c, file: join(root, c.file) }))),
    },
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as string[][];
}

const DEEP = [
  "import { RegisterBody } from '@qm/contracts';",
  "import { RegisterBody } from '@qm/contracts/src/api/identity';",
  "import { Role } from '@qm/contracts/src/gen/qm/identity/v1/identity';",
  "import { catalogV1 } from '@qm/contracts/gen/qm/catalog/v1/catalog';",
];
const ANYWHERE = ['gateway/src/x.ts', 'frontends/shell/src/x.tsx', 'services/catalog/src/domain/x.ts'];
const DOMAIN = 'services/x/src/domain/rules.ts';
const DOMAIN_BANNED = [
  "import { catalogV1 } from '@qm/contracts/grpc';",
  "import type { identityV1 } from '@qm/contracts/grpc';",
  "import { Schema } from 'mongoose';",
  "import { Metadata } from '@grpc/grpc-js';",
  "import { RegisterBody } from '@qm/contracts/rest';",
  "import { PRODUCT_LIMITS, ProductSchema } from '@qm/contracts/rest';",
];
const ENTRY_POINTS = [
  "import { identityV1 } from '@qm/contracts/grpc';",
  "import { RegisterBody } from '@qm/contracts/rest';",
  "import { STREAMS } from '@qm/contracts/events';",
  "import { PRODUCT_TYPES } from '@qm/contracts/rules';",
  'export const all = [identityV1, RegisterBody, STREAMS, PRODUCT_TYPES];',
].join('\n');
const DOMAIN_ALLOWED = [
  "import { PRODUCT_LIMITS } from '@qm/contracts/rest';",
  "import type { ActivityData } from '@qm/contracts/events';",
  "import { invalid } from '@qm/platform';",
  'export const x: [unknown, ActivityData | undefined, unknown] = [PRODUCT_LIMITS, undefined, invalid];',
].join('\n');

const ENGINE_INTERNALS = [
  "import { ferretdbTableOf } from '@qm/platform/src/store/engine/ferretdb-postgresql/sql';",
  "import { mongodbEngine } from '@qm/platform/src/store/engine/mongodb';",
  "import { removeMongoSocketFix } from '../../../packages/platform/src/store/engine/driver-fix';",
];
const ENGINE_USERS = [
  'services/activity/src/store/search.ts',
  'services/catalog/src/app/catalog.ts',
  'services/x/src/domain/rules.ts',
  'services/activity/test/activity.int.test.ts',
  'gateway/src/x.ts',
  'frontends/admin/src/x.tsx',
  'load/seed-activity.ts',
];
const SQL = [
  "import pg from 'pg';",
  "import { Pool } from 'pg-pool';",
  "import type { QueryResult } from 'pg/lib';",
];
const SQL_BANNED_IN = [
  'services/activity/src/store/search.ts',
  'gateway/src/x.ts',
  'frontends/admin/src/x.tsx',
];
const ENGINE_ALLOWED = [
  "import { engineOf, detachedStoreEngine, type StoreEngine } from '@qm/platform';",
  'export const x: [unknown, unknown, StoreEngine | undefined] = [engineOf, detachedStoreEngine, undefined];',
].join('\n');

describe('the store engine stays behind its interface (docs/adr/024)', () => {
  const internals = ENGINE_INTERNALS.flatMap((code) => ENGINE_USERS.map((file) => ({ code, file })));
  const sql = SQL.flatMap((code) => SQL_BANNED_IN.map((file) => ({ code, file })));
  const allowed = [
    ...ENGINE_USERS.map((file) => ({ code: ENGINE_ALLOWED, file })),
    // A service's tests may look into PostgreSQL (what the local engine made there).
    { code: SQL[0]!, file: 'services/catalog/test/indexes.int.test.ts' },
    // The engine itself, and the platform's tests of it.
    { code: SQL[0]!, file: 'packages/platform/src/store/engine/ferretdb-postgresql/sql.ts' },
    { code: ENGINE_INTERNALS[0]!, file: 'packages/platform/test/indexes.int.test.ts' },
  ];
  let results: string[][];
  beforeAll(() => {
    results = restricted([...internals, ...sql, ...allowed]);
  });

  it("refuses the engine's internals in services, the gateway, the frontends and the loaders", () => {
    internals.forEach((c, i) =>
      expect([c, results[i]]).toEqual([c, [expect.stringContaining("store engine's internals")]]),
    );
  });

  it('refuses pg in the code of services, the gateway and the frontends', () => {
    sql.forEach((c, i) =>
      expect([c, results[internals.length + i]]).toEqual([c, [expect.stringContaining('No SQL outside')]]),
    );
  });

  it('allows the interface everywhere, and pg in service tests and the engine', () => {
    allowed.forEach((c, i) => expect([c, results[internals.length + sql.length + i]]).toEqual([c, []]));
  });
});

describe('import rules', () => {
  const deep = DEEP.flatMap((code) => ANYWHERE.map((file) => ({ code, file })));
  const domainBanned = DOMAIN_BANNED.map((code) => ({ code, file: DOMAIN }));
  const allowed = [
    { code: ENTRY_POINTS, file: 'services/identity/src/server.ts' },
    { code: ENTRY_POINTS, file: 'frontends/market/src/x.tsx' },
    { code: DOMAIN_ALLOWED, file: DOMAIN },
  ];
  let results: string[][];
  beforeAll(() => {
    results = restricted([...deep, ...domainBanned, ...allowed]);
  });

  it('refuses @qm/contracts but through its entry points, everywhere', () => {
    deep.forEach((c, i) => expect([c, results[i]]).toEqual([c, [expect.stringContaining('entry points')]]));
  });

  it('keeps generated proto, REST schemas, gRPC and database code out of domain/**', () => {
    domainBanned.forEach((c, i) =>
      expect([c, results[deep.length + i]]).toEqual([c, [expect.stringContaining('domain/**')]]),
    );
  });

  it('allows the entry points, and the REST rules, events and platform in domain/**', () => {
    expect(results.slice(deep.length + domainBanned.length)).toEqual([[], [], []]);
  });
});
