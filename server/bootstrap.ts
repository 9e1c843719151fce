/** Builds the AppContext: database, blob store, services and (when configured) the job runner. */
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase, type Db } from './repositories/db.js';
import { BlobStore } from './repositories/blobStore.js';
import { createProcessing } from './jobs/processing.js';
import { createServices, type Services } from './services/index.js';

/**
 * Data files are private to the server's user: every file and directory this process (and the
 * worker threads and sandbox processes it starts, which inherit the mask) creates is 0600/0700, and
 * DATA_DIR itself is closed to others, which also covers files from older versions.
 */
function makeDataPrivate(dataDir: string): void {
  if (isMainThread) process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true });
  for (const p of [dataDir, path.join(dataDir, 'blobs')]) {
    try {
      if (fs.existsSync(p)) fs.chmodSync(p, 0o700);
    } catch (e) {
      // A shared volume owned by another user: leave it as the operator set it up.
      process.emitWarning(`cannot make ${p} private: ${(e as Error).message}`);
    }
  }
}

/** The services, with the job queue and runner built here and handed in. */
export function composeServices(base: { config: Config; db: Db; blobs: BlobStore }): Services {
  const processing = createProcessing(base, () => services);
  const services = createServices(base, processing);
  return services;
}

export async function createContext(config: Config): Promise<AppContext> {
  makeDataPrivate(config.dataDir);
  const db = await openDatabase(config);
  const blobs = new BlobStore(config.dataDir);
  const services = composeServices({ config, db, blobs });
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
