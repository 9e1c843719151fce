import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The scale-out project (the integration suite again on PostgreSQL + BullMQ) joins the run when
 * PIXMILL_SCALEOUT_PASS=1: `npm test` sets it once PostgreSQL and Redis answer (tests/support/modes.ts).
 * Run in the same vitest run as the first pass, its files fill the cores where the first pass's last
 * files would leave one idle, and the run starts vitest once.
 */
const SCALEOUT_PASS = process.env.PIXMILL_SCALEOUT_PASS === '1';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // 2 cores: engines and integration servers are CPU-heavy, so keep parallel files low.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      // The client's and the worker's tests: each file in a fresh module graph (some fake timers, some
      // run in jsdom).
      { extends: true, test: { name: 'client', include: ['src/**/*.test.{ts,tsx}', 'src-worker/**/*.test.ts'] } },
      // The server's, the tools' and the integration tests share a worker's module graph: importing the
      // server (Fastify, Kysely, BullMQ, onnxruntime, sharp) for every file cost ~1 s of a core per file
      // (~135 s of the main pass: 401 -> 354 s). They mock nothing and set no environment; each test starts
      // its own servers, databases and data dirs, so nothing of one file reaches the next but module caches.
      // (PIXMILL_TEST_MODE=scaleout set by hand runs them all in that mode, a process per file.)
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          isolate: process.env.PIXMILL_TEST_MODE === 'scaleout',
        },
      },
      // The integration suite in the scale-out mode, sharing a worker's module graph like the server project
      // (measured alone: 85 -> 64 s, imports 40 -> 6 s of a core; every file's first-pass run still saw the
      // embedded mode, the environment stays with this project's workers). The `scaleout*` files start their
      // own clusters (the server project runs them); processing-engines.test.ts runs once: its two works run
      // the same engine code in either mode, and a work's scale-out path is processing.test.ts's.
      ...(SCALEOUT_PASS
        ? [
            {
              extends: true,
              test: {
                name: 'scaleout',
                include: ['tests/integration/**/*.test.ts'],
                exclude: [
                  ...configDefaults.exclude,
                  'tests/integration/scaleout*',
                  'tests/integration/processing-engines.test.ts',
                ],
                isolate: false,
                env: { PIXMILL_TEST_MODE: 'scaleout' },
              },
            },
          ]
        : []),
    ],
  },
});
