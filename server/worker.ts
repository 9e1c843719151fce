/**
 * `npm run start:worker`: a scale-out processing worker. No HTTP; it takes works from the BullMQ
 * queue (REDIS_URL), runs each in a slot process (jobs/slotProcess.ts, SIGKILLed at the time limit) and writes
 * progress, results and failures to the shared database (DATABASE_URL) and blob volume (DATA_DIR).
 * Start as many as the machines allow; API processes run with `npm run start:api`.
 * The queue and the runner are the ones JobService builds from the configuration (one place);
 * Its slot processes hold the engines: each slot's thread refuses to start when a module has no engine
 * (assertAllEngines, jobs/processWorker.ts); this process loads none, like the API process.
 */
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from './config.js';
import { createContext } from './bootstrap.js';
import type { AppContext } from './context.js';
import { serverLogger } from './jobs/log.js';

export interface ProcessingWorker {
  ctx: AppContext;
  stop(): Promise<void>;
}

/** Builds and starts one worker; used by the entry below and by tests that run workers in-process. */
export async function startProcessingWorker(config: Config): Promise<ProcessingWorker> {
  if (!config.redisUrl)
    throw new Error('start:worker needs REDIS_URL (the scale-out queue); `npm start` runs the embedded mode');
  if (!config.databaseUrl)
    serverLogger(config.logLevel).warn(
      {},
      'DATABASE_URL is not set: workers on other machines cannot share a SQLite file',
    );
  const ctx = await createContext({ ...config, runJobs: true });
  if (!ctx.services.jobs.queue.distributed) {
    await ctx.close();
    throw new Error('start:worker: the configured queue is not the distributed (BullMQ) queue');
  }
  let stopping: Promise<void> | null = null;
  return {
    ctx,
    stop() {
      stopping ??= ctx.close();
      return stopping;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const worker = await startProcessingWorker(loadConfig()).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
  process.stderr.write(
    JSON.stringify({
      level: 30,
      time: Date.now(),
      name: 'worker',
      msg: 'processing worker started',
      pid: process.pid,
    }) + '\n',
  );
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      worker.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
