/**
 * The browser tests' pages (the upload harness, tests/e2e/harness/): a build of their own (`npm run
 * build:test-pages`, vite.config.ts mode test-pages → dist-test/), never the product's. The product server
 * knows nothing of them: the e2e launcher (tests/e2e/harness/e2e-server.ts) and the test servers that
 * ask for them (startTestServer's `testPages`) add them under /test-pages/ to the app before it listens.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where they are served (vite.config.ts builds them with this base). */
const TEST_PAGES_PREFIX = '/test-pages/';
/** Their build. */
export const TEST_PAGES_DIR = path.resolve(import.meta.dirname, '../../dist-test');
/** The upload harness's page in the build, and from the server's root. */
export const HARNESS_FILE = 'tests/e2e/harness/upload-harness.html';
export const HARNESS_PATH = `${TEST_PAGES_PREFIX}${HARNESS_FILE}`;

/** Serves `dir` under /test-pages/, read at request time (the e2e global setup may build it after the server starts). */
export async function serveTestPages(app: FastifyInstance, dir = TEST_PAGES_DIR): Promise<void> {
  await app.register(fastifyStatic, {
    root: dir,
    prefix: TEST_PAGES_PREFIX,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res) => res.header('cache-control', 'no-cache'),
  });
}
