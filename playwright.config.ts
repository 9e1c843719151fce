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
/** The review suite's files (project `review`, outside `npm test`). */
const REVIEW_ONLY = 'review-*.spec.ts';
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
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // Two projects (docs/testing.md "Two browser suites"):
  // - browser: the gate `npm test` runs. A fresh context installs the service worker, which precaches the
  //   app (~80 files, ~2 s of a core per test here), so the service worker is blocked unless a file is about
  //   it: the PWA, offline and on-device files say `test.use({ serviceWorkers: 'allow' })`.
  // - review: `npm run test:review`, run by hand before a release: the screenshots for looking at in the
  //   languages and sizes the gate does not shoot, and the software-WebGPU parity check (SwiftShader
  //   takes two minutes of a core for a 120×80 enlarge). Each file there says so in its header.
  projects: [
    { name: 'browser', testIgnore: REVIEW_ONLY, use: { serviceWorkers: 'block' } },
    { name: 'review', testMatch: REVIEW_ONLY },
  ],
  webServer: Array.from({ length: WORKERS }, (_, i) => ({
    // The product's server plus the test pages (tests/e2e/harness/e2e-server.ts); SIGTERM lets it remove its DATA_DIR.
    command: 'node --import tsx tests/e2e/harness/e2e-server.ts',
    url: `http://127.0.0.1:${PORT + i}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    env: { PORT: String(PORT + i), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  })),
});
