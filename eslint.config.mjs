import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CONTRACTS_DEEP_IMPORTS = {
  // The package root and any path but the four entry points (e.g. @qm/contracts/src/api/identity).
  regex: '^@qm/contracts(/(?!(grpc|rest|rules|events)$).*)?$',
  message: 'Import @qm/contracts through its entry points: @qm/contracts/grpc, /rest, /rules or /events.',
};
// docs/adr/024: the store engine's internals (its SQL, FerretDB's storage names, the driver fix) stay
// in @qm/platform's store/engine/; everyone else uses the StoreEngine interface from '@qm/platform'.
const ENGINE_INTERNALS = {
  regex: '(^@qm/platform/|/platform/src/).*store/engine(/|$)|ferretdb-postgresql',
  message:
    "The store engine's internals stay in @qm/platform: use StoreEngine (rt.engine, engineOf) from '@qm/platform'.",
};
// Services, the gateway and the frontends send no SQL: PostgreSQL is the local engine's business.
const PG = {
  regex: '^pg(-[a-z-]+)?(/.*)?$',
  message: "No SQL outside @qm/platform's store engine (docs/adr/024): use the StoreEngine interface.",
};
const ENGINE_USERS = ['services/**/*.{ts,tsx}', 'gateway/**/*.{ts,tsx}', 'frontends/**/*.{ts,tsx}'];
const DOMAIN_BANNED = ['@qm/contracts/grpc', 'mongoose', 'mongodb'];
const DOMAIN_MESSAGE =
  'domain/** holds no generated proto, REST schema, gRPC or database code: map at the edge (server.ts, store/).';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '.tools/**',
      'packages/contracts/src/gen/**',
      'e2e/artifacts/**',
      'load/results/**',
      'charts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Small functions in hand-written code: one concern each, thin handlers (docs/architecture.md §1). Generated
    // contracts are ignored above; tests' describe blocks may be long; IIFEs are left out.
    files: [
      'gateway/src/**/*.ts',
      'services/**/*.{ts,tsx}',
      'packages/**/*.{ts,tsx}',
      'frontends/**/*.{ts,tsx}',
    ],
    ignores: ['**/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 150, IIFEs: false }] },
  },
  {
    // The same limit for the scripts, browser journeys, load tests and the shared rspack config.
    files: ['scripts/**/*.mjs', 'e2e/**/*.mjs', 'load/**/*.{ts,mjs}', 'frontends/rspack.shared.mjs'],
    rules: { 'max-lines-per-function': ['error', { max: 150, IIFEs: false }] },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // @qm/contracts is used through its entry points only (grpc, rest, events): see docs/CONVENTIONS.md.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACTS_DEEP_IMPORTS] }] },
  },
  {
    // Loaders open the stack's engine through the interface too (load/lib/stack-sequences.ts).
    files: ['load/**/*.{ts,mjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACTS_DEEP_IMPORTS, ENGINE_INTERNALS] }] },
  },
  {
    files: ENGINE_USERS,
    rules: {
      'no-restricted-imports': ['error', { patterns: [CONTRACTS_DEEP_IMPORTS, ENGINE_INTERNALS, PG] }],
    },
  },
  {
    // A service's tests may look into PostgreSQL to check what the local engine made there
    // (services/catalog/test/indexes.int.test.ts); its internals stay out of reach all the same.
    files: ['services/*/test/**', 'gateway/test/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [CONTRACTS_DEEP_IMPORTS, ENGINE_INTERNALS] }] },
  },
  {
    // Use cases work on domain values; the gRPC edge (server.ts) maps messages and calls them, never
    // the other way round (an import back would be a cycle).
    files: ['services/*/src/app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CONTRACTS_DEEP_IMPORTS,
            ENGINE_INTERNALS,
            PG,
            { group: ['../server', '../../server'], message: 'The app layer does not import the gRPC edge.' },
          ],
        },
      ],
    },
  },
  {
    // Domain rules are plain values and decisions: wire formats and storage stay at the edges.
    files: ['services/*/src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DOMAIN_BANNED.map((name) => ({ name, message: DOMAIN_MESSAGE })),
          patterns: [
            CONTRACTS_DEEP_IMPORTS,
            ENGINE_INTERNALS,
            PG,
            { group: ['@grpc/*', 'mongoose/*', 'mongodb/*'], message: DOMAIN_MESSAGE },
            // REST wire schemas are checked at the edge; the domain may use the rules' values (limits, messages).
            {
              group: ['@qm/contracts/rest'],
              importNamePattern: '(Body|Form|Query|Params|Schema)$',
              message: DOMAIN_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  prettier,
);
