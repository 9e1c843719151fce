// A small, strict lint: the recommended TypeScript rules plus the few habits this code base holds to.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'models/', 'data/', '.tmp/', 'bench/results/', 'public/', 'tests/e2e/screenshots/', 'dev-dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', globalThis: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests read untyped JSON answers and assert on their values; migrations use Kysely<any> on purpose
    // (a migration must not depend on today's schema types, Kysely's documented practice).
    files: ['tests/**', '**/*.test.{ts,tsx}', 'server/repositories/migrations/**', 'bench/**', 'scripts/loadtest.ts', 'scripts/hostile.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // zustand and Dexie are reached only through their one wrapper module each (STYLE.md practice 4).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/stores/**', 'src/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zustand', message: 'use the hooks in src/stores' }, { name: 'dexie', message: 'use the repositories in src/db' }] }],
    },
  },
);
