import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'src-worker/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // 2 cores: engines and integration servers are CPU-heavy, so keep parallel files low.
    maxWorkers: 2,
    pool: 'forks',
  },
});
