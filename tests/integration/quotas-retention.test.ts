/**
 * Public-internet limits over real HTTP, in the suite's mode (PIXMILL_TEST_MODE=scaleout → PostgreSQL
 * + BullMQ): upload rate and storage quotas, side limits, strict params, bounded jconfig, concurrent
 * slices, and the retention sweep (blobs gone from disk, clear "expired" answers, fresh works kept).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CHUNK_SIZE_BYTES } from '../../src/shared/domain/constants.js';
import { PLAN_LIMITS, UPLOAD_QUOTAS } from '../../src/shared/domain/plans.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { RetentionService } from '../../server/services/retention.js';
import { Caller, craftedPng, fixture } from './api-helpers.js';
import { until } from './until.js';
import { Client, COMPRESS } from './processing-helpers.js';

const DAY = 24 * 3600_000;
const GUEST = UPLOAD_QUOTAS.guest;

let srv: TestServer;
beforeAll(async () => {
  // The timer is off: the tests run the sweep themselves.
  srv = await startTestServer({ retentionIntervalMs: 0 });
});
afterAll(() => srv?.stop());

const png = (w: number, h: number, color = '#3a6') =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();

describe('upload quotas', () => {
  it(`a guest may start ${GUEST.uploadsPerMinute} uploads a minute; a burst beyond is refused with its own text, even when concurrent`, async () => {
    const g = await Caller.guest(srv);
    const img = await png(16, 16);
    const answers = await Promise.all(
      Array.from({ length: GUEST.uploadsPerMinute + 10 }, (_, i) => g.upload(img, `p${i}.png`)),
    );
    const ok = answers.filter((a) => a.body.code === 200);
    const refused = answers.filter((a) => a.body.code !== 200);
    expect(ok).toHaveLength(GUEST.uploadsPerMinute);
    expect(refused).toHaveLength(10);
    for (const r of refused)
      expect(r.body).toMatchObject({
        code: 10001,
        msg: `Too many uploads: your plan allows ${GUEST.uploadsPerMinute} images a minute. Please wait a moment and try again.`,
      });
    // A sliced upload counts too; another token is not affected.
    const slice = await g.multipart(
      '/api/v2/upload_slice',
      { blob_num: '1', total_blob_num: '1', name: 'x.png', job: 'enlarge' },
      { file: { data: img, name: 'blob' } },
    );
    expect(slice.body.code).toBe(10001);
    expect(slice.body.data).toMatchObject({ reason: 'uploadRateLimited' });
    expect((await (await Caller.guest(srv)).upload(img, 'other.png')).body.code).toBe(200);
    const rows = await srv.ctx.db
      .selectFrom('uploads')
      .select('uid')
      .where('account_id', '=', (await srv.ctx.services.tokens.resolve(g.token)).accountId)
      .execute();
    expect(rows).toHaveLength(GUEST.uploadsPerMinute);
  });

  it('bytes kept are capped per level: over the guest storage quota → refused; deleting makes room', async () => {
    const g = await Caller.guest(srv);
    const first = await g.upload(fixture('rocket.jpg'), 'rocket.jpg');
    expect(first.body.code).toBe(200);
    const uid = first.body.data.data.uid;
    // As if the account already kept nearly its quota.
    await srv.ctx.db
      .updateTable('uploads')
      .set({ received_bytes: GUEST.storedBytes - 1000 })
      .where('uid', '=', uid)
      .execute();
    const over = await g.upload(fixture('rocket.jpg'), 'again.jpg');
    expect(over.body).toMatchObject({ code: 10001, data: { reason: 'storageFull', limit: '200 MB' } });
    const slice = await g.multipart(
      '/api/v2/upload_slice',
      { blob_num: '1', total_blob_num: '1', name: 'r.jpg', job: 'enlarge' },
      { file: { data: fixture('rocket.jpg'), name: 'blob' } },
    );
    expect(slice.body.data).toMatchObject({ reason: 'storageFull' });
    expect((await g.form('/web_api/v1/upload/delete', { uid })).body.code).toBe(200);
    expect((await g.upload(fixture('rocket.jpg'), 'again.jpg')).body.code).toBe(200);
  });

  it('GET /api/v2/retention and upload/list tell the caller how long things are kept', async () => {
    const g = await Caller.guest(srv);
    const r = await g.get('/api/v2/retention');
    expect(r.body).toMatchObject({
      code: 200,
      data: {
        level: 'guest',
        retention_days: 7,
        unfinished_upload_hours: 24,
        uploads_per_minute: GUEST.uploadsPerMinute,
        stored_bytes_limit: GUEST.storedBytes,
        stored_bytes_used: 0,
      },
    });
    expect((await g.form('/web_api/v1/upload/list')).body.data).toMatchObject({ datas: [], retention_days: 7 });
    const pro = await Caller.user(srv, 'retention-view@example.com', 'pro');
    expect((await pro.get('/api/v2/retention')).body.data).toMatchObject({ level: 'pro', retention_days: 30 });
    const free = await Caller.user(srv, 'retention-free@example.com');
    expect((await free.get('/api/v2/retention')).body.data).toMatchObject({ level: 'register', retention_days: 14 });
  });
});

describe('plan limits (the megapixels 2.8 / 14 / 34 bind; side caps derived from them)', () => {
  const GUEST_SIDE = PLAN_LIMITS.guest.maxSidePx;
  const BASIC_SIDE = PLAN_LIMITS.basic.maxSidePx;
  it('a 1×2,000,000 PNG (under 2.8 MP) and a strip one pixel over the derived side are refused for a guest; Basic takes it, not one over its own', async () => {
    const g = await Caller.guest(srv);
    expect((await g.upload(craftedPng(1, 2_000_000), 'line.png')).body).toMatchObject({
      code: 10001,
      data: { reason: 'imageTooLarge' },
    });
    const wide = await png(GUEST_SIDE + 1, 100);
    expect((await g.upload(wide, 'wide.png')).body).toMatchObject({ code: 10001, data: { reason: 'imageTooLarge' } });
    const slice = await g.multipart(
      '/api/v2/upload_slice',
      { blob_num: '1', total_blob_num: '1', name: 'w.png', job: 'enlarge' },
      { file: { data: wide, name: 'blob' } },
    );
    expect(slice.body).toMatchObject({ code: 10001, data: { reason: 'imageTooLarge' } });
    // the 2000 px side of the spec's "2000x2000" no longer cuts a 2.4 MP picture
    expect((await g.upload(await png(2400, 1000), 'wide24.png')).body.code).toBe(200);
    // compress has its own limits (file size), not the side limit
    expect((await g.upload(wide, 'wide.png', 'compress')).body.code).toBe(200);
    const basic = await Caller.user(srv, 'side-basic@example.com', 'basic');
    expect((await basic.upload(wide, 'wide.png')).body.code).toBe(200);
    expect((await basic.upload(await png(BASIC_SIDE + 1, 100), 'wider.png')).body).toMatchObject({
      code: 10001,
      data: { reason: 'imageTooLarge' },
    });
  });

  it('the megapixel limit is the one the plan page shows: Basic refuses 14.1 MP, Pro takes 29 MP', async () => {
    const basic = await Caller.user(srv, 'mp-basic@example.com', 'basic');
    expect((await basic.upload(await png(4600, 3066), 'over14.png')).body).toMatchObject({
      code: 10001,
      data: { reason: 'imageTooLarge' },
    });
    expect((await basic.upload(await png(4582, 3055), 'at14.png')).body.code).toBe(200);
    const pro = await Caller.user(srv, 'mp-pro@example.com', 'pro');
    const r = await pro.upload(await png(6992, 4144), 'pro29.png');
    expect(r.body).toMatchObject({ code: 200, data: { data: { w: 6992, h: 4144 } } });
  });

  it('an image uploaded for compress cannot then be processed past the side limit', async () => {
    const c = await Client.guest(srv);
    const uid = await c.upload(await png(GUEST_SIDE + 1, 100), 'wide.png', 'compress');
    const r = await c.transform(uid, { job: 'denoise' });
    expect(r.body).toMatchObject({
      code: 10001,
      msg: `The image is longer than ${GUEST_SIDE} px on a side, the limit of your plan`,
    });
  });
});

describe('strict params and plan gating on transform', () => {
  it('arrays, hex and odd strings are not numbers; best quality and 4x+ are for subscribers', async () => {
    const c = await Client.guest(srv);
    const uid = await c.upload(await png(32, 32), 'p.png', 'enlarge');
    const scale = { reason: 'paramInvalid', module: 'enlarge', param: 'scale', allowed: [2, 4, 6, 8] };
    const noise = { reason: 'paramInvalid', module: 'denoise', param: 'remove_noise', min: 0, max: 100 };
    const cases: [unknown, Record<string, unknown>][] = [
      [{ job: 'enlarge', config: { module_params: { scale: [2] } } }, scale],
      [{ job: 'enlarge', config: { module_params: { scale: '0x10' } } }, scale],
      [{ job: 'denoise', config: { module_params: { remove_noise: '0x10' } } }, noise],
      [{ job: 'denoise', config: { module_params: { remove_noise: [50] } } }, noise],
      [{ job: 'denoise', config: { module_params: { remove_noise: '1e1' } } }, noise],
      [{ job: 'enlarge', config: { module_params: { quality: 'best' } } }, { reason: 'bestEnlargeSubscribersOnly' }],
      [
        { job: 'enlarge', config: { module_params: { scale: '4x' } } },
        { reason: 'scaleSubscribersOnly', scale: 4 },
      ],
      [
        { job: 'enlarge', config: { module_params: { scale: 4 } } },
        { reason: 'scaleSubscribersOnly', scale: 4 },
      ],
    ];
    for (const [jconfig, data] of cases)
      expect((await c.transform(uid, jconfig)).body, JSON.stringify(jconfig)).toMatchObject({
        code: 10001,
        data: { field: 'jconfig', ...data },
      });
    // Nothing was charged for the refusals.
    expect((await c.license()).used_num).toBe(0);
  });

  it('a Basic subscriber may ask for best quality and "4x"', async () => {
    const basic = await Caller.user(srv, 'strict-basic@example.com', 'basic');
    const c = new Client(srv, basic.token);
    const uid = await c.upload(await png(32, 32), 'p.png', 'enlarge');
    const r = await c.transform(uid, { job: 'enlarge', config: { module_params: { quality: 'best', scale: '4x' } } });
    expect(r.body.code, r.body.msg).toBe(200);
    const job = await srv.ctx.db
      .selectFrom('jobs')
      .select('steps_json')
      .where('trans_id', '=', r.body.data.trans_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.steps_json)[0].config.module_params).toMatchObject({ quality: 'best', scale: 4 });
  });

  it('a jconfig nested 100,000 deep or over 16 KB is refused with 10001, as a form field and as a JSON body', async () => {
    const c = await Client.guest(srv);
    const uid = await c.upload(await png(32, 32), 'p.png', 'compress');
    const deepText = '['.repeat(100_000) + ']'.repeat(100_000);
    // (a form body this size may already be refused by the server's body limits — 10001 either way, never 500)
    const deepForm = await c.post('/web_api/v1/transform', { uid, jconfig: deepText });
    expect(deepForm.status).toBeLessThan(500);
    expect(deepForm.body.code).toBe(10001);
    const nine = '{"a":'.repeat(9) + '1' + '}'.repeat(9);
    expect((await c.post('/web_api/v1/transform', { uid, jconfig: nine })).body).toMatchObject({
      code: 10001,
      data: { reason: 'jconfigTooDeep', max: 8 },
    });
    const asBody = await fetch(`${srv.url}/web_api/v1/transform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"user_token":"${c.token}","uid":"${uid}","jconfig":${deepText}}`,
    });
    const body = (await asBody.json()) as { code: number };
    expect(asBody.status).toBeLessThan(500);
    expect(body.code).toBe(10001);
    const wide = JSON.stringify({ job: 'compress', pad: 'x'.repeat(17_000) });
    expect((await c.post('/web_api/v1/transform', { uid, jconfig: wide })).body).toMatchObject({
      code: 10001,
      data: { reason: 'jconfigTooLarge', max: 16 },
    });
    expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
  });
});

describe('concurrent slices', () => {
  it('the last slice sent 6 times at once: every copy answers the same finished upload; one row, no stray blobs', async () => {
    const pro = await Caller.user(srv, 'slices-race@example.com', 'pro');
    // every slice but the last is exactly the slice size: a 16 MB photo in four
    const bytes = fixture('elephants-5640x3172.jpg');
    const parts: Buffer[] = [];
    for (let o = 0; o < bytes.length; o += CHUNK_SIZE_BYTES) parts.push(bytes.subarray(o, o + CHUNK_SIZE_BYTES));
    const total = parts.length;
    expect(total).toBe(4);
    const send = (n: number, data: Buffer, uid?: string) =>
      pro.multipart(
        '/api/v2/upload_slice',
        {
          blob_num: String(n),
          total_blob_num: String(total),
          name: 'elephants.jpg',
          job: 'compress',
          ...(uid ? { uid } : {}),
        },
        { file: { data, name: 'blob' } },
      );
    const start = await send(1, parts[0]!);
    expect(start.body.code, start.body.msg).toBe(200);
    const uid = start.body.data.uid as string;
    const middle = await Promise.all(Array.from({ length: 6 }, () => send(2, parts[1]!, uid)));
    for (const m of middle) expect(m.body).toMatchObject({ code: 200, data: { uid, received: [1, 2], done: false } });
    expect((await send(3, parts[2]!, uid)).body.data).toMatchObject({ received: [1, 2, 3], done: false });
    const last = await Promise.all(Array.from({ length: 6 }, () => send(4, parts[3]!, uid)));
    const first = last[0]!.body.data;
    expect(first).toMatchObject({ uid, done: true, received: [1, 2, 3, 4], filesize: bytes.length });
    for (const l of last) {
      expect(l.status).toBe(200);
      expect(l.body.code, l.body.msg).toBe(200);
      expect(l.body.data).toMatchObject({ uid, done: true, sha256: first.sha256, w: first.w, h: first.h });
    }
    const rows = await srv.ctx.db.selectFrom('upload_chunks').selectAll().where('uid', '=', uid).execute();
    expect(rows.map((r) => r.blob_num).sort()).toEqual([1, 2, 3, 4]);
    for (const r of rows) expect(await srv.ctx.blobs.exists(r.blob_key!)).toBe(false);
    const up = await srv.ctx.db.selectFrom('uploads').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    expect(up).toMatchObject({ status: 'ready', received_bytes: bytes.length, filesize: bytes.length });
    expect((await srv.ctx.blobs.read(up.original_key!)).equals(bytes)).toBe(true);
  });
});

describe('retention', () => {
  async function finishedWork(c: Client, name: string) {
    const uid = await c.upload(fixture('rocket.jpg'), name);
    const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id as string;
    expect((await c.waitEnd(transId)).data.status).toBe('finish');
    return { uid, transId };
  }
  const age = async (w: { uid: string; transId: string }, days: number) => {
    const at = Date.now() - days * DAY;
    await srv.ctx.db.updateTable('jobs').set({ created_at: at }).where('trans_id', '=', w.transId).execute();
    await srv.ctx.db.updateTable('uploads').set({ created_at: at }).where('uid', '=', w.uid).execute();
  };
  const blobsOf = async (w: { uid: string; transId: string }) => {
    const job = await srv.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('trans_id', '=', w.transId)
      .executeTakeFirstOrThrow();
    const up = await srv.ctx.db.selectFrom('uploads').selectAll().where('uid', '=', w.uid).executeTakeFirstOrThrow();
    return [job.result_key, up.blob_key, up.original_key, up.thumb_key].filter((k): k is string => !!k);
  };

  it("a guest's work older than 7 days loses result, source and thumbnail; its download answers 'expired'; a fresh work and a subscriber's survive", async () => {
    const c = await Client.guest(srv);
    const old = await finishedWork(c, 'old.jpg');
    const fresh = await finishedWork(c, 'fresh.jpg');
    const pro = new Client(srv, (await Caller.user(srv, 'retention-pro@example.com', 'pro')).token);
    const proOld = await finishedWork(pro, 'pro-old.jpg');
    const oldBlobs = await blobsOf(old);
    expect(oldBlobs).toHaveLength(4);
    await age(old, 8);
    await age(proOld, 8);

    const report = await srv.ctx.services.retention.sweep();
    expect(report.works).toBeGreaterThanOrEqual(1);
    expect(report.uploads).toBeGreaterThanOrEqual(1);
    for (const k of oldBlobs) expect(await srv.ctx.blobs.exists(k), k).toBe(false);

    const dl = await c.raw('/web_api/v1/download/', { trans_id: old.transId, user_token: c.token });
    expect(dl.status).toBe(410);
    expect(await dl.json()).toMatchObject({ code: 10001, data: { reason: 'workExpired', days: 7 } });
    const src = await c.raw('/web_api/v1/download/src', { uid: old.uid, user_token: c.token });
    expect(src.status).toBe(410);
    expect(await src.json()).toMatchObject({ code: 10001, data: { reason: 'uploadExpired' } });
    const history = await c.get('/api/job/record', { limit: '10' });
    const byId = new Map(history.body.data.datas.map((d: { trans_id: string }) => [d.trans_id, d]));
    expect(byId.get(old.transId)).toMatchObject({ expired: true });
    expect(byId.get(fresh.transId)).toMatchObject({ expired: false });

    for (const k of await blobsOf(fresh)) expect(await srv.ctx.blobs.exists(k)).toBe(true);
    expect((await c.raw('/web_api/v1/download/', { trans_id: fresh.transId, user_token: c.token })).status).toBe(200);
    // 8 days is within a subscriber's 30.
    expect((await pro.raw('/web_api/v1/download/', { trans_id: proOld.transId, user_token: pro.token })).status).toBe(
      200,
    );
    await age(proOld, 31);
    await srv.ctx.services.retention.sweep();
    expect((await pro.raw('/web_api/v1/download/', { trans_id: proOld.transId, user_token: pro.token })).status).toBe(
      410,
    );
  });

  it('of two processes asking at once, one runs the sweep (lease row); the other waits for the next interval', async () => {
    const { config, db, blobs, services } = srv.ctx;
    const workers = [
      new RetentionService({ config, db, blobs, services }),
      new RetentionService({ config, db, blobs, services }),
    ];
    const now = Date.now();
    const runs = await Promise.all(workers.map((w) => w.tick(now)));
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    // The holder may run again (its next interval); the other may not until the lease ends.
    const holder = runs[0] ? workers[0]! : workers[1]!;
    const other = runs[0] ? workers[1]! : workers[0]!;
    expect(await other.tick(now + 1000)).toBeNull();
    expect(await holder.tick(now + 1000)).not.toBeNull();
    expect(await other.tick(now + 2 * 3600_000)).not.toBeNull();
  });

  it('the process that runs jobs sweeps by itself on RETENTION_INTERVAL_MS', async () => {
    const own = await startTestServer({ retentionIntervalMs: 200 });
    try {
      const g = await Caller.guest(own);
      const up = await g.upload(fixture('rocket.jpg'), 'old.jpg');
      const uid = up.body.data.data.uid as string;
      await own.ctx.db
        .updateTable('uploads')
        .set({ created_at: Date.now() - 8 * DAY })
        .where('uid', '=', uid)
        .execute();
      const row = await until(
        () => own.ctx.db.selectFrom('uploads').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow(),
        (r) => r.expired_at !== null,
        { timeoutMs: 20_000 },
      );
      expect(row.expired_at).not.toBeNull();
      expect(await own.ctx.blobs.exists(row.original_key!)).toBe(false);
    } finally {
      await own.stop();
    }
  });
});
