import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest here, longest first (`.tmp/vitest.json` after `npm test`). On a clean clone
 * vitest knows no durations and would start them in name order, so one of them could start last and run
 * alone on one core while the other waits; starting them first lets the short files fill the gaps.
 */
const SLOW_FIRST = [
  'tests/integration/scaleout-faults.test.ts',
  'tests/integration/processing-engines.test.ts',
  'server/engines/perfect.test.ts',
  'tests/integration/processing.test.ts',
  'scripts/convert-models.test.ts',
  'server/engines/registry.test.ts',
  'server/engines/matting.test.ts',
  'tests/integration/api-quickstart.test.ts',
  'server/jobs/runner.test.ts',
  'scripts/train/train.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // stable: the rest keeps vitest's own order (its recorded durations, when it has them)
    return (await super.sort(files)).map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // 2 cores: engines and integration servers are CPU-heavy, so keep parallel files low.
    maxWorkers: 2,
    pool: 'forks',
    sequence: { sequencer: SlowFirst },
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
