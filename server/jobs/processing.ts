/**
 * The processing half a process runs: the job queue chosen by configuration and the runner that
 * takes works from it, with one logger. Built once by the composition root (server/bootstrap.ts) and
 * handed to the services, so JobService only uses them.
 */
import type { Config } from '../config.js';
import type { BlobStore } from '../repositories/blobStore.js';
import type { Db } from '../repositories/db.js';
import { findAccount } from '../repositories/jobRepository.js';
import type { CreditService } from '../services/credits.js';
import type { LicenseService } from '../services/license.js';
import { createJobQueue, type JobQueue } from './jobQueue.js';
import { serverLogger } from './log.js';
import { JobRunner } from './runner.js';
import { spawnSlotProcess } from './slotProcess.js';

export interface Processing {
  queue: JobQueue;
  runner: JobRunner;
}

/** The services a running work calls: its charge refunded, its account's level read. */
export interface ProcessingServices {
  credits: Pick<CreditService, 'refund'>;
  license: Pick<LicenseService, 'levelOf'>;
}

/** `services` is asked only when a work runs (charges are refunded and levels read through them), so it may be built after. */
export function createProcessing(
  base: { config: Config; db: Db; blobs: BlobStore },
  services: () => ProcessingServices,
): Processing {
  const { config, db, blobs } = base;
  const log = serverLogger(config.logLevel);
  const refund = (transId: string, within?: Db) => services().credits.refund(transId, within);
  const queue = createJobQueue(config, { db, log, refund });
  const runner = new JobRunner({
    config,
    db,
    blobs,
    queue,
    log,
    levelOf: async (accountId) => services().license.levelOf(await findAccount(db, accountId)),
    refund,
    // One process per processing slot: the time-limit kill of a work inside native engine code
    // (onnxruntime) must end that process, not abort the server (a terminated thread does).
    spawnWorker: spawnSlotProcess,
  });
  return { queue, runner };
}
