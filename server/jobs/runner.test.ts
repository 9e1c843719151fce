import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CODE } from '../../src/shared/domain/codes.js';
import {
  bigJpeg,
  fixture,
  guest,
  ledger,
  processingKit,
  storeUpload,
  waitForEnd,
  type ProcessingKit,
} from '../../tests/support/jobs.js';
import { createTestDatabase, detectScaleout } from '../../tests/support/modes.js';
import { LEASE_STALE_MS } from './runner.js';

const pg = await detectScaleout();

let kits: ProcessingKit[] = [];
async function kit(overrides: Parameters<typeof processingKit>[0] = {}) {
  const k = await processingKit(overrides);
  kits.push(k);
  return k;
}
afterEach(async () => {
  for (const k of kits.splice(0)) await k.close();
});

const COMPRESS = JSON.stringify({ job: 'compress', config: { module: 'compress', module_params: { quality: 50 } } });

describe('job runner', () => {
  it('runs a compress work to a smaller JPEG and charges one compress credit', async () => {
    const k = await kit();
    await k.jobs.startRunner();
    const p = await guest(k);
    const input = fixture('rocket.jpg');
    const uid = await storeUpload(k, p.accountId, input, 'rocket.jpg');
    const { trans_id } = await k.jobs.transform(p, { uid, jconfig: COMPRESS });
    const job = await waitForEnd(k, trans_id);
    expect(job.status).toBe('finished');
    expect(job.attempts).toBe(1);
    const out = await k.deps.blobs.read(job.result_key!);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([640, 427]);
    expect([job.result_w, job.result_h]).toEqual([640, 427]);
    expect(out.length).toBeLessThan(input.length);
    expect(await ledger(k, trans_id)).toEqual([{ kind: 'compress_charge', amount: 1 }]);
    expect(await k.jobs.progress(p, trans_id)).toMatchObject({ status: 'finish', progress: 100, step: 1, steps: 1 });
  });

  it('fails an engine error and refunds exactly once', async () => {
    const k = await kit();
    await k.jobs.startRunner();
    const p = await guest(k);
    const uid = await storeUpload(k, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    // The working copy gets truncated after upload: the engine's decoder must refuse it.
    const up = await k.deps.db
      .selectFrom('uploads')
      .select('blob_key')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    await k.deps.blobs.write(up.blob_key!, fixture('rocket.jpg').subarray(0, 4000));
    const { trans_id } = await k.jobs.transform(p, { uid, jconfig: COMPRESS });
    const job = await waitForEnd(k, trans_id);
    expect(job.status).toBe('failed');
    expect(await ledger(k, trans_id)).toEqual([
      { kind: 'compress_charge', amount: 1 },
      { kind: 'compress_refund', amount: 1 },
    ]);
    expect(await k.jobs.progress(p, trans_id)).toMatchObject({ status: 'fatal', error: 'Process failed' });
    const a = await k.deps.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    expect(a.compress_used).toBe(0);
  });

  it('kills a work past the time limit, refunds it and replaces the thread', async () => {
    const k = await kit({ jobTimeoutMs: 30 });
    await k.jobs.startRunner();
    const p = await guest(k);
    const uid = await storeUpload(k, p.accountId, await bigJpeg(), 'elephants.jpg');
    const { trans_id } = await k.jobs.transform(p, { uid, jconfig: COMPRESS });
    const job = await waitForEnd(k, trans_id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('timeout');
    expect((await ledger(k, trans_id)).map((r) => r.kind)).toEqual(['compress_charge', 'compress_refund']);
    expect(await k.jobs.progress(p, trans_id)).toMatchObject({ status: 'fatal', error: 'timeout' });
    // The replacement thread runs the next work (a small one that fits in the limit is not
    // guaranteed at 30 ms, so only the thread count is checked).
    while (k.jobs.runnerThreads < 1) await new Promise((r) => setTimeout(r, 20));
    expect(k.jobs.runnerThreads).toBe(1);
  });

  it('retries a work left running by a stopped process, once', async () => {
    const first = await kit();
    const p = await guest(first);
    const uid = await storeUpload(first, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const { trans_id } = await first.jobs.transform(p, { uid, jconfig: COMPRESS });
    const again = (await first.jobs.transform(p, { uid, jconfig: COMPRESS }).catch((e) => e)) as { code: number };
    expect(again.code).toBe(CODE.PARAM_ERROR);
    // What a process killed mid-work leaves behind.
    await first.deps.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, progress: 40 })
      .where('trans_id', '=', trans_id)
      .execute();
    await first.close({ keepData: true });
    kits = kits.filter((x) => x !== first);

    const second = await kit({ dataDir: first.dataDir });
    await second.jobs.startRunner();
    const job = await waitForEnd(second, trans_id);
    expect(job.status).toBe('finished');
    expect(job.attempts).toBe(2);
    expect((await ledger(second, trans_id)).map((r) => r.kind)).toEqual(['compress_charge']);
  });

  it('fails and refunds a work interrupted on its second attempt', async () => {
    const k = await kit();
    const p = await guest(k);
    const uid = await storeUpload(k, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const { trans_id } = await k.jobs.transform(p, { uid, jconfig: COMPRESS });
    await k.deps.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 2 })
      .where('trans_id', '=', trans_id)
      .execute();
    await k.jobs.startRunner();
    const job = await waitForEnd(k, trans_id);
    expect([job.status, job.error]).toEqual(['failed', 'interrupted']);
    expect((await ledger(k, trans_id)).map((r) => r.kind)).toEqual(['compress_charge', 'compress_refund']);
  });

  it('refuses an unknown module or params outside the schema before charging or queueing', async () => {
    const k = await kit();
    const p = await guest(k);
    const uid = await storeUpload(k, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    for (const jconfig of [
      { job: 'nope' },
      { job: 'sharpen', config: { module: 'sharpen', module_params: { sharpness: 101 } } },
    ]) {
      const err = (await k.jobs.transform(p, { uid, jconfig: JSON.stringify(jconfig) }).catch((e) => e)) as {
        code: number;
      };
      expect(err.code).toBe(CODE.PARAM_ERROR);
    }
    expect(await k.deps.db.selectFrom('credit_ledger').selectAll().execute()).toEqual([]);
    expect(await k.deps.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });

  it('answers a foreign uid and trans_id like missing ones', async () => {
    const k = await kit();
    const a = await guest(k);
    const b = await guest(k);
    const uid = await storeUpload(k, a.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    await expect(k.jobs.transform(b, { uid, jconfig: COMPRESS })).rejects.toMatchObject({
      code: CODE.PARAM_ERROR,
      httpStatus: 404,
    });
    const { trans_id } = await k.jobs.transform(a, { uid, jconfig: COMPRESS });
    await expect(k.jobs.progress(b, trans_id)).rejects.toMatchObject({ code: CODE.PARAM_ERROR, httpStatus: 404 });
    await expect(k.jobs.thumbsup(b, { trans_id, thumbsup: 1 })).rejects.toMatchObject({ httpStatus: 404 });
    expect(await k.jobs.progress(a, trans_id)).toMatchObject({ status: 'progress', queue_position: 1 });
  });
});

describe.skipIf(!pg.available)('job runner on a shared PostgreSQL database', () => {
  it("recovers only works whose runner's lease went stale, never a live runner's", async () => {
    const db = await createTestDatabase(pg.pgUrl);
    try {
      const k = await kit({ databaseUrl: db.url });
      const p = await guest(k);
      const uid = await storeUpload(k, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
      await k.deps.db.updateTable('accounts').set({ pid: 11043, kind: 'user' }).where('id', '=', p.accountId).execute();
      const pro = await k.tokens.resolve(p.token);
      const live = (await k.jobs.transform(pro, { uid, jconfig: COMPRESS })).trans_id;
      const dead = (await k.jobs.transform(pro, { uid, jconfig: COMPRESS })).trans_id;
      const now = Date.now();
      // Another runner holds `live` (fresh lease) and held `dead` (lease far older than the stale limit).
      await k.deps.db
        .updateTable('jobs')
        .set({ status: 'running', attempts: 1, runner_id: 'other-live', heartbeat_at: now })
        .where('trans_id', '=', live)
        .execute();
      await k.deps.db
        .updateTable('jobs')
        .set({ status: 'running', attempts: 1, runner_id: 'other-dead', heartbeat_at: now - LEASE_STALE_MS * 2 })
        .where('trans_id', '=', dead)
        .execute();
      await k.jobs.startRunner();
      expect((await waitForEnd(k, dead)).status).toBe('finished');
      const stillLive = await k.deps.db
        .selectFrom('jobs')
        .selectAll()
        .where('trans_id', '=', live)
        .executeTakeFirstOrThrow();
      expect([stillLive.status, stillLive.runner_id]).toEqual(['running', 'other-live']);
      await k.close();
      kits = kits.filter((x) => x !== k);
    } finally {
      await db.drop();
    }
  });
});
