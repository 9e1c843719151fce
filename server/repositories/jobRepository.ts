/**
 * Database access for works (the jobs table): queueing, the runner's claim/progress/lease/finish
 * writes, orphan recovery, history and the refund check. Portable across SQLite and PostgreSQL.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Account, Database, Job } from './schema.js';
import { QUEUE_AGING_MS } from '../../src/shared/domain/queueOrder.js';
import type { EnlargePath } from '../../src/shared/domain/enlargePath.js';

type Db = Kysely<Database>;

export async function findAccount(db: Db, accountId: number): Promise<Account> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
}

/** A new work, queued (the caller's transaction also holds its charge). */
export async function insertQueued(
  db: Db,
  w: Pick<Job, 'trans_id' | 'account_id' | 'uid' | 'job' | 'is_workflow' | 'steps_json' | 'zoom_type' | 'created_at'> &
    Partial<Pick<Job, 'queue_class' | 'client_key'>>,
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ ...w, status: 'queued', progress: 0, step_index: 0, attempts: 0 })
    .execute();
}

export async function findOwnedJob(db: Db, accountId: number, transId: string): Promise<Job | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('trans_id', '=', transId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** What a progress poll reads: one primary-key lookup of the columns the answer needs (no blobs, no keys). */
export const PROGRESS_COLUMNS = [
  'trans_id',
  'uid',
  'status',
  'progress',
  'step_index',
  'steps_json',
  'error',
  'result_w',
  'result_h',
  'enlarge_path',
  'created_at',
] as const;
export type ProgressRow = Pick<Job, (typeof PROGRESS_COLUMNS)[number]>;

export async function findOwnedProgress(db: Db, accountId: number, transId: string): Promise<ProgressRow | undefined> {
  return db
    .selectFrom('jobs')
    .select(PROGRESS_COLUMNS)
    .where('trans_id', '=', transId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function findJob(db: Db, transId: string): Promise<Job | undefined> {
  return db.selectFrom('jobs').selectAll().where('trans_id', '=', transId).executeTakeFirst();
}

/** Works of an account that hold a processing slot (queued or running). */
export async function countActive(db: Db, accountId: number): Promise<number> {
  const r = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * A queued work's class after its wait (agedClass of src/shared/domain/queueOrder.ts, in SQL): the
 * queue's order is this, then created_at, then trans_id.
 */
function agedClassSql(now: number, agingMs: number) {
  const waited = sql<number>`(${now} - created_at)`;
  const aging = sql.lit(Math.max(1, Math.floor(agingMs)));
  return sql<number>`(CASE WHEN created_at >= ${now} THEN queue_class WHEN ${waited} >= queue_class * ${aging} THEN 0 ELSE queue_class - CAST(${waited} / ${aging} AS INTEGER) END)`;
}

/** 1-based place among queued works, in the order the queue hands them out (queueOrder.ts) at `now`. */
export async function queuePosition(
  db: Db,
  job: Pick<Job, 'created_at' | 'trans_id'>,
  now: number = Date.now(),
  agingMs: number = QUEUE_AGING_MS,
): Promise<number> {
  const own = await db
    .selectFrom('jobs')
    .select(agedClassSql(now, agingMs).as('aged'))
    .where('trans_id', '=', job.trans_id)
    .executeTakeFirst();
  if (!own) return 1;
  const r = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', '=', 'queued')
    .where(aheadOf(job, Number(own.aged), now, agingMs))
    .executeTakeFirstOrThrow();
  return Number(r.n) + 1;
}

/** The queued works ahead of `job` (of aged class `aged`) in queue order: queuePosition's rule, and worksAhead's. */
function aheadOf(job: Pick<Job, 'created_at' | 'trans_id'>, aged: number, now: number, agingMs: number) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.or([
      eb(agedClassSql(now, agingMs), '<', aged),
      eb.and([
        eb(agedClassSql(now, agingMs), '=', aged),
        eb.or([
          eb('created_at', '<', job.created_at),
          eb.and([eb('created_at', '=', job.created_at), eb('trans_id', '<', job.trans_id)]),
        ]),
      ]),
    ]);
}

/** What the time estimate needs of a work ahead: its steps, how far it is and its photo's size. */
export interface WorkAhead {
  status: Job['status'];
  steps_json: string;
  progress: number;
  w: number | null;
  h: number | null;
}

/**
 * The works a waiting work waits for (issue 51 point 4 with issue 48's queue order): every running work
 * and the queued works ahead of it, at most `limit` of each (nearest first), with their photos' sizes.
 */
export async function worksAhead(
  db: Db,
  job: Pick<Job, 'created_at' | 'trans_id'>,
  limit: number,
  now: number = Date.now(),
  agingMs: number = QUEUE_AGING_MS,
): Promise<WorkAhead[]> {
  const own = await db
    .selectFrom('jobs')
    .select(agedClassSql(now, agingMs).as('aged'))
    .where('trans_id', '=', job.trans_id)
    .executeTakeFirst();
  if (!own) return [];
  const base = db.selectFrom('jobs').select(['uid', 'status', 'steps_json', 'progress']);
  const running = await base.where('status', '=', 'running').limit(limit).execute();
  const queued = await base
    .where('status', '=', 'queued')
    .where(aheadOf(job, Number(own.aged), now, agingMs))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  const works = [...running, ...queued];
  const uids = [...new Set(works.map((w) => w.uid))];
  const sizes = new Map(
    uids.length
      ? (await db.selectFrom('uploads').select(['uid', 'w', 'h']).where('uid', 'in', uids).execute()).map((u) => [
          u.uid,
          u,
        ])
      : [],
  );
  return works.map((w) => ({ ...w, w: sizes.get(w.uid)?.w ?? null, h: sizes.get(w.uid)?.h ?? null }));
}

/** The queued work to start next (queueOrder.ts at `now`) not already taken by this process. */
export async function nextQueued(
  db: Db,
  exclude: readonly string[],
  now: number = Date.now(),
  agingMs: number = QUEUE_AGING_MS,
): Promise<string | undefined> {
  let q = db.selectFrom('jobs').select('trans_id').where('status', '=', 'queued');
  if (exclude.length) q = q.where('trans_id', 'not in', exclude);
  const row = await q
    .orderBy(agedClassSql(now, agingMs))
    .orderBy('created_at')
    .orderBy('trans_id')
    .limit(1)
    .executeTakeFirst();
  return row?.trans_id;
}

/** Guest works (queued or running) started from one address group. */
export async function countAddressActive(db: Db, clientKey: string): Promise<number> {
  const r = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('client_key', '=', clientKey)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Atomically takes a queued work for running; false when someone else took it first. */
export async function claim(db: Db, transId: string, runnerId: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({
      status: 'running',
      attempts: sql`attempts + 1`,
      started_at: now,
      progress: 0,
      step_index: 0,
      error: null,
      runner_id: runnerId,
      heartbeat_at: now,
    })
    .where('trans_id', '=', transId)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function writeProgress(
  db: Db,
  transId: string,
  runnerId: string,
  progress: number,
  stepIndex: number,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ progress, step_index: stepIndex, heartbeat_at: Date.now() })
    .where('trans_id', '=', transId)
    .where('status', '=', 'running')
    .where('runner_id', '=', runnerId)
    .execute();
}

/** Renews the lease on the works this runner is running. */
export async function heartbeat(db: Db, runnerId: string, transIds: readonly string[], now: number): Promise<void> {
  if (!transIds.length) return;
  await db
    .updateTable('jobs')
    .set({ heartbeat_at: now })
    .where('runner_id', '=', runnerId)
    .where('trans_id', 'in', transIds)
    .where('status', '=', 'running')
    .execute();
}

export interface FinishedResult {
  resultKey: string;
  format: string;
  width: number;
  height: number;
  extras: Record<string, string> | null;
  /** a work with an enlarge step: the path its enlargement took */
  enlargePath?: EnlargePath;
}

export async function markFinished(
  db: Db,
  transId: string,
  runnerId: string,
  r: FinishedResult,
  stepIndex: number,
  now: number,
): Promise<boolean> {
  const u = await db
    .updateTable('jobs')
    .set({
      status: 'finished',
      progress: 100,
      step_index: stepIndex,
      result_key: r.resultKey,
      result_format: r.format,
      result_w: r.width,
      result_h: r.height,
      extras_json: r.extras ? JSON.stringify(r.extras) : null,
      enlarge_path: r.enlargePath ?? null,
      finished_at: now,
    })
    .where('trans_id', '=', transId)
    .where('status', '=', 'running')
    .where('runner_id', '=', runnerId)
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/**
 * Fails a queued or running work (only while `runnerId` holds it, when given); false when it had
 * already ended or moved on, so the refund that follows happens once anyway.
 */
export async function markFailed(
  db: Db,
  transId: string,
  error: string,
  now: number,
  runnerId?: string,
): Promise<boolean> {
  let q = db
    .updateTable('jobs')
    .set({ status: 'failed', error: error.slice(0, 500), finished_at: now })
    .where('trans_id', '=', transId)
    .where('status', 'in', ['queued', 'running']);
  if (runnerId) q = q.where('runner_id', '=', runnerId);
  const u = await q.executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Running works whose runner is gone: any other runner's (`staleBefore` = Infinity) or with a lease older than `staleBefore`. */
export async function orphanedJobs(
  db: Db,
  runnerId: string,
  staleBefore: number,
): Promise<Pick<Job, 'trans_id' | 'attempts' | 'heartbeat_at'>[]> {
  return db
    .selectFrom('jobs')
    .select(['trans_id', 'attempts', 'heartbeat_at'])
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('runner_id', 'is', null), eb('runner_id', '!=', runnerId)]))
    .$if(Number.isFinite(staleBefore), (q) =>
      q.where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)])),
    )
    .execute();
}

