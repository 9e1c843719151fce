import { defineConfig } from 'vitest/config';

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
      // The scale-out pass (PIXMILL_TEST_MODE=scaleout) keeps a fresh process per file: shared, it measured
      // slower (179 s against 152 s), its tests' time growing more than the imports saved.
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          isolate: process.env.PIXMILL_TEST_MODE === 'scaleout',
        },
      },
    ],
  },
});
