/**
 * Works (spec §4 "Processing"): start (transform), progress, results, history and feedback.
 * The rules live here; running is done by the job runner (server/jobs/) behind a JobQueue.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { FailureReason, ProgressData } from '../../src/shared/schemas/processing.js';
import type { HistoryRecord, Paged } from '../../src/shared/domain/work.js';
import {
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  type JobRecord,
  type Thumbsup,
} from '../../src/shared/schemas/history.js';
import type { FieldsOf } from '../../src/shared/schemas/common.js';
import type { Transform } from '../../src/shared/schemas/processing.js';
import { creditCost } from '../../src/shared/domain/credits.js';
import { parseJobConfig, type Step } from '../../src/shared/domain/modules.js';
import { isSubscriber, megapixelsToPixels } from '../../src/shared/domain/plans.js';
import { notFound, paramError, refused } from '../errors.js';
import { outputTooLarge, stepsScale } from '../../src/shared/domain/resultSize.js';
import type { Job } from '../repositories/schema.js';
import type { JobQueue } from '../jobs/jobQueue.js';
import type { ProgressRow } from '../repositories/jobRepository.js';
import {
  countActive,
  findOwnedJob,
  findOwnedProgress,
  historyPage,
  insertQueued,
  queuePosition,
  setThumbsup,
  worksAhead,
} from '../repositories/jobRepository.js';
import { findUpload } from '../repositories/uploadRepository.js';
import { queueStanding } from '../jobs/fairness.js';
import type { Processing } from '../jobs/processing.js';
import type { JobRunner } from '../jobs/runner.js';
import type { ServiceBase } from './base.js';
import { leftIn, type CreditService } from './credits.js';
import type { RetentionService } from './retention.js';
import type { UploadService } from './uploads.js';
import { decodeJconfig } from './jconfig.js';
import { checkJobConfig } from './schemaCheck.js';
import { checkIdempotencyKey, idForKey } from './idempotency.js';
import { workExpired } from './retention.js';
import { isEnlargePath } from '../../src/shared/domain/enlargePath.js';
import { secondsLeft, waitingSeconds, workSeconds } from '../../src/shared/domain/estimate.js';
import { allRates } from '../repositories/engineRateRepository.js';
import type { Principal } from './tokens.js';

/** How many running and queued works ahead a waiting work's estimate reads (the rest counted at their average). */
const AHEAD_SAMPLE = 100;

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { credits: CreditService; retention: RetentionService; uploads: UploadService } };

/** POST transform's fields (src/shared/schemas/processing.ts): jconfig is JSON text or an object, bounded by decodeJconfig. */
export type TransformInput = FieldsOf<typeof Transform>;

/** A started work: its id, the credits its start took and what the paying pool has left after it. */
export interface Started {
  trans_id: string;
  charged: number;
  credits_left: number;
}

/** GET progress's answer (its schema: src/shared/schemas/processing.ts). */
export type ProgressView = Static<typeof ProgressData>;
type FailureReasonCode = Static<typeof FailureReason>;

/** One row of GET /api/job/record (src/shared/domain/work.ts, shared with the client). */
export type HistoryItem = HistoryRecord;

/** A finished work whose result is kept. */
export type FinishedWork = Job & { result_key: string };

export type { Paged };

/**
 * Why a failed work failed, as a reason code the client translates: its time limit, the largest-output
 * rule on its upload's size and steps (works started before transform refused them), else processFailed.
 */
function failureReason(
  job: Pick<Job, 'error' | 'steps_json'>,
  size: { w: number; h: number } | undefined,
): FailureReasonCode {
  if (job.error === 'timeout') return 'processTimeout';
  const scale = stepsScale((JSON.parse(job.steps_json) as Step[]).map((st) => st.config));
  return size && outputTooLarge(size.w, size.h, scale) ? 'outputTooLarge' : 'processFailed';
}

export class JobService {
  readonly queue: JobQueue;
  private readonly runner: JobRunner;

  /** The queue and runner are built by the composition root (server/jobs/processing.ts) and handed in. */
  constructor(
    private readonly deps: Deps,
    processing: Processing,
  ) {
    this.queue = processing.queue;
    this.runner = processing.runner;
  }

