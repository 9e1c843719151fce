/**
 * The browser tests' server (playwright.config.ts starts one per Playwright worker): the product's server as
 * `npm start` runs it (server/main.ts: settings from the environment, the embedded job runner), on a fresh
 * temporary DATA_DIR and selling plans through the built-in free provider, plus the test pages (the upload
 * harness's build, dist-test/) under /test-pages/, which the product server itself never serves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../server/config.js';
import { createContext } from '../../../server/bootstrap.js';
import { buildApp } from '../../../server/app.js';
import { serveTestPages } from '../../support/testPages.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-e2e-'));
// In the environment, not only in the config: the slot processes this server starts read it too.
Object.assign(process.env, { DATA_DIR: dataDir, PAYMENT_PROVIDER: 'local' });
const config = loadConfig();
const app = await buildApp(await createContext(config));
await serveTestPages(app);
await app.listen({ port: config.port, host: config.host });

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void app
      .close()
      .catch(() => undefined)
      .finally(() => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
}
