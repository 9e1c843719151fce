/**
 * The job runner: takes queued works from the queue, runs them on the worker pool, stores results
 * and ends each work as finished, or failed with its credit refunded.
 *
 * Restart policy: a work left 'running' by a stopped/crashed runner is retried once
 * (attempts < MAX_ATTEMPTS), otherwise failed with 'interrupted' and refunded. Each runner holds a
 * lease on its running works (runner_id + heartbeat_at). On SQLite (one process) every running work
 * of another runner is orphaned at start; on a shared database (PostgreSQL) a work is orphaned once
 * its lease is older than LEASE_STALE_MS, checked at start and every LEASE_SWEEP_MS.
 */
import type { Db } from '../repositories/db.js';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Step } from '../../src/shared/domain/modules.js';
import type { Level } from '../../src/shared/domain/plans.js';
import type { Config } from '../config.js';
import type { BlobStore } from '../repositories/blobStore.js';
import type { Database, Job } from '../repositories/schema.js';
import { JobFailure, WorkerPool, type PoolLogger, type SlotHandle } from './pool.js';
import type { TaskOutput } from './protocol.js';
import type { SlotOptions } from './slotProcess.js';
import type { JobQueue } from './jobQueue.js';
import {
  claim,
  failOrphan,
  failedWithoutRefund,
  findJob,
  heartbeat,
  markFailed,
  markFinished,
  orphanedJobs,
  requeue,
  writeProgress,
} from '../repositories/jobRepository.js';
import { findUpload } from '../repositories/uploadRepository.js';
import { learnEngineRate } from '../repositories/engineRateRepository.js';
import { observedRate, rateKey } from '../../src/shared/domain/estimate.js';
import { extOf } from '../repositories/resultFiles.js';

const MAX_ATTEMPTS = 2;
/** progress rows are written at most this often per work (≤ 4/s) */
const PROGRESS_WRITE_MS = 250;
const LEASE_HEARTBEAT_MS = 5_000;
export const LEASE_STALE_MS = 30_000;
const LEASE_SWEEP_MS = 15_000;

export interface RunnerDeps {
  config: Config;
  db: Kysely<Database>;
  blobs: BlobStore;
  queue: JobQueue;
  log: PoolLogger;
  levelOf(accountId: number): Promise<Level>;
  /** with `within`, inside the caller's transaction */
  refund(transId: string, within?: Db): Promise<boolean>;
  /** how a processing slot is started (default: a worker thread; JobService uses a slot process) */
  spawnWorker?: (opts: SlotOptions) => SlotHandle;
}

export class JobRunner {
  private pool: WorkerPool | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  private started = false;
  private runnerId = '';
  private timers: NodeJS.Timeout[] = [];
  /** works this runner is running now (their leases are renewed) */
  private readonly active = new Set<string>();

  constructor(private readonly d: RunnerDeps) {}