  /** Starts the runner and, in the same process, the retention sweep (embedded: the one process; scale-out: workers). */
  async startRunner(): Promise<void> {
    await this.runner.start();
    this.deps.services.retention.start();
  }

  /** Stops the runner and closes the queue's connections (called once, when the process context closes). */
  async stopRunner(): Promise<void> {
    await this.deps.services.retention.stop();
    await this.runner.stop();
    await this.queue.stop();
  }

  /** Live processing threads of this process (0 when the runner is not started here). */
  get runnerThreads(): number {
    return this.runner.threads;
  }

  /**
   * POST /web_api/v1/transform: validates, charges the work's price (creditCost) and queues the work, all or
   * nothing. `transId`: the work's id when the caller names it (the process call's Idempotency-Key); a new one
   * otherwise. Answers what it charged and what the paying pool has left, so no caller reads the jconfig again.
   * `opts.free`: the work costs nothing (a developer API preview the caller's free previews pay for).
   */
  async transform(
    p: Principal,
    input: TransformInput,
    transId: string = randomUUID(),
    opts: { free?: boolean } = {},
  ): Promise<Started> {
    const { db } = this.deps;
    const raw = decodeJconfig(input.jconfig);
    const upload = await this.deps.services.uploads.readyUpload(p.accountId, input.uid);
    const parsed = parseJobConfig(raw, p.level);
    if (!parsed.ok) throw refused({ field: 'jconfig', ...parsed.error });
    // The document's JobConfig schema holds too: what the rules above do not see (a field no job takes) is refused.
    checkJobConfig(raw);
    // Every module has an engine (the Engines type demands one each, every slot checks at start:
    // engines/registry.ts), so no engine is looked up here: this process loads none.
    // Compress uploads may be far above the plan's resolution; other features take only what the plan allows.
    if (parsed.value.job !== 'compress' && upload.w * upload.h > megapixelsToPixels(p.limits.maxMegapixels))
      throw paramError('planMegapixels', { field: 'uid', mp: p.limits.maxMegapixels, w: upload.w, h: upload.h });
    if (parsed.value.job !== 'compress' && Math.max(upload.w, upload.h) > p.limits.maxSidePx)
      throw paramError('planSide', { field: 'uid', max: p.limits.maxSidePx, w: upload.w, h: upload.h });
    // A result over the largest side would fail in the engine: refused before a job exists or a credit is taken.
    const over = outputTooLarge(upload.w, upload.h, stepsScale(parsed.value.steps.map((s) => s.config)));
    if (over) throw refused({ reason: 'outputTooLarge', field: 'scale', ...over });

    const now = Date.now();
    const { job, isWorkflow, steps } = parsed.value;
    const charge = await db.transaction().execute(async (trx) => {
      // Charging first takes the account row lock (PostgreSQL), so the count below sees concurrent starts.
      // `free`: a developer API preview within the month's free number (process.ts): charged 0, the ledger still says so.
      const cost = creditCost({ job });
      const charge = await this.deps.services.credits.charge(
        p.accountId,
        transId,
        opts.free ? { ...cost, amount: 0 } : cost,
        trx,
      );
      const batch = p.limits.batch;
      const active = await countActive(trx, p.accountId);
      if (active >= batch) {
        throw isSubscriber(p.level) ? paramError('batchLimit', { max: batch }) : paramError('batchSubscribersOnly');
      }
      // Its place in the queue (level, the account's turn) and the cap on one address's guest works (issue 48).
      const standing = await queueStanding(trx, p.level, active, this.deps.config.guestWorksPerAddress);
      await insertQueued(trx, {
        ...standing,
        trans_id: transId,
        account_id: p.accountId,
        uid: upload.uid,
        job,
        is_workflow: isWorkflow ? 1 : 0,
        steps_json: JSON.stringify(steps),
        zoom_type: input.zoom_type || null,
        created_at: now,
      });
      return charge;
    });
    await this.queue.enqueue(transId);
    return { trans_id: transId, charged: charge.charged, credits_left: charge.left };
  }

