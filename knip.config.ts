import type { KnipConfig } from 'knip';

/**
 * The unused-code check (`npm run lint` runs `knip`): no unused files, exports or dependencies.
 * Entries are what starts code by a path knip cannot follow on its own; the vite, vitest, playwright and
 * eslint plugins add their configs' entries (index.html, test files, the e2e global setup). Each ignore
 * below says why it is one.
 */
const config: KnipConfig = {
  entry: [
    // Child processes and threads started by file path (jobs/slotProcess.ts, jobs/convertProcess.ts and
    // jobs/pool.ts fork or spawn them with `new URL('./x.ts', import.meta.url)`).
    'server/jobs/slotProcessChild.ts',
    'server/jobs/convertChild.ts',
    'server/jobs/processWorker.ts',
    // The tools run by package.json scripts and by hand (each file's header says how).
    'scripts/*.{ts,mjs}',
    'scripts/quality/*.ts',
    // The benches: bench/run.ts imports each section by its name from the command line.
    'bench/*.{ts,mjs}',
    // The browser's web worker (src/worker-bridge/worker.ts starts it with new URL(…, import.meta.url)).
    'src-worker/index.ts',
    // The service worker's Background Sync relay, pulled in by workbox's importScripts (vite.config.ts).
    'public/sw-sync.js',
    // The test-pages build (vite --mode test-pages): the upload harness's page.
    'tests/e2e/harness/upload-harness.html',
    // The TypeScript client package (clients/typescript/package.json): its library and its `pixmill` bin.
    'clients/typescript/client.ts',
    'clients/typescript/cli.ts',
    // The upload harness's script (tests/e2e/harness/upload-harness.html loads it, a page knip does not read)
    // and its own worker (harness.tsx starts it with new URL(…, import.meta.url)).
    'tests/e2e/harness/harness.tsx',
    'tests/e2e/harness/fitWorker.ts',
    // Test helpers loaded by path (`node --import` of the module-loading hooks in tests/support/).
    'tests/support/*.mjs',
    // Kysely's Migrator calls each migration's up/down through the namespace objects in repositories/db.ts.
    'server/repositories/migrations/*.ts',
  ],
  project: [
    '{server,src,src-worker,scripts,bench,tests,clients,eslint-rules}/**/*.{ts,tsx,mjs,js}',
    'public/*.js',
    '*.{ts,js}',
  ],
  ignoreDependencies: [
    // Runtime packages of model weights, read by path (never imported) when the server converts or serves
    // them: server/engines/models.ts and http/routes/models.ts (scripts/shipped-deps.test.ts names each).
    '@imgly/background-removal-data',
    '@upscalerjs/maxim-enhancement',
    '@upscalerjs/maxim-retouching',
    '@vladmandic/human',
    // Weights read by path by the quality run and the benches only (scripts/quality/esrganModels.ts converts
    // ESRGAN on demand; MODEL_SOURCES the MAXIM denoising for bench/maxim.ts).
    '@upscalerjs/esrgan-medium',
    '@upscalerjs/esrgan-slim',
    '@upscalerjs/esrgan-thick',
    '@upscalerjs/maxim-denoising',
    // bench/load.ts loads it with createRequire (it ships no type declarations), which knip does not follow.
    'autocannon',
    // tests/integration/developer-api-generated-client.test.ts writes a client script that imports it and
    // runs it; no file of the tree imports it.
    'openapi-fetch',
  ],
  ignoreBinaries: [
    // The Redis server binary from Debian (tests/support/modesCluster.ts starts a cluster of them), not npm's.
    'redis-server',
  ],
};

export default config;
