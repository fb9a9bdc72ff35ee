import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    // Small functions in hand-written service and shared code (generated contracts are ignored
    // above; tests' describe blocks may be long). IIFEs: false leaves immediately invoked ones out.
    files: ['services/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    ignores: ['**/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 150, IIFEs: false }] },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
