import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, detectScaleout, type TestDatabase } from '../../tests/support/modes.js';
import { openDatabase, type Db } from './db.js';
import * as jobs from './jobRepository.js';

// the same queries against both databases; PostgreSQL's half is skipped where it does not answer
const pg = await detectScaleout();

const T0 = 1_700_000_000_000;

async function seed(db: Db): Promise<{ a: number; b: number }> {
  const [a, b] = await Promise.all(
    (['user', 'user'] as const).map(
      async (kind) =>
        (
          await db
            .insertInto('accounts')
            .values({ kind, created_at: T0, updated_at: T0 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
    ),
  );
  await db
    .insertInto('uploads')
    .values({
      uid: 'u1',
      account_id: a!,
      filename: 'cat.png',
      filesize: 10,
      w: 40,
      h: 30,
      format: 'png',
      status: 'ready',
      created_at: T0,
    })
    .execute();
  for (const [i, trans_id] of ['t1', 't2', 't3'].entries()) {
    await jobs.insertQueued(db, {
      trans_id,
      account_id: a!,
      uid: 'u1',
      job: 'compress',
      is_workflow: 0,
      steps_json: '[]',
      zoom_type: null,
      created_at: T0 + i,
    });
  }
  return { a: a!, b: b! };
}

function suite(name: string, available: boolean, open: () => Promise<Db>, close: () => Promise<void>) {
  describe.skipIf(!available)(`job repository on ${name}`, () => {
    let db: Db;
    let ids: { a: number; b: number };
    beforeAll(async () => {
      db = await open();
      ids = await seed(db);
    });
    afterAll(async () => {
      await db?.destroy();
      await close();
    });

    it('queues in order, counts and places works, and hands out the oldest not taken', async () => {
      expect(await jobs.countActive(db, ids.a)).toBe(3);
      expect(await jobs.countActive(db, ids.b)).toBe(0);
      const t2 = (await jobs.findJob(db, 't2'))!;
      expect(await jobs.queuePosition(db, t2)).toBe(2);
      expect(await jobs.nextQueued(db, [])).toBe('t1');
      expect(await jobs.nextQueued(db, ['t1'])).toBe('t2');
      expect(await jobs.findOwnedJob(db, ids.b, 't1')).toBeUndefined();
      expect(await jobs.findOwnedProgress(db, ids.a, 't1')).toEqual({
        trans_id: 't1',
        status: 'queued',
        progress: 0,
        step_index: 0,
        steps_json: '[]',
        error: null,
        result_w: null,
        result_h: null,
        enlarge_path: null,
        created_at: T0,
        uid: 'u1',
      });
      expect((await jobs.findAccount(db, ids.a)).id).toBe(ids.a);
    });

    it('lets one runner claim a work; only that runner writes its progress and finishes it', async () => {
      const claims = await Promise.all([jobs.claim(db, 't1', 'r1', T0 + 10), jobs.claim(db, 't1', 'r2', T0 + 10)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const holder = claims[0] ? 'r1' : 'r2';
      const other = holder === 'r1' ? 'r2' : 'r1';
      await jobs.writeProgress(db, 't1', other, 50, 1);
      expect((await jobs.findJob(db, 't1'))!.progress).toBe(0);
      await jobs.writeProgress(db, 't1', holder, 40, 0);
      await jobs.heartbeat(db, holder, ['t1'], T0 + 20);
      expect(await jobs.findJob(db, 't1')).toMatchObject({
        status: 'running',
        progress: 40,
        attempts: 1,
        runner_id: holder,
        heartbeat_at: T0 + 20,
      });
      const result = {
        resultKey: 'results/x.png',
        format: 'png',
        width: 80,
        height: 60,
        extras: { psd: 'results/x.psd' },
      };
      expect(await jobs.markFinished(db, 't1', other, result, 0, T0 + 30)).toBe(false);
      expect(await jobs.markFinished(db, 't1', holder, result, 0, T0 + 30)).toBe(true);
      expect(await jobs.findJob(db, 't1')).toMatchObject({
        status: 'finished',
        progress: 100,
        result_key: 'results/x.png',
        result_w: 80,
        extras_json: '{"psd":"results/x.psd"}',
        finished_at: T0 + 30,
      });
      expect(await jobs.markFailed(db, 't1', 'late', T0 + 40)).toBe(false);
      expect(await jobs.countActive(db, ids.a)).toBe(2);
    });

    it('finds orphans, requeues one only while its lease is unchanged, and fails one on its last attempt', async () => {
      expect(await jobs.claim(db, 't2', 'gone', T0 + 50)).toBe(true);
      expect(await jobs.claim(db, 't3', 'gone', T0 + 50)).toBe(true);
      expect(await jobs.orphanedJobs(db, 'me', T0 + 40)).toEqual([]);
      const orphans = await jobs.orphanedJobs(db, 'me', T0 + 60);
      expect(orphans.map((o) => o.trans_id).sort()).toEqual(['t2', 't3']);
      expect(await jobs.orphanedJobs(db, 'gone', Infinity)).toEqual([]);
      expect(await jobs.requeue(db, 't2', T0 + 49)).toBe(false);
      expect(await jobs.requeue(db, 't2', T0 + 50)).toBe(true);
      expect(await jobs.findJob(db, 't2')).toMatchObject({ status: 'queued', runner_id: null, heartbeat_at: null });
      expect(await jobs.failOrphan(db, 't3', T0 + 50, T0 + 70)).toBe(true);
      expect(await jobs.findJob(db, 't3')).toMatchObject({ status: 'failed', error: 'interrupted' });
    });

    it('finds a failed work whose charge was not refunded', async () => {
      await db
        .insertInto('credit_ledger')
        .values({ account_id: ids.a, ref: 't3', kind: 'charge', amount: -1, created_at: T0 })
        .execute();
      expect(await jobs.failedWithoutRefund(db)).toEqual(['t3']);
      await db
        .insertInto('credit_ledger')
        .values({ account_id: ids.a, ref: 't3', kind: 'refund', amount: 1, created_at: T0 })
        .execute();
      expect(await jobs.failedWithoutRefund(db)).toEqual([]);
    });

    it("pages the history newest first with the upload's name and size, and sets a rating on the owner's work only", async () => {
      const page = await jobs.historyPage(db, ids.a, 2, 0);
      expect(page.total).toBe(3);
      expect(page.rows.map((r) => [r.trans_id, r.filename, r.w, r.h])).toEqual([
        ['t3', 'cat.png', 40, 30],
        ['t2', 'cat.png', 40, 30],
      ]);
      expect((await jobs.historyPage(db, ids.a, 2, 2)).rows.map((r) => r.trans_id)).toEqual(['t1']);
      expect(await jobs.setThumbsup(db, ids.b, 't1', 1)).toBe(false);
      expect(await jobs.setThumbsup(db, ids.a, 't1', 1)).toBe(true);
      expect((await jobs.findJob(db, 't1'))!.thumbsup).toBe(1);
    });

    it('a queued work fails; a runner-bound failure needs the runner', async () => {
      expect(await jobs.claim(db, 't2', 'r9', T0 + 80)).toBe(true);
      expect(await jobs.markFailed(db, 't2', 'x'.repeat(600), T0 + 90, 'other')).toBe(false);
      expect(await jobs.markFailed(db, 't2', 'x'.repeat(600), T0 + 90, 'r9')).toBe(true);
      expect((await jobs.findJob(db, 't2'))!.error).toHaveLength(500);
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-jobrepo-'));
suite(
  'SQLite',
  true,
  () => openDatabase({ dataDir: dir, databaseUrl: undefined }),
  async () => fs.rmSync(dir, { recursive: true, force: true }),
);

let pgDb: TestDatabase | undefined;
suite(
  'PostgreSQL',
  pg.available,
  async () => {
    pgDb = await createTestDatabase(pg.pgUrl);
    return openDatabase({ dataDir: dir, databaseUrl: pgDb.url });
  },
  async () => pgDb?.drop(),
);
