/** What every route and job handler reaches: configuration, repositories and services. */
import type { Config } from './config.js';
import type { Db } from './repositories/db.js';
import type { BlobStore } from './repositories/blobStore.js';
import type { Services } from './services/index.js';

export interface AppContext {
  config: Config;
  db: Db;
  blobs: BlobStore;
  services: Services;
  /** stops timers, workers and connections */
  close(): Promise<void>;
}