  get threads(): number {
    return this.pool?.threads ?? 0;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.runnerId = randomUUID();
    await this.recover(this.d.config.databaseUrl ? Date.now() - LEASE_STALE_MS : Infinity);
    const spawn = this.d.spawnWorker;
    const slot: SlotOptions = { nice: this.d.config.slotNice };
    this.pool = new WorkerPool(
      this.d.config.processWorkers,
      this.d.config.jobTimeoutMs,
      this.d.log,
      spawn && (() => spawn(slot)),
    );
    const every = (ms: number, fn: () => Promise<unknown>, what: string) => {
      const t = setInterval(() => this.track(fn()).catch((err) => this.d.log.error({ err }, what)), ms);
      t.unref();
      this.timers.push(t);
    };
    every(
      LEASE_HEARTBEAT_MS,
      () => heartbeat(this.d.db, this.runnerId, [...this.active], Date.now()),
      'lease heartbeat failed',
    );
    every(LEASE_SWEEP_MS, () => this.recover(Date.now() - LEASE_STALE_MS), 'orphan sweep failed');
    await this.d.queue.start((transId) => this.track(this.handle(transId)), this.d.config.processWorkers);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const t of this.timers.splice(0)) clearInterval(t);
    await this.d.queue.stop();
    // Works cut short here stay 'running' and are retried by the next start (see recover()).
    await this.pool?.stop();
    this.pool = null;
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Works whose runner is gone: retried once, else failed and refunded. */
  private async recover(staleBefore: number): Promise<void> {
    const { db } = this.d;
    // A distributed queue (BullMQ) re-delivers works of dead runners itself.
    const orphans = this.d.queue.distributed ? [] : await orphanedJobs(db, this.runnerId, staleBefore);
    for (const job of orphans) {
      if (job.attempts < MAX_ATTEMPTS) {
        if (await requeue(db, job.trans_id, job.heartbeat_at)) await this.d.queue.enqueue(job.trans_id);
      } else {
        await db.transaction().execute(async (trx) => {
          if (await failOrphan(trx, job.trans_id, job.heartbeat_at, Date.now())) await this.d.refund(job.trans_id, trx);
        });
      }
    }
    // A process that died between marking a work failed and refunding it owes that refund still.
    for (const transId of await failedWithoutRefund(this.d.db)) await this.d.refund(transId);
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  private async handle(transId: string): Promise<void> {
    const { db } = this.d;
    if (!this.pool || !(await claim(db, transId, this.runnerId, Date.now()))) return;
    // Only works in hand keep their lease: one whose ending could not be written goes stale and is recovered.
    this.active.add(transId);
    try {
      await this.runClaimed(transId);
    } finally {
      this.active.delete(transId);
    }
  }

  private async runClaimed(transId: string): Promise<void> {
    const { db } = this.d;
    const job = await findJob(db, transId);
    if (!job) return;
    try {
      const started = Date.now();
      const output = await this.execute(job);
      await this.store(job, output);
      await this.learn(job, (Date.now() - started) / 1000).catch((err) =>
        this.d.log.error({ err }, 'engine rate not learned'),
      );
    } catch (err) {
      if (err instanceof JobFailure && err.reason === 'stopped') return;
      const reason =
        err instanceof JobFailure ? (err.reason === 'engine' ? err.message : err.reason) : 'internal error';
      if (!(err instanceof JobFailure)) this.d.log.error({ err, transId }, 'work failed');
      // One transaction: whoever sees the work failed also sees its credit back.
      await db.transaction().execute(async (trx) => {
        if (await markFailed(trx, transId, reason, Date.now(), this.runnerId)) await this.d.refund(transId, trx);
      });
    }
  }

  private async execute(job: Job): Promise<TaskOutput> {
    const { db, blobs, config } = this.d;
    const upload = await findUpload(db, job.uid);
    if (!upload || upload.status !== 'ready' || !upload.blob_key || !(await blobs.exists(upload.blob_key)))
      throw new JobFailure('engine', 'the uploaded image is no longer available');
    const steps = JSON.parse(job.steps_json) as Step[];
    const level = await this.d.levelOf(job.account_id);
    let lastWrite = 0;
    let lastStep = -1;
    const report = (index: number, fraction: number) => {
      const now = Date.now();
      if (index === lastStep && now - lastWrite < PROGRESS_WRITE_MS) return;
      lastStep = index;
      lastWrite = now;
      const progress = Math.min(99, ((index + fraction) / steps.length) * 100);
      this.track(writeProgress(db, job.trans_id, this.runnerId, progress, index)).catch((err) =>
        this.d.log.error({ err }, 'progress write failed'),
      );
    };
    return this.pool!.run(
      {
        id: job.trans_id,
        inputPath: blobs.pathOf(upload.blob_key),
        width: upload.w,
        height: upload.h,
        format: upload.format,
        steps: steps.map((s) => ({ module: s.config.module, params: s.config.module_params })),
        level,
        threads: config.engineThreads,
        modelsDir: config.modelsDir,
      },
      { perStepTimeout: job.is_workflow === 1, onStep: (i) => report(i, 0), onProgress: report },
    );
  }

  /**
   * Honest time (src/shared/domain/estimate.ts): a finished single-step work teaches its engine's rate,
   * seconds per input MP on this server (a workflow's steps share one time, so they teach nothing).
   */
  private async learn(job: Job, seconds: number): Promise<void> {
    const steps = JSON.parse(job.steps_json) as Step[];
    if (steps.length !== 1) return;
    const upload = await findUpload(this.d.db, job.uid);
    const observed = upload && observedRate(seconds, upload.w, upload.h);
    if (observed === undefined || !upload) return;
    const { module, module_params } = steps[0]!.config;
    await learnEngineRate(this.d.db, rateKey(module, module_params), observed, Date.now());
  }

  private async store(job: Job, out: TaskOutput): Promise<void> {
    const { db, blobs } = this.d;
    const resultKey = blobs.newKey('results', extOf(out.format));
    const written = [resultKey];
    let ok = false;
    try {
      await blobs.write(resultKey, out.data);
      let extras: Record<string, string> | null = null;
      for (const [variant, extra] of Object.entries(out.extras)) {
        const key = blobs.newKey('results', extra.format.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'bin');
        written.push(key);
        await blobs.write(key, extra.data);
        (extras ??= {})[variant] = key;
      }
      const steps = (JSON.parse(job.steps_json) as unknown[]).length;
      ok = await markFinished(
        db,
        job.trans_id,
        this.runnerId,
        { resultKey, format: out.format, width: out.width, height: out.height, extras, enlargePath: out.enlargePath },
        steps - 1,
        Date.now(),
      );
    } finally {
      // Not recorded (disk full, or the work ended another way meanwhile): keep no orphan files.
      if (!ok) for (const k of written) await blobs.remove(k).catch(() => undefined);
    }
  }
}