/** Puts a running work back in the queue; with `heartbeatAt`, only if its lease was not renewed meanwhile. */
export async function requeue(db: Db, transId: string, heartbeatAt?: number | null): Promise<boolean> {
  const u = await db
    .updateTable('jobs')
    .set({ status: 'queued', progress: 0, step_index: 0, runner_id: null, heartbeat_at: null })
    .where('trans_id', '=', transId)
    .where('status', '=', 'running')
    .$if(heartbeatAt !== undefined, (q) =>
      q.where((eb) => (heartbeatAt === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', heartbeatAt!))),
    )
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Fails an orphaned work on its last attempt, unless its lease was renewed meanwhile. */
export async function failOrphan(db: Db, transId: string, heartbeatAt: number | null, now: number): Promise<boolean> {
  const u = await db
    .updateTable('jobs')
    .set({ status: 'failed', error: 'interrupted', finished_at: now })
    .where('trans_id', '=', transId)
    .where('status', '=', 'running')
    .where((eb) => (heartbeatAt === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', heartbeatAt)))
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

export interface HistoryRow extends Job {
  filename: string | null;
  w: number | null;
  h: number | null;
}

export async function historyPage(
  db: Db,
  accountId: number,
  limit: number,
  offset: number,
): Promise<{ rows: HistoryRow[]; total: number }> {
  const total = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('jobs')
    .leftJoin('uploads', 'uploads.uid', 'jobs.uid')
    .selectAll('jobs')
    .select(['uploads.filename as filename', 'uploads.w as w', 'uploads.h as h'])
    .where('jobs.account_id', '=', accountId)
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.trans_id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows: rows as HistoryRow[], total: Number(total.n) };
}

export async function setThumbsup(db: Db, accountId: number, transId: string, value: number | null): Promise<boolean> {
  const u = await db
    .updateTable('jobs')
    .set({ thumbsup: value })
    .where('trans_id', '=', transId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(u.numUpdatedRows) === 1;
}

/** Failed works whose charge was never refunded (a crash between the two writes). */
export async function failedWithoutRefund(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .innerJoin('credit_ledger as c', (j) =>
      j.onRef('c.ref', '=', 'jobs.trans_id').on('c.kind', 'in', ['charge', 'compress_charge']),
    )
    .select('jobs.trans_id')
    .where('jobs.status', '=', 'failed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('credit_ledger as r')
            .select('r.id')
            .whereRef('r.ref', '=', 'jobs.trans_id')
            .where('r.kind', 'in', ['refund', 'compress_refund']),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.trans_id);
}
