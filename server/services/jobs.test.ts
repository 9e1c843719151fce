import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CODE } from '../../src/shared/domain/codes.js';
import { PLAN_ID_PRO } from '../../src/shared/domain/constants.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { fixture, guest, kitForEachTest, storeUpload, type ProcessingKit } from '../../tests/support/jobs.js';
import { detectScaleout } from '../../tests/support/modes.js';

const pg = await detectScaleout();
const MODES = [{ mode: 'sqlite' }, ...(pg.available ? [{ mode: 'postgres' }] : [])];
const COMPRESS = JSON.stringify({ job: 'compress' });

describe.each(MODES)('JobService.transform under concurrency ($mode)', ({ mode }) => {
  let kit!: ProcessingKit;
  // No runner: works stay queued, so every start below competes for the same slot.
  kitForEachTest(mode, pg.pgUrl, (k) => (kit = k));

  async function pro(maxNum: number) {
    const now = Date.now();
    const { id } = await kit.deps.db
      .insertInto('accounts')
      .values({
        kind: 'user',
        email: `p${now}@example.com`,
        pid: PLAN_ID_PRO,
        max_num: maxNum,
        compress_max: maxNum,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return kit.tokens.resolve(await kit.tokens.userTokenFor(id));
  }

  it('lets a guest hold one work at a time: concurrent starts queue one, refuse the rest for free', async () => {
    const p = await guest(kit);
    const uid = await storeUpload(kit, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => kit.jobs.transform(p, { uid, jconfig: COMPRESS })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
      expect(r.reason).toMatchObject({
        code: CODE.PARAM_ERROR,
        message: 'Only paid users can process multiple images at the same time',
      });
    const a = await kit.deps.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    expect(a.compress_used).toBe(1);
    expect(await kit.deps.db.selectFrom('credit_ledger').selectAll().execute()).toHaveLength(1);
  });

  it('lets a subscriber start up to the batch limit, never past the balance', async () => {
    const p = await pro(2);
    const uid = await storeUpload(kit, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => kit.jobs.transform(p, { uid, jconfig: COMPRESS })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
      expect(r.reason).toMatchObject({ code: CODE.INSUFFICIENT_CREDITS });
    const a = await kit.deps.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    expect([a.compress_used, a.compress_max]).toEqual([2, 2]);
  });

  it('refuses a subscriber past the batch limit', async () => {
    const p = await pro(100);
    const uid = await storeUpload(kit, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const batch = PLAN_LIMITS.pro.batch;
    for (let i = 0; i < batch; i++) await kit.jobs.transform(p, { uid, jconfig: COMPRESS });
    await expect(kit.jobs.transform(p, { uid, jconfig: COMPRESS })).rejects.toMatchObject({
      code: CODE.PARAM_ERROR,
      message: `At most ${batch} images can be processed at the same time`,
    });
    const a = await kit.deps.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', p.accountId)
      .executeTakeFirstOrThrow();
    expect(a.compress_used).toBe(batch);
  });

  it('refuses a non-compress work on an image above the plan resolution, but compresses it', async () => {
    const p = await guest(kit);
    const big = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#335577' } })
      .jpeg()
      .toBuffer();
    const uid = await storeUpload(kit, p.accountId, big, 'big.jpg');
    await expect(kit.jobs.transform(p, { uid, jconfig: JSON.stringify({ job: 'sharpen' }) })).rejects.toMatchObject({
      code: CODE.PARAM_ERROR,
      message: `The image is larger than ${PLAN_LIMITS.guest.maxMegapixels} MP, the limit of your plan`,
    });
    expect((await kit.jobs.transform(p, { uid, jconfig: COMPRESS })).trans_id).toBeTruthy();
  });

  it('answers what a start charged and what the paying pool has left', async () => {
    const p = await pro(10);
    const uid = await storeUpload(kit, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    expect(await kit.jobs.transform(p, { uid, jconfig: COMPRESS })).toMatchObject({ charged: 1, credits_left: 9 });
    const enlarge = JSON.stringify({ job: 'enlarge', config: { module_params: { scale: 2 } } });
    expect(await kit.jobs.transform(p, { uid, jconfig: enlarge })).toMatchObject({ charged: 1, credits_left: 9 });
    expect(await kit.jobs.transform(p, { uid, jconfig: COMPRESS })).toMatchObject({ charged: 1, credits_left: 8 });
  });

  it('pages the history newest first', async () => {
    const p = await pro(100);
    const uid = await storeUpload(kit, p.accountId, fixture('rocket.jpg'), 'rocket.jpg');
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await kit.jobs.transform(p, { uid, jconfig: COMPRESS })).trans_id);
    await kit.deps.db.updateTable('jobs').set({ created_at: 1 }).where('trans_id', '=', ids[0]!).execute();
    const page1 = await kit.jobs.history(p, { limit: 2, page: 1 });
    expect(page1).toMatchObject({ current_page: 1, total: 3, last_page: 2 });
    expect(page1.datas).toHaveLength(2);
    const page2 = await kit.jobs.history(p, { limit: 2, page: 2 });
    expect(page2.datas.map((d) => d.trans_id)).toEqual([ids[0]]);
    expect(page2.datas[0]).toMatchObject({ filename: 'rocket.jpg', w: 640, h: 427, status: 'queued', result_w: null });
    expect((await kit.jobs.history(p, { limit: 5000, page: 1 })).datas).toHaveLength(3);
  });
});
