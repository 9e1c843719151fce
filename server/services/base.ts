/**
 * What every service is built on: the configuration, the database and the blob store. A service that
 * calls others names them in its own `Deps` type (`ServiceBase & { services: { … } }`), so each file
 * says what it uses and the services import one another's types only along those calls, never in a circle
 * (the composition, index.ts, hands every service the same object with all of them).
 */
import type { Config } from '../config.js';
import type { BlobStore } from '../repositories/blobStore.js';
import type { Db } from '../repositories/db.js';
import type { Account } from '../repositories/schema.js';
import type { Level, PlanLimits } from '../../src/shared/domain/plans.js';

export interface ServiceBase {
  config: Config;
  db: Db;
  blobs: BlobStore;
}

/** Who calls: the account a token resolved to (TokenService.resolve), its level and its plan's limits. */
export interface Principal {
  token: string;
  accountId: number;
  account: Account;
  level: Level;
  limits: PlanLimits;
  /** a registered account (not a guest) */
  logged: boolean;
}