  /**
   * POST transform with an Idempotency-Key (issue 47: a reloaded page resends its start with the key it
   * stored before sending). The developer API's rule (process.ts): the work's trans_id is derived from the
   * account and the key, so a repeat — in sequence or racing — finds the first's work and is answered its
   * trans_id, charged nothing (the racing loser's insert and charge roll back together). Another account's
   * same key names another work. A key this account used for another upload or jconfig is refused (422
   * idempotencyKeyReused): a key answers one start, never a different one.
   */
  async transformOnce(p: Principal, input: TransformInput, key: string): Promise<Started> {
    checkIdempotencyKey(key);
    const transId = idForKey(p.accountId, key);
    const first = await this.repeatOf(p, input, transId);
    if (first) return first;
    try {
      return await this.transform(p, input, transId);
    } catch (e) {
      // Two requests with one key: the other's work won the insert (this one's charge rolled back with it).
      const winner = await this.repeatOf(p, input, transId);
      if (winner) return winner;
      throw e;
    }
  }

  /** The work a key already started, answered again (charged 0); refused when this request asks for another. */
  private async repeatOf(p: Principal, input: TransformInput, transId: string): Promise<Started | undefined> {
    const job = await findOwnedJob(this.deps.db, p.accountId, transId);
    if (!job) return undefined;
    const parsed = parseJobConfig(decodeJconfig(input.jconfig), p.level);
    const same =
      job.uid === input.uid &&
      parsed.ok &&
      parsed.value.job === job.job &&
      JSON.stringify(parsed.value.steps) === job.steps_json;
    if (!same) throw refused({ reason: 'idempotencyKeyReused' });
    const balance = await this.deps.services.credits.balance(p.accountId);
    return { trans_id: transId, charged: 0, credits_left: leftIn(balance, creditCost({ job: job.job }).pool) };
  }

  /** A work of this principal; another account's trans_id answers like a missing one. */
  async owned(p: Principal, transId: string): Promise<Job> {
    const job = await findOwnedJob(this.deps.db, p.accountId, transId);
    if (!job) throw notFound('workNotFound');
    return job;
  }

  /** A finished work of this principal whose result is kept (an expired one answers 410 "expired"). */
  async finished(p: Principal, transId: string): Promise<FinishedWork> {
    const job = await this.owned(p, transId);
    if (job.expired_at) throw workExpired(this.deps.services.retention.daysFor(p.level));
    if (job.status !== 'finished' || !job.result_key) throw paramError('workNotFinished', { field: 'trans_id' });
    return job as FinishedWork;
  }

  /** GET progress, polled every few seconds by every open tab: one primary-key read beyond the token (a queued work adds its place). */
  async progress(p: Principal, transId: string): Promise<ProgressView> {
    return this.progressOf(await findOwnedProgress(this.deps.db, p.accountId, transId));
  }

  /** The progress answer from the work's row already read (the route reads it with the token: TokenService.resolveWithProgress). */
  async progressOf(job: ProgressRow | undefined): Promise<ProgressView> {
    if (!job) throw notFound('workNotFound');
    const steps = (JSON.parse(job.steps_json) as Step[]).length;
    const view: ProgressView = {
      trans_id: job.trans_id,
      status: job.status === 'finished' ? 'finish' : job.status === 'failed' ? 'fatal' : 'progress',
      progress: job.status === 'finished' ? 100 : Math.max(0, Math.min(100, Math.floor(job.progress))),
      step: Math.min(steps, job.step_index + 1),
      steps,
    };
    if (job.status === 'queued')
      view.queue_position = await queuePosition(this.deps.db, job, Date.now(), this.deps.config.queueAgingMs);
    if (job.status === 'queued') {
      const left = await this.waitEstimate(job, view.queue_position ?? 1);
      if (left !== undefined) view.seconds_left = left;
    }
    if (job.status === 'failed') {
      view.error = job.error === 'timeout' ? 'timeout' : 'Process failed';
      view.reason = failureReason(job, await findUpload(this.deps.db, job.uid));
    }
    if (job.status === 'finished' && job.result_w !== null && job.result_h !== null)
      Object.assign(view, { result_w: job.result_w, result_h: job.result_h });
    if (job.status === 'finished' && isEnlargePath(job.enlarge_path)) view.enlarge_path = job.enlarge_path;
    if (job.status === 'running') {
      const upload = await findUpload(this.deps.db, job.uid);
      if (upload?.w && upload.h) {
        const configs = (JSON.parse(job.steps_json) as Step[]).map((st) => st.config);
        const total = workSeconds(configs, upload.w, upload.h, await allRates(this.deps.db));
        view.seconds_left = secondsLeft(total, job.progress);
      }
    }
    return view;
  }

