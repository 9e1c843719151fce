/**
 * `npm run start:worker`: a scale-out processing worker. No HTTP; it takes works from the BullMQ
 * queue (REDIS_URL), runs each in a sandbox process (SIGKILLed at the time limit) and writes
 * progress, results and failures to the shared database (DATABASE_URL) and blob volume (DATA_DIR).
 * Start as many as the machines allow; API processes run with `npm run start:api`.
 */
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from './config.js';
import { createContext } from './bootstrap.js';
import type { AppContext } from './context.js';
import { BullJobQueue } from './jobs/bullmqQueue.js';
import { spawnSandboxedWorker } from './jobs/bullmqSandbox.js';
import { serverLogger } from './jobs/log.js';
import { JobRunner, type RunnerDeps } from './jobs/runner.js';

export interface ProcessingWorker {
  ctx: AppContext;
  queue: BullJobQueue;
  stop(): Promise<void>;
}

/** Builds and starts one worker; used by the entry below and by tests that run workers in-process. */
export async function startProcessingWorker(config: Config): Promise<ProcessingWorker> {
  if (!config.redisUrl) throw new Error('start:worker needs REDIS_URL (the scale-out queue); `npm start` runs the embedded mode');
  const log = serverLogger(config.logLevel);
  if (!config.databaseUrl) log.warn({}, 'DATABASE_URL is not set: workers on other machines cannot share a SQLite file');
  // The request-side runner stays off here; this process runs the queue's runner only.
  const ctx = await createContext({ ...config, runJobs: false });
  const queue = new BullJobQueue(
    { redisUrl: config.redisUrl, prefix: config.queuePrefix, jobTimeoutMs: config.jobTimeoutMs },
    { db: ctx.db, log, refund: (transId) => ctx.services.credits.refund(transId) },
  );
  const deps: RunnerDeps & { spawnWorker?: typeof spawnSandboxedWorker } = {
    config,
    db: ctx.db,
    blobs: ctx.blobs,
    queue,
    log,
    levelOf: async (accountId) => {
      const account = await ctx.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      return ctx.services.license.levelOf(account);
    },
    refund: (transId) => ctx.services.credits.refund(transId),
    // One process per processing slot, so the time limit is a process kill.
    spawnWorker: spawnSandboxedWorker,
  };
  const runner = new JobRunner(deps);
  await runner.start();
  let stopping: Promise<void> | null = null;
  return {
    ctx,
    queue,
    stop() {
      stopping ??= (async () => {
        await runner.stop();
        await queue.stop();
        await ctx.close();
      })();
      return stopping;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const worker = await startProcessingWorker(loadConfig());
  process.stderr.write(JSON.stringify({ level: 30, time: Date.now(), name: 'worker', msg: 'processing worker started', pid: process.pid }) + '\n');
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      worker.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
