/**
 * The scale-out JobQueue: BullMQ on Redis (REDIS_URL). Any number of API processes enqueue, any
 * number of worker processes (`npm run start:worker`) run works. The jobs table stays the record of
 * every work (status, progress, result, credits); Redis only decides which worker runs what next.
 * Hence:
 *  - a BullMQ job id is the trans_id, so adding a work twice delivers it once;
 *  - an enqueue that fails because Redis is away loses nothing: the row is 'queued' in the
 *    database and the reconciler adds it when Redis answers again (also after a Redis restart
 *    that lost its data);
 *  - a work delivered again (its worker died, BullMQ saw its lock lapse) is re-opened in the
 *    database and run by the new holder, up to MAX_ATTEMPTS, then failed and refunded once;
 *  - credits are charged at transform time, once per trans_id (ledger unique (ref, kind)), so a
 *    re-run never charges again, and the refund of a failure happens once whoever fails it.
 */
import type { Db } from '../repositories/db.js';
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
import { GIVE_UP_QUICKLY } from '../redis.js';
import type { Kysely } from 'kysely';
import { bullmqSettings } from '../config.js';
import type { Database } from '../repositories/schema.js';
import type { JobHandler, JobQueue } from './jobQueue.js';
import { failOrphan, findJob, requeue } from '../repositories/jobRepository.js';
import { LEASE_STALE_MS } from './runner.js';
import { agedClass, QUEUE_AGING_MS } from '../../src/shared/domain/queueOrder.js';

/** Attempts a work gets before it is failed and refunded (same rule as the embedded runner). */
const BULL_MAX_ATTEMPTS = 2;
const QUEUE_NAME = 'works';

/** BullMQ's priority of a work of class `queueClass` stored at `createdAt` (1 the front; 0 would skip the priorities). */
export function bullPriority(queueClass: number, createdAt: number, now: number, agingMs = QUEUE_AGING_MS): number {
  return 1 + agedClass(queueClass, now - createdAt, agingMs);
}

export interface BullQueueOptions {
  redisUrl: string;
  /** key prefix, so deployments and test servers can share one Redis */
  prefix: string;
  /** hard limit of one work (kept for operations output; liveness comes from the runner's lease) */
  jobTimeoutMs: number;
  /** how long a worker's lock lives without renewal before another worker takes the work over */
  lockMs?: number;
  /** how often workers look for works whose lock lapsed */
  stalledCheckMs?: number;
  /** how often the database and Redis are compared (queued rows Redis does not know, orphaned runs) */
  reconcileMs?: number;
  /** a waiting work moves up one queue class per this many ms (src/shared/domain/queueOrder.ts) */
  queueAgingMs?: number;
}

export interface BullQueueDeps {
  db: Kysely<Database>;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /** gives back the credit of a failed work; must be idempotent (the ledger makes it so) */
  /** with `within`, inside the caller's transaction */
  refund(transId: string, within?: Db): Promise<boolean>;
}

interface WorkData {
  transId: string;
}

/** The connection for the producer side: give up quickly while Redis is away (the row waits in the database). */
function producerConnection(url: string) {
  return { url, ...GIVE_UP_QUICKLY };
}

/** An API request never waits on Redis longer than this to announce a work. */
const ENQUEUE_WAIT_MS = 2000;

export class BullJobQueue implements JobQueue {
  /** several processes share this queue: works left 'running' are recovered here, not by one runner's restart */
  readonly distributed = true;
  private readonly queue: Queue<WorkData>;
  private worker: Worker<WorkData> | null = null;
  private handler: JobHandler | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private reconciling: Promise<void> | null = null;
  private lockClient: Redis | null = null;
  private readonly opts: Required<BullQueueOptions>;
  private readonly instance = randomUUID();

  constructor(
    opts: BullQueueOptions,
    private readonly deps: BullQueueDeps,
  ) {
    this.opts = {
      ...bullmqSettings(),
      queueAgingMs: QUEUE_AGING_MS,
      ...opts,
    };
    this.queue = new Queue<WorkData>(QUEUE_NAME, {
      connection: producerConnection(this.opts.redisUrl),
      prefix: this.opts.prefix,
      skipWaitingForReady: true,
      defaultJobOptions: {
        attempts: 1,
        removeOnComplete: { count: 1000, age: 3600 },
        removeOnFail: { count: 1000, age: 24 * 3600 },
      },
    });
    this.queue.on('error', (err) => this.deps.log.warn({ err: { message: err.message } }, 'job queue: redis error'));
  }