  /**
   * A waiting work's time (issue 51 point 4, in issue 48's queue order): what is left of every running
   * work and the whole of each queued work ahead of it (the nearest AHEAD_SAMPLE of each, the rest of
   * its queue_position counted at their average), shared by this process's slots, then its own time.
   */
  private async waitEstimate(job: ProgressRow, position: number): Promise<number | undefined> {
    const upload = await findUpload(this.deps.db, job.uid);
    if (!upload?.w || !upload.h) return undefined;
    const rates = await allRates(this.deps.db);
    const total = (stepsJson: string, w: number, h: number) =>
      workSeconds(
        (JSON.parse(stepsJson) as Step[]).map((st) => st.config),
        w,
        h,
        rates,
      );
    const ahead = await worksAhead(this.deps.db, job, AHEAD_SAMPLE, Date.now(), this.deps.config.queueAgingMs);
    const left = ahead.map((a) =>
      !a.w || !a.h
        ? 0
        : a.status === 'running'
          ? secondsLeft(total(a.steps_json, a.w, a.h), a.progress)
          : total(a.steps_json, a.w, a.h),
    );
    const queued = ahead.filter((a) => a.status === 'queued');
    const unseen = Math.max(0, position - 1 - queued.length);
    if (unseen > 0 && queued.length > 0) {
      const average = left.slice(ahead.length - queued.length).reduce((a, b) => a + b, 0) / queued.length;
      left.push(average * unseen);
    }
    return waitingSeconds(left, total(job.steps_json, upload.w, upload.h), this.deps.config.processWorkers);
  }

  async upload(job: Job) {
    return findUpload(this.deps.db, job.uid);
  }

  /** GET /api/job/record: the account's works, newest first. */
  async history(p: Principal, q: FieldsOf<typeof JobRecord>): Promise<Paged<HistoryItem>> {
    const limit = Math.min(q.limit ?? HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT);
    const page = q.page ?? 1;
    const { rows, total } = await historyPage(this.deps.db, p.accountId, limit, (page - 1) * limit);
    return {
      datas: rows.map((r) => ({
        trans_id: r.trans_id,
        uid: r.uid,
        job: r.job,
        status: r.status,
        filename: r.filename,
        w: r.w,
        h: r.h,
        result_w: r.result_w,
        result_h: r.result_h,
        created_at: Number(r.created_at),
        finished_at: r.finished_at === null ? null : Number(r.finished_at),
        thumbsup: r.thumbsup,
        expired: r.expired_at !== null,
        scale: stepsScale((JSON.parse(r.steps_json) as Step[]).map((st) => st.config)),
        ...(r.status === 'failed'
          ? { reason: failureReason(r, r.w === null || r.h === null ? undefined : { w: r.w, h: r.h }) }
          : {}),
        ...(r.status === 'finished' && isEnlargePath(r.enlarge_path) ? { enlarge_path: r.enlarge_path } : {}),
      })),
      current_page: page,
      total,
      last_page: Math.max(1, Math.ceil(total / limit)),
    };
  }

  /** POST /api/v2/thumbsup: 1 like, -1 dislike, 0 no opinion. */
  async thumbsup(p: Principal, f: FieldsOf<typeof Thumbsup>): Promise<{ trans_id: string; thumbsup: number }> {
    const job = await this.owned(p, f.trans_id);
    await setThumbsup(this.deps.db, p.accountId, job.trans_id, f.thumbsup);
    return { trans_id: job.trans_id, thumbsup: f.thumbsup };
  }
}
