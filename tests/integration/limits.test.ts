/**
 * Spec §4 level derivation and every §6 limit, enforced by the server over real HTTP (no UI involved).
 * The runner is off: a start that is accepted stays queued, which is all these rules need.
 */
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { creditCost } from '../../src/shared/domain/credits.js';
import { ENLARGE_MAX_SIDE_PX, PLAN_ID_BASIC, PLAN_ID_PRO } from '../../src/shared/domain/constants.js';
import { REASON } from '../../src/shared/domain/reasons.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import type { TestServer } from '../support/server.js';
import { Caller, fixture, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `limits-${tag}-${++n}@example.com`;
const jconf = (job: string, module_params: Record<string, unknown> = {}) =>
  JSON.stringify({ job, config: { module: job, module_params } });
const flow = (...modules: string[]) =>
  JSON.stringify({
    job: 'workflow',
    flows: modules.map((m) => ({ name: m, config: JSON.stringify({ module: m, module_params: {} }) })),
  });

async function uploadUid(c: Caller, name = 'rocket.jpg', job = 'enlarge', data = fixture(name)): Promise<string> {
  const r = await c.upload(data, name, job);
  if (r.body.code !== 200) throw new Error(`upload failed: ${JSON.stringify(r.body)}`);
  return r.body.data.data.uid;
}
const start = (c: Caller, uid: string, jconfig: string) => c.form('/web_api/v1/transform', { uid, jconfig });
const license = async (c: Caller) => (await c.form('/api/v2/license', { guest_token_v2: c.token }, false)).body.data;
const accountRow = (id: number) =>
  srv.ctx.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A solid JPEG of w×h (small on disk, large in pixels). */
const plainJpeg = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();
/** A PNG of noise: few pixels but many bytes. */
function noisePng(w: number, h: number): Promise<Buffer> {
  const px = randomBytes(w * h * 3);
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

describe('level derivation (spec §4) as the licence answers it', () => {
  it('guest, register, basic, pro, expired (flag, past end date, unknown plan id)', async () => {
    const g = await Caller.guest(srv);
    expect(await license(g)).toMatchObject({
      user_level: 'guest',
      pid: 0,
      is_expired: false,
      max_num: 3,
      left_credits: 3,
    });

    const u = await Caller.user(srv, email('reg'));
    expect(await license(u)).toMatchObject({
      user_level: 'register',
      pid: 0,
      max_num: 3,
      compress_max: PLAN_LIMITS.register.compressCredits,
    });

    const b = await Caller.user(srv, email('basic'), 'basic');
    expect(await license(b)).toMatchObject({ user_level: 'basic', pid: PLAN_ID_BASIC, left_credits: 200 });
    const p = await Caller.user(srv, email('pro'), 'pro');
    expect(await license(p)).toMatchObject({ user_level: 'pro', pid: PLAN_ID_PRO, left_credits: 500 });

    // is_expired wins over any plan id.
    await srv.ctx.db.updateTable('accounts').set({ is_expired: 1 }).where('id', '=', p.accountId).execute();
    expect(await license(p)).toMatchObject({ user_level: 'expired', is_expired: true });

    // Any other plan id derives to expired.
    const odd = await Caller.user(srv, email('odd'));
    await srv.ctx.db.updateTable('accounts').set({ pid: 12345 }).where('id', '=', odd.accountId).execute();
    expect((await license(odd)).user_level).toBe('expired');

    // A plan past its end date: expired, the plan's credits go and the guest-like allowance (3) comes, recorded once.
    const late = await Caller.user(srv, email('late'), 'basic');
    await srv.ctx.db
      .updateTable('accounts')
      .set({ plan_expires_at: Date.now() - 1000 })
      .where('id', '=', late.accountId)
      .execute();
    const [l1, l2] = await Promise.all([license(late), license(late)]);
    for (const l of [l1, l2])
      expect(l).toMatchObject({ user_level: 'expired', is_expired: true, left_credits: PLAN_LIMITS.expired.credits });
    // (the register credits expired when the account went on Basic; the end of Basic expires its 200, once)
    const expires = await srv.ctx.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('account_id', '=', late.accountId)
      .where('kind', '=', 'expire')
      .orderBy('id')
      .execute();
    expect(expires.map((e) => e.amount)).toEqual([PLAN_LIMITS.register.credits, 200]);
  });

  it('credits left = max_num − used_num floored at 0; the low-credit warning starts at 4 once some were spent', async () => {
    const b = await Caller.user(srv, email('floor'), 'basic');
    await srv.ctx.db.updateTable('accounts').set({ max_num: 10, used_num: 12 }).where('id', '=', b.accountId).execute();
    expect(await license(b)).toMatchObject({ left_credits: 0, low_credit_warning: true });
    await srv.ctx.db.updateTable('accounts').set({ max_num: 10, used_num: 6 }).where('id', '=', b.accountId).execute();
    expect(await license(b)).toMatchObject({ left_credits: 4, low_credit_warning: true });
    await srv.ctx.db.updateTable('accounts').set({ used_num: 5 }).where('id', '=', b.accountId).execute();
    expect(await license(b)).toMatchObject({ left_credits: 5, low_credit_warning: false });
  });
});

describe('limits enforced by the server (spec §5, §6)', () => {
  it("a guest's second concurrent image is refused, and costs nothing", async () => {
    const g = await Caller.guest(srv);
    const a = await uploadUid(g, 'rocket.jpg', 'sharpen');
    const b = await uploadUid(g, 'chelsea.png', 'sharpen');
    expect((await start(g, a, jconf('sharpen'))).body.code).toBe(200);
    expect((await start(g, b, jconf('sharpen'))).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'batchSubscribersOnly' },
    });
    expect((await license(g)).used_num).toBe(1);
  });

  it('concurrent starts: each trans_id charged once, never past the balance or the batch', async () => {
    // A guest firing five starts at once: one work, one credit.
    const g = await Caller.guest(srv);
    const uid = await uploadUid(g, 'rocket.jpg', 'sharpen');
    const guestTries = await Promise.all(Array.from({ length: 5 }, () => start(g, uid, jconf('sharpen'))));
    expect(guestTries.filter((r) => r.body.code === 200)).toHaveLength(1);
    expect((await license(g)).used_num).toBe(1);

    // A Basic user with 2 credits left starting the same work 5 times at once: two works, two charges.
    const b = await Caller.user(srv, email('race'), 'basic');
    await srv.ctx.db.updateTable('accounts').set({ max_num: 2, used_num: 0 }).where('id', '=', b.accountId).execute();
    const buid = await uploadUid(b, 'rocket.jpg', 'sharpen');
    const tries = await Promise.all(Array.from({ length: 5 }, () => start(b, buid, jconf('sharpen'))));
    const accepted = tries.filter((r) => r.body.code === 200).map((r) => r.body.data.trans_id as string);
    expect(accepted).toHaveLength(2);
    expect(new Set(accepted).size).toBe(2);
    expect(tries.filter((r) => r.body.code === CODE.INSUFFICIENT_CREDITS)).toHaveLength(3);
    const charges = await srv.ctx.db
      .selectFrom('credit_ledger')
      .select(['ref', 'kind'])
      .where('account_id', '=', b.accountId)
      .where('kind', '=', 'charge')
      .execute();
    expect(charges.map((c) => c.ref).sort()).toEqual([...accepted].sort());
    expect((await accountRow(b.accountId)).used_num).toBe(2);

    // The same trans_id charged concurrently (a retried start): taken once.
    const p = await Caller.user(srv, email('same'), 'pro');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        srv.ctx.services.credits.charge(p.accountId, 'retried-trans-id', creditCost({ job: 'enlarge' })),
      ),
    );
    expect(results.filter((r) => r.charged > 0)).toHaveLength(1);
    expect((await accountRow(p.accountId)).used_num).toBe(1);
  });

  it('batch: Basic runs 5 works at once, the 6th is refused; Pro runs 10', async () => {
    const b = await Caller.user(srv, email('batch'), 'basic');
    const uid = await uploadUid(b, 'rocket.jpg', 'sharpen');
    for (let i = 0; i < PLAN_LIMITS.basic.batch; i++)
      expect((await start(b, uid, jconf('sharpen'))).body.code).toBe(200);
    expect((await start(b, uid, jconf('sharpen'))).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'batchLimit', max: 5 },
    });
    expect((await license(b)).used_num).toBe(5);
    const p = await Caller.user(srv, email('batchpro'), 'pro');
    const puid = await uploadUid(p, 'rocket.jpg', 'sharpen');
    for (let i = 0; i < PLAN_LIMITS.pro.batch; i++)
      expect((await start(p, puid, jconf('sharpen'))).body.code).toBe(200);
    expect((await start(p, puid, jconf('sharpen'))).body.data).toMatchObject({ reason: 'batchLimit', max: 10 });
  });

  it('scales 4x and above: a Basic 4x enlarge is accepted, a register 4x refused, Pro 8x accepted', async () => {
    const r = await Caller.user(srv, email('reg4x'));
    const ruid = await uploadUid(r);
    expect((await start(r, ruid, jconf('enlarge', { scale: 4 }))).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'scaleSubscribersOnly' },
    });
    expect((await start(r, ruid, jconf('enlarge', { scale: 2 }))).body.code).toBe(200);

    const b = await Caller.user(srv, email('basic4x'), 'basic');
    const buid = await uploadUid(b);
    const ok4 = await start(b, buid, jconf('enlarge', { scale: 4 }));
    expect(ok4.body.code).toBe(200);
    const job = await srv.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('trans_id', '=', ok4.body.data.trans_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.steps_json)[0].config.module_params.scale).toBe(4);

    const p = await Caller.user(srv, email('pro8x'), 'pro');
    expect((await start(p, await uploadUid(p), jconf('enlarge', { scale: 8 }))).body.code).toBe(200);
    expect((await license(r)).used_num).toBe(1);
  });

  it('largest output: a scale whose result passes the largest side is refused with a reason code, no job and no credit; the scale that fits runs', async () => {
    const p = await Caller.user(srv, email('maxside'), 'pro');
    const uid = await uploadUid(p, 'wide.jpg', 'enlarge', await plainJpeg(4200, 1000)); // 4x would be 16800×4000
    const jobsOf = async () =>
      (await srv.ctx.db.selectFrom('jobs').select('trans_id').where('account_id', '=', p.accountId).execute()).length;
    const ledger = async () =>
      (
        await srv.ctx.db
          .selectFrom('credit_ledger')
          .select('id')
          .where('account_id', '=', p.accountId)
          .where('kind', '=', 'charge')
          .execute()
      ).length;
    const four = await start(p, uid, jconf('enlarge', { scale: 4 }));
    expect(four.body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'outputTooLarge', field: 'scale', w: 16800, h: 4000, max: ENLARGE_MAX_SIDE_PX },
    });
    // the same rule in a workflow's enlarge step and in a preset (se-hd enlarges 2x: 8200 px wide → 16400)
    const flow4 = JSON.stringify({
      job: 'workflow',
      flows: [
        { name: 'denoise', config: { module: 'denoise', module_params: {} } },
        { name: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } },
      ],
    });
    expect((await start(p, uid, flow4)).body.data).toMatchObject({ reason: 'outputTooLarge' });
    const wide = await uploadUid(p, 'pano.jpg', 'workflow', await plainJpeg(8200, 1000));
    expect((await start(p, wide, JSON.stringify({ job: 'se-hd' }))).body.data).toMatchObject({
      reason: 'outputTooLarge',
      w: 16400,
      h: 2000,
    });
    expect(await jobsOf()).toBe(0);
    expect(await ledger()).toBe(0);
    expect((await license(p)).used_num).toBe(0);
    const two = (await start(p, uid, jconf('enlarge', { scale: 2 }))).body;
    expect(two.code).toBe(200);
    expect(await jobsOf()).toBe(1);
    expect(await ledger()).toBe(1);
    // The history is the record a reloaded page reconciles with: the work's upload, status and scale.
    const hist = (await p.get('/api/job/record', { limit: '50' })).body.data.datas;
    expect(hist).toEqual([expect.objectContaining({ trans_id: two.data.trans_id, uid, status: 'queued', scale: 2 })]);
    expect(hist[0].reason).toBeUndefined();

    // A 4x work that failed in the engine before transform refused it: progress and history say why, as a code.
    await srv.ctx.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        error: 'the enlarged image would be 16800×4000 px; at most 16384 px a side can be produced',
        steps_json: JSON.stringify([{ name: 'enlarge', config: { module: 'enlarge', module_params: { scale: 4 } } }]),
      })
      .where('trans_id', '=', two.data.trans_id)
      .execute();
    expect((await p.get('/web_api/v1/progress', { trans_id: two.data.trans_id })).body.data).toMatchObject({
      status: 'fatal',
      reason: 'outputTooLarge',
    });
    expect((await p.get('/api/job/record')).body.data.datas[0]).toMatchObject({
      status: 'failed',
      scale: 4,
      reason: 'outputTooLarge',
    });
    await srv.ctx.db.updateTable('jobs').set({ error: 'timeout' }).where('trans_id', '=', two.data.trans_id).execute();
    expect((await p.get('/web_api/v1/progress', { trans_id: two.data.trans_id })).body.data).toMatchObject({
      status: 'fatal',
      reason: 'processTimeout',
    });
  });

  it('an empty file is refused as empty and a PNG declaring 50000×50000 as too large (not as a wrong type or damaged), naming the limit', async () => {
    const g = await Caller.guest(srv);
    expect((await g.upload(Buffer.alloc(0), 'empty.png', 'sharpen')).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'emptyFile' },
    });
    // A PNG signature and an IHDR chunk declaring 50000×50000, nothing after it.
    const ihdr = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(ihdr);
    ihdr.writeUInt32BE(50000, 16);
    ihdr.writeUInt32BE(50000, 20);
    ihdr[24] = 8;
    ihdr[25] = 2;
    for (const job of ['sharpen', 'compress'])
      expect((await g.upload(ihdr, 'huge.png', job)).body).toMatchObject({
        code: CODE.PARAM_ERROR,
        data: { reason: 'imageTooLarge', mp: expect.any(Number) },
      });
  });

  it('PSD and best colorize are Pro only', async () => {
    const b = await Caller.user(srv, email('psd'), 'basic');
    const uid = await uploadUid(b, 'rocket.jpg', 'colorize');
    expect((await start(b, uid, jconf('colorize', { psd: true }))).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      msg: REASON.psdProOnly,
      data: { reason: 'psdProOnly', field: 'jconfig' },
    });
    expect((await start(b, uid, jconf('colorize', { isBest: true }))).body.data).toMatchObject({
      reason: 'bestColorizeProOnly',
    });
    expect((await start(b, uid, jconf('colorize_pro'))).body.data).toMatchObject({ reason: 'bestColorizeProOnly' });
    expect((await license(b)).used_num).toBe(0);
    const p = await Caller.user(srv, email('psdpro'), 'pro');
    const puid = await uploadUid(p, 'rocket.jpg', 'colorize');
    expect((await start(p, puid, jconf('colorize', { psd: true }))).body.code).toBe(200);
    expect((await start(p, puid, jconf('colorize_pro', { psd: true }))).body.code).toBe(200);
  });

  it('workflow steps: 3 for Basic, 5 for Pro — on transform and on saved workflows', async () => {
    const four = flow('denoise', 'sharpen', 'denoise', 'enlarge');
    const b = await Caller.user(srv, email('steps'), 'basic');
    const uid = await uploadUid(b, 'rocket.jpg', 'workflow');
    expect((await start(b, uid, four)).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'tooManySteps', max: 3 },
    });
    expect((await start(b, uid, flow('denoise', 'sharpen', 'enlarge'))).body.code).toBe(200);
    const saved = await b.form('/api/work_flow/add', { name: 'four', flows: JSON.stringify(JSON.parse(four).flows) });
    expect(saved.body.data).toMatchObject({ reason: 'tooManySteps', max: 3 });
    const p = await Caller.user(srv, email('stepspro'), 'pro');
    const puid = await uploadUid(p, 'rocket.jpg', 'workflow');
    expect((await start(p, puid, flow('denoise', 'sharpen', 'denoise', 'sharpen', 'enlarge'))).body.code).toBe(200);
    expect(
      (await start(p, puid, flow('denoise', 'sharpen', 'denoise', 'sharpen', 'denoise', 'enlarge'))).body.data,
    ).toMatchObject({ reason: 'tooManySteps', max: 5 });
  });

  it('resolution: above 2.8 MP refused for free levels, accepted for Basic (14 MP)', async () => {
    const img = await plainJpeg(2400, 1600); // 3.84 MP
    const g = await Caller.guest(srv);
    expect((await g.upload(img, 'wide.jpg', 'sharpen')).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'imageTooLarge' },
    });
    const b = await Caller.user(srv, email('mp'), 'basic');
    const uid = await uploadUid(b, 'wide.jpg', 'sharpen', img);
    expect((await start(b, uid, jconf('sharpen'))).body.code).toBe(200);
    // An upload made on a plan that then expired is refused on start (guest-like limits).
    await srv.ctx.services.accounts.expirePlan(b.accountId);
    expect((await start(b, uid, jconf('sharpen'))).body.data).toMatchObject({ reason: 'planMegapixels', mp: 2.8 });
  });

  it('file size: above 5 MB refused for free levels, accepted for paid (10 MB; compress 50 MB)', async () => {
    const big = await noisePng(1600, 1500); // 2.4 MP, ~7 MB
    expect(big.length).toBeGreaterThan(PLAN_LIMITS.guest.maxFileBytes);
    expect(big.length).toBeLessThan(PLAN_LIMITS.basic.maxFileBytes);
    const r = await Caller.user(srv, email('size'));
    expect((await r.upload(big, 'noise.png', 'sharpen')).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'fileTooLarge' },
    });
    expect((await r.upload(big, 'noise.png', 'compress')).body).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'fileTooLarge' },
    });
    const b = await Caller.user(srv, email('sizeb'), 'basic');
    expect((await b.upload(big, 'noise.png', 'sharpen')).body.code).toBe(200);
    expect((await b.upload(big, 'noise.png', 'compress')).body.code).toBe(200);
  });

  it('compress credits: 5 for guests, 100 for register, drawn separately from image credits', async () => {
    const g = await Caller.guest(srv);
    expect(await license(g)).toMatchObject({ compress_max: PLAN_LIMITS.guest.compressCredits });
    const r = await Caller.user(srv, email('cc'));
    await srv.ctx.db
      .updateTable('accounts')
      .set({ compress_used: PLAN_LIMITS.register.compressCredits - 1 })
      .where('id', '=', r.accountId)
      .execute();
    const uid = await uploadUid(r, 'rocket.jpg', 'compress');
    expect((await start(r, uid, jconf('compress', { quality: 50 }))).body.code).toBe(200);
    await srv.ctx.db.updateTable('jobs').set({ status: 'finished' }).where('account_id', '=', r.accountId).execute();
    expect((await start(r, uid, jconf('compress', { quality: 50 }))).body.code).toBe(CODE.INSUFFICIENT_CREDITS);
    expect(await license(r)).toMatchObject({
      compress_used: PLAN_LIMITS.register.compressCredits,
      used_num: 0,
      left_credits: 3,
    });
  });

  it('an expired plan: the guest-like allowance, level expired, guest limits — once spent a start answers 10012', async () => {
    const p = await Caller.user(srv, email('exp'), 'pro');
    const uid = await uploadUid(p);
    await srv.ctx.services.accounts.expirePlan(p.accountId);
    expect(await license(p)).toMatchObject({ user_level: 'expired', left_credits: PLAN_LIMITS.expired.credits });
    expect((await start(p, uid, jconf('enlarge', { scale: 8 }))).body.data).toMatchObject({
      reason: 'scaleSubscribersOnly',
    });
    await srv.ctx.db
      .updateTable('accounts')
      .set({ used_num: sql<number>`max_num` })
      .where('id', '=', p.accountId)
      .execute();
    expect((await start(p, uid, jconf('sharpen'))).body).toMatchObject({
      code: CODE.INSUFFICIENT_CREDITS,
      data: { reason: 'insufficientCredits' },
    });
    // Guest-like compress allowance remains.
    expect((await license(p)).compress_max - (await license(p)).compress_used).toBe(
      PLAN_LIMITS.expired.compressCredits,
    );
  });
});
