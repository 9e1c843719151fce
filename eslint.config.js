// A small, strict lint: the recommended TypeScript rules plus the few habits this code base holds to.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importBoundaries from './eslint-rules/import-boundaries.js';

/** The server's files and the scripts it runs with (npm start, the models' conversion, the operator command). */
const SERVER = ['server/', 'scripts/start.mjs', 'scripts/convert-models.ts', 'scripts/admin.ts'];

/**
 * Who may import whom (eslint-rules/import-boundaries.js resolves each relative import against its file;
 * *.test.* files are exempt). scripts/lint-boundaries.test.ts shows each zone refusing a wrong-way import.
 */
const BOUNDARIES = [
  // The server runs in Node beside the browser's code: it shares only the code made to be shared.
  {
    files: SERVER,
    deny: ['src/', 'src-worker/'],
    allow: ['src/shared/'],
    message: 'the server imports only the shared code (src/shared/)',
  },
  // The API process (HTTP, services, repositories, the composition root) loads no engine and no onnxruntime:
  // works run in slot processes (server/jobs/slotProcess.ts). server/apiProcess.test.ts checks the running process.
  {
    files: [
      'server/http/',
      'server/services/',
      'server/repositories/',
      'server/app.ts',
      'server/main.ts',
      'server/bootstrap.ts',
      'server/worker.ts',
    ],
    deny: ['server/engines/'],
    message: 'the API process loads no engine (works run in slot processes: server/jobs/slotProcess.ts)',
  },
  // The server's layers: routes (http/) call services, services call repositories; nothing below reaches up.
  {
    files: ['server/services/', 'server/repositories/', 'server/jobs/'],
    deny: ['server/http/'],
    message: 'services, repositories and jobs never import the HTTP layer (server/http/ calls them, not the reverse)',
  },
  // No service imports the composition (services/index.ts): each names the services it calls in its own Deps
  // type (services/base.ts), so the services' imports follow their calls and never close a circle.
  {
    files: ['server/services/', 'server/jobs/', 'server/repositories/'],
    except: ['server/services/index.ts'],
    deny: ['server/services/index.js'],
    message: 'services type what they use as ServiceBase & { services: { … } } (services/base.ts), not the whole Deps',
  },
  // Routes reach works and their results through the services (services/downloads.ts for every download).
  {
    files: ['server/http/'],
    deny: ['server/jobs/', 'server/repositories/resultFiles.js'],
    message: 'routes reach works and results through the services (server/services/), not the runner or the files',
  },
  // The image worker shares src/shared/ like the server, and the IndexedDB layer (src/db/): the page and the
  // worker are two threads of one browser app that read and write the same Dexie database (the upload
  // queue's items and works), so both use its one wrapper module instead of two copies of the schema.
  {
    files: ['src-worker/'],
    deny: ['src/', 'server/'],
    allow: ['src/shared/', 'src/db/'],
    message: 'the worker imports only the shared code (src/shared/) and the IndexedDB layer (src/db/)',
  },
  // The UI talks to the worker through the bridge only (Comlink, the upload manager), and never carries server code.
  {
    files: ['src/'],
    except: ['src/shared/', 'src/worker-bridge/'],
    deny: ['src-worker/', 'server/'],
    message: 'the UI reaches the worker only through src/worker-bridge/, and never imports server code',
  },
  { files: ['src/worker-bridge/'], deny: ['server/'], message: 'the bridge never imports server code' },
  // State sits below the pages that show it.
  {
    files: ['src/stores/'],
    deny: ['src/pages/'],
    message: 'stores do not import pages (put what both need in src/stores/ or src/shared/)',
  },
  // The shared code depends on nothing of its users.
  {
    files: ['src/shared/'],
    deny: ['src/', 'server/', 'src-worker/', 'tests/', 'scripts/', 'bench/'],
    allow: ['src/shared/'],
    message: 'the shared code imports only itself',
  },
  // Test harnesses are for tests, benches and measurement scripts; nothing that ships loads them.
  {
    files: [
      ...SERVER,
      'src/',
      'src-worker/',
      'scripts/api-docs.ts',
      'scripts/config-docs.ts',
      'scripts/generate-samples.ts',
      'scripts/ship-weights.ts',
    ],
    deny: ['tests/'],
    message: 'the harnesses in tests/ are for tests only',
  },
  // Bench and lab code (the benches, the quality runs with their converters and TF.js references) stays out
  // of what ships: the server, the app and the worker never load it.
  {
    files: [...SERVER, 'src/', 'src-worker/'],
    deny: ['bench/', 'scripts/quality/', 'scripts/quality.ts', 'scripts/quality.js'],
    message: 'shipped code never loads bench or lab code (bench/, scripts/quality/)',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-test/',
      'node_modules/',
      'models/',
      'data/',
      '.tmp/',
      'bench/results/',
      'public/',
      'tests/e2e/screenshots/',
      'dev-dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    plugins: { pixmill: { rules: { 'import-boundaries': importBoundaries } } },
    rules: { 'pixmill/import-boundaries': ['error', { zones: BOUNDARIES }] },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Tests read untyped JSON answers and assert on their values; migrations use Kysely<any> on purpose
    // (a migration must not depend on today's schema types, Kysely's documented practice).
    files: [
      'tests/**',
      '**/*.test.{ts,tsx}',
      'server/repositories/migrations/**',
      'bench/**',
      'scripts/loadtest.ts',
      'scripts/hostile.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // zustand and Dexie are reached only through their one wrapper module each (practice 4 of the team's
    // style guide, shared/design/STYLE.md, which lives beside this repository rather than in it).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/stores/**', 'src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zustand', message: 'use the hooks in src/stores' },
            { name: 'dexie', message: 'use the repositories in src/db' },
          ],
        },
      ],
    },
  },
);
