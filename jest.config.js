/** Unit tests (`*.test.ts`) run anywhere; integration tests (`*.int.test.ts`) need the local stack. */
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
  ],
};
const ignore = ['/node_modules/', '/dist/', '/.tools/', '/.data/'];
// jose is ESM-only: transformed to CommonJS like our own code (packages/platform/src/grpc/caller-assertion.ts).
const transformIgnorePatterns = ['/node_modules/(?!jose/)'];

module.exports = {
  // testTimeout is global in Jest (ignored per project): integration tests need real servers' time.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/test/**/*.test.ts', '<rootDir>/**/test/**/*.test.tsx'],
      testPathIgnorePatterns: [...ignore, '\\.int\\.test\\.ts$'],
    },
    {
      displayName: 'integration',
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/test/**/*.int.test.ts'],
      setupFiles: ['<rootDir>/packages/testkit/src/setup-integration.ts'],
      testPathIgnorePatterns: ignore,
    },
  ],
};
