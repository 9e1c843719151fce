/**
 * The queue that hands works to a runner. The jobs table is always the record of a work; a queue
 * only decides who runs what next: the jobs table itself in embedded mode (tableQueue.ts), BullMQ on
 * Redis when REDIS_URL is set (bullmqQueue.ts). createJobQueue chooses by configuration.
 */
import type { Db } from '../repositories/db.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../repositories/schema.js';
import { BullJobQueue } from './bullmqQueue.js';
import type { RunnerLogger } from './log.js';
import { EmbeddedJobQueue } from './tableQueue.js';

/** Runs one work to its end; must settle (never hang) and may reject only on internal faults. */
export type JobHandler = (transId: string) => Promise<void>;

export interface JobQueue {
  /** true when several processes share the queue and it recovers works of dead runners itself */
  readonly distributed?: boolean;
  /** announces a work whose jobs row is already stored with status 'queued' */
  enqueue(transId: string): Promise<void>;
  /** starts delivering queued works to `handler`, at most `concurrency` at a time */
  start(handler: JobHandler, concurrency: number): Promise<void>;
  /** stops delivering; works already delivered are the runner's to end */
  stop(): Promise<void>;
}

export interface QueueDeps {
  db: Kysely<Database>;
  log: RunnerLogger;
  /** with `within`, inside the caller's transaction */
  refund(transId: string, within?: Db): Promise<boolean>;
}

export function createJobQueue(config: Config, deps: QueueDeps): JobQueue {
  if (config.redisUrl)
    return new BullJobQueue(
      {
        redisUrl: config.redisUrl,
        prefix: config.queuePrefix,
        jobTimeoutMs: config.jobTimeoutMs,
        queueAgingMs: config.queueAgingMs,
      },
      deps,
    );
  return new EmbeddedJobQueue(deps.db, deps.log, undefined, config.queueAgingMs);
}
