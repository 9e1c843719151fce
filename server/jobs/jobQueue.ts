/** Chooses the JobQueue by configuration: BullMQ on Redis when REDIS_URL is set, else the jobs table. */
import type { Db } from '../repositories/db.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../repositories/schema.js';
import { BullJobQueue } from './bullmqQueue.js';
import type { RunnerLogger } from './log.js';
import { EmbeddedJobQueue, type JobQueue } from './queue.js';

export interface QueueDeps {
  db: Kysely<Database>;
  log: RunnerLogger;
  /** with `within`, inside the caller's transaction */
  refund(transId: string, within?: Db): Promise<boolean>;
}

export function createJobQueue(config: Config, deps: QueueDeps): JobQueue {
  if (config.redisUrl) return new BullJobQueue({ redisUrl: config.redisUrl, prefix: config.queuePrefix, jobTimeoutMs: config.jobTimeoutMs }, deps);
  return new EmbeddedJobQueue(deps.db, deps.log);
}