  async enqueue(transId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.add(transId),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer from redis within ${ENQUEUE_WAIT_MS} ms`)),
            ENQUEUE_WAIT_MS,
          );
        }),
      ]);
    } catch (err) {
      // The work is stored as 'queued'; the reconciler delivers it once Redis answers again.
      this.deps.log.warn(
        { err: { message: (err as Error).message }, transId },
        'job queue: redis unavailable, work kept for later delivery',
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Adds a work at its place in the queue: BullMQ's priority (1 the front) is 1 + the work's class after
   * its wait (src/shared/domain/queueOrder.ts); works of equal priority go oldest first. The reconciler
   * moves waiting works up as they age (reprioritize).
   */
  private async add(transId: string) {
    const row = await this.deps.db
      .selectFrom('jobs')
      .select(['queue_class', 'created_at'])
      .where('trans_id', '=', transId)
      .executeTakeFirst();
    const priority = bullPriority(
      row?.queue_class ?? 0,
      row?.created_at ?? Date.now(),
      Date.now(),
      this.opts.queueAgingMs,
    );
    return this.queue.add(QUEUE_NAME, { transId }, { jobId: transId, priority });
  }

  async start(handler: JobHandler, concurrency: number): Promise<void> {
    this.handler = handler;
    this.worker = new Worker<WorkData>(QUEUE_NAME, (job) => this.process(job), {
      connection: {
        url: this.opts.redisUrl,
        maxRetriesPerRequest: null,
        retryStrategy: (n: number) => Math.min(200 * n, 2000),
      },
      prefix: this.opts.prefix,
      concurrency: Math.max(1, concurrency),
      lockDuration: this.opts.lockMs,
      stalledInterval: this.opts.stalledCheckMs,
      // Re-deliveries are counted in the jobs table (attempts), which also covers Redis losing its data.
      maxStalledCount: 1000,
      skipWaitingForReady: true,
    });
    this.worker.on('error', (err) => this.deps.log.warn({ err: { message: err.message } }, 'job worker: redis error'));
    this.worker.on('stalled', (transId) =>
      this.deps.log.warn({ transId }, 'job worker: work lost its worker; delivering it again'),
    );
    this.lockClient = new Redis(this.opts.redisUrl, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: (n) => Math.min(200 * n, 2000),
    });
    this.lockClient.on('error', () => undefined);
    this.reconcileTimer = setInterval(() => void this.reconcileOnce(), this.opts.reconcileMs);
    this.reconcileTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
    this.reconcileTimer = null;
    // Works in hand are cut short by the runner's pool; their locks lapse and another worker takes them.
    await this.worker?.close(true).catch(() => undefined);
    this.worker = null;
    await this.reconciling?.catch(() => undefined);
    this.lockClient?.disconnect();
    this.lockClient = null;
    await this.queue.close().catch(() => undefined);
  }

  /** One delivery of a work. Always settles; failures are recorded in the jobs table, not in BullMQ. */
  private async process(job: BullJob<WorkData>): Promise<void> {
    const transId = job.data?.transId;
    if (!transId || !this.handler) return;
    const row = await findJob(this.deps.db, transId);
    if (!row || row.status === 'finished' || row.status === 'failed') return;
    if (row.status === 'running') {
      // Delivered again while the row says running: the previous worker lost its lock (died or was cut off).
      if (row.attempts >= BULL_MAX_ATTEMPTS) return this.fail(transId, row.heartbeat_at);
      await requeue(this.deps.db, transId, row.heartbeat_at);
    }
    await this.handler(transId);
  }

  /** Fails a work whose runner is gone (unless its lease moved meanwhile) and refunds it, once. */
  private async fail(transId: string, heartbeatAt: number | null): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (await failOrphan(trx, transId, heartbeatAt, Date.now())) await this.deps.refund(transId, trx);
    });
  }

  /** Compares the jobs table with Redis once; one worker at a time does it (a short Redis lock). */
  reconcileOnce(): Promise<void> {
    this.reconciling ??= this.reconcile()
      .catch((err) => this.deps.log.warn({ err: { message: (err as Error).message } }, 'job queue: reconcile skipped'))
      .finally(() => {
        this.reconciling = null;
      });
    return this.reconciling;
  }

  private async reconcile(): Promise<void> {
    if (!this.lockClient) return;
    const lockKey = `${this.opts.prefix}:${QUEUE_NAME}:reconcile-lock`;
    const got = await this.lockClient.set(
      lockKey,
      this.instance,
      'PX',
      Math.max(2000, this.opts.reconcileMs * 2),
      'NX',
    );
    if (got !== 'OK') return;
    try {
      const now = Date.now();
      const rows = await this.deps.db
        .selectFrom('jobs')
        .select(['trans_id', 'status', 'attempts', 'started_at', 'created_at', 'heartbeat_at', 'queue_class'])
        .where('status', 'in', ['queued', 'running'])
        // a work just stored may not be added yet by its API process
        .where('created_at', '<', now - 2000)
        .orderBy('created_at')
        .limit(500)
        .execute();
      for (const row of rows) {
        const bull = await this.queue.getJob(row.trans_id);
        const state = bull ? await bull.getState() : 'missing';
        if (row.status === 'queued') {
          if (state === 'prioritized' && bull) {
            // Aging: a waiting work moves up a class every QUEUE_AGING_MS, so no flood keeps it waiting for ever.
            const priority = bullPriority(row.queue_class, row.created_at, now, this.opts.queueAgingMs);
            if (bull.priority !== priority) await bull.changePriority({ priority }).catch(() => undefined);
            continue;
          }
          if (state === 'waiting' || state === 'active' || state === 'delayed') continue;
          await bull?.remove().catch(() => undefined);
          await this.add(row.trans_id);
          continue;
        }
        // running: its runner renews a lease (heartbeat_at) while alive; only a stale lease means it is gone,
        // whatever Redis says (after a Redis restart the BullMQ job may be missing while the run goes on).
        if (state === 'active') continue;
        const lease = row.heartbeat_at ?? row.started_at ?? 0;
        if (lease >= now - LEASE_STALE_MS) continue;
        if (row.attempts >= BULL_MAX_ATTEMPTS) {
          await this.fail(row.trans_id, row.heartbeat_at);
          continue;
        }
        await bull?.remove().catch(() => undefined);
        if (await requeue(this.deps.db, row.trans_id, row.heartbeat_at)) await this.add(row.trans_id);
      }
    } finally {
      // release only our own lock
      await this.lockClient
        .eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
          1,
          lockKey,
          this.instance,
        )
        .catch(() => undefined);
    }
  }

  /** Counts by BullMQ state, for operations and tests. */
  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
  }
}
