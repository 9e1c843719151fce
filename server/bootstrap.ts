/** Builds the AppContext: database, blob store, services and (when configured) the job runner. */
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './repositories/db.js';
import { BlobStore } from './repositories/blobStore.js';
import { assertAllEngines } from './engines/registry.js';
import { createServices } from './services/index.js';

export async function createContext(config: Config): Promise<AppContext> {
  assertAllEngines(); // a module without an engine stops the server (and start:worker) here, not a user's work later
  const db = await openDatabase(config);
  const blobs = new BlobStore(config.dataDir);
  const services = createServices({ config, db, blobs });
  if (config.runJobs) await services.jobs.startRunner();
  return {
    config,
    db,
    blobs,
    services,
    async close() {
      await services.jobs.stopRunner();
      await db.destroy();
    },
  };
}
