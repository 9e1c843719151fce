import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8181);
/**
 * Two workers, each with its own server (PORT and PORT + 1, a fresh DATA_DIR each): a browser test
 * spends most of its time waiting (the client polls progress every 2 s, a sample's simulated run takes
 * 4 s, uploads and processing), so two at once keep the 2 cores busy. A server of its own per worker
 * keeps each test's processing slot and per-address rate limits as they were with one worker.
 * Playwright sets TEST_PARALLEL_INDEX (0 or 1) in each worker before it reads this file.
 */
const WORKERS = 2;
const workerPort = PORT + Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.tmp/test-results',
  timeout: 120_000,
  workers: WORKERS,
  retries: 0,
  reporter: [['list'], ['json']],
  // The upload harness's build of its own (dist-test/), made when stale; the servers read it per request.
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${workerPort}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  // The WebGPU spec launches its own Chromium (a worker of its own) and is the longest file: as a
  // project of its own, listed first, it starts at once beside the rest instead of after it.
  projects: [
    { name: 'webgpu', testMatch: 'ondevice-webgpu.spec.ts' },
    { name: 'browser', testIgnore: 'ondevice-webgpu.spec.ts' },
  ],
  webServer: Array.from({ length: WORKERS }, (_, i) => ({
    command: `node scripts/e2e-server.mjs`,
    url: `http://127.0.0.1:${PORT + i}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT + i), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  })),
});
