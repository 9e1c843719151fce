/** Starts a real server on a free loopback port with a temporary data dir, for integration tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config.js';
import { createContext } from '../../server/bootstrap.js';
import { buildApp } from '../../server/app.js';
import type { AppContext } from '../../server/context.js';
import { testModeOverrides } from './modes.js';
import { serveTestPages } from './testPages.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** `testPages`: also serve the browser tests' pages (./testPages.ts) from this build directory. */
export async function startTestServer(
  overrides: Partial<Config> = {},
  { testPages }: { testPages?: string } = {},
): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-test-'));
  // PIXMILL_TEST_MODE=scaleout: a fresh PostgreSQL database and BullMQ prefix per server (kept across a keepData restart)
  const mode = await testModeOverrides({ dataDir, explicit: overrides });
  // Test servers sell plans through the built-in free "local" provider (PAYMENT_PROVIDER=local) unless a test picks another.
  const config = loadConfig(process.env, {
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    dataDir,
    databaseUrl: undefined,
    redisUrl: undefined,
    paymentProvider: 'local',
    ...mode.overrides,
    ...overrides,
  });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  if (testPages) await serveTestPages(app, testPages);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    ctx,
    dataDir,
    async stop(opts) {
      await app.close();
      await mode.cleanup({ keepData: opts?.keepData });
      if (!opts?.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
