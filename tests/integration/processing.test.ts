/** Processing over real HTTP: guest flow, credits, failures, the hard kill, restart, ownership, bulk download (the neural engines' runs: processing-engines.test.ts). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CODE } from '../../src/shared/domain/codes.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import type { TestServer } from '../support/server.js';
import { bigJpeg } from '../support/jobs.js';
import { Client, COMPRESS, fixture, processingServers, storedZipEntries } from './processing-helpers.js';
import { childPids } from '../support/modesCluster.js';
import { until } from './until.js';

// PIXMILL_PROCESSING_DB=postgres runs this file on PostgreSQL (processingServers).
const { server, forget } = await processingServers();

const ledgerKinds = async (srv: TestServer, transId: string) =>
  (await srv.ctx.db.selectFrom('credit_ledger').select('kind').where('ref', '=', transId).orderBy('id').execute()).map(
    (r) => r.kind,
  );

/** This process's slot processes (server/jobs/slotProcessChild.ts), by their command line. */
function slotPids(): number[] {
  return childPids(process.pid).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('slotProcessChild');
    } catch {
      return false; // ended while we looked
    }
  });
}

describe('processing over HTTP', () => {
  it('guest: upload → compress → progress → download a smaller JPEG, preview, history, thumbsup', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const input = fixture('rocket.jpg');
    const uid = await c.upload(input, 'rocket.jpg');
    const start = await c.transform(uid, COMPRESS);
    expect(start.body.code).toBe(200);
    const transId = start.body.data.trans_id;
    expect(transId).toMatch(/^[0-9a-f-]{36}$/);

    const end = await c.waitEnd(transId);
    expect(end.data).toMatchObject({
      status: 'finish',
      progress: 100,
      step: 1,
      steps: 1,
      result_w: 640,
      result_h: 427,
    });

    const dl = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('image/jpeg');
    expect(dl.headers.get('content-disposition')).toContain('attachment; filename="rocket_compress.jpg"');
    const out = Buffer.from(await dl.arrayBuffer());
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 427]);
    expect(out.length).toBeLessThan(input.length);

    // Download link with the token only in a cookie (a navigation; path without the trailing slash too), and the inline preview.
    const byCookie = await c.raw(
      '/web_api/v1/download',
      { trans_id: transId },
      { headers: { cookie: `guest_token=${c.token}` } },
    );
    expect(Buffer.from(await byCookie.arrayBuffer()).equals(out)).toBe(true);
    const pv = await c.raw(
      '/web_api/v1/preview',
      { trans_id: transId },
      { headers: { cookie: `guest_token=${c.token}` } },
    );
    expect(pv.headers.get('content-disposition')).toMatch(/^inline/);
    expect(pv.headers.get('cache-control')).toMatch(/private/);
    expect(Buffer.from(await pv.arrayBuffer()).equals(out)).toBe(true);

    // Compress result converted on download.
    const webp = await c.raw(
      '/api/job/download_compress',
      {},
      { method: 'POST', body: new URLSearchParams({ trans_id: transId, guest_token_v2: c.token, extra_type: 'webp' }) },
    );
    const wm = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
    expect([wm.format, wm.width, wm.height]).toEqual(['webp', 640, 427]);

    // no re-encode amplification: Six calls at once for another type convert once and get
    // the same bytes; later calls come from the cache.
    const before = srv.ctx.services.downloads.conversions;
    const asPng = () =>
      c.raw(
        '/api/job/download_compress',
        {},
        {
          method: 'POST',
          body: new URLSearchParams({ trans_id: transId, guest_token_v2: c.token, extra_type: 'png' }),
        },
      );
    const six = await Promise.all(Array.from({ length: 6 }, asPng));
    const bodies = await Promise.all(
      six.map(async (r) => (expect(r.status).toBe(200), Buffer.from(await r.arrayBuffer()))),
    );
    expect((await sharp(bodies[0]!).metadata()).format).toBe('png');
    for (const b of bodies) expect(b.equals(bodies[0]!)).toBe(true);
    expect(Buffer.from(await (await asPng()).arrayBuffer()).equals(bodies[0]!)).toBe(true);
    expect(srv.ctx.services.downloads.conversions - before).toBe(1);

    const thumbs = await c.post('/api/v2/thumbsup', { trans_id: transId, thumbsup: '-1' });
    expect(thumbs.body.code).toBe(200);
    const hist = await c.get('/api/job/record', { limit: '10', page: '1' });
    expect(hist.body.data).toMatchObject({ current_page: 1, total: 1, last_page: 1 });
    expect(hist.body.data.datas[0]).toMatchObject({
      trans_id: transId,
      uid,
      job: 'compress',
      status: 'finished',
      filename: 'rocket.jpg',
      w: 640,
      h: 427,
      result_w: 640,
      result_h: 427,
      thumbsup: -1,
    });

    const lic = await c.license();
    expect(lic.compress_used).toBe(1);
    expect(await ledgerKinds(srv, transId)).toEqual(['compress_charge']);
  });

  it('compresses a PNG upload to a smaller PNG', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const input = fixture('chelsea.png');
    const uid = await c.upload(input, 'chelsea.png');
    const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    expect((await c.waitEnd(transId)).data.status).toBe('finish');
    const dl = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token });
    expect(dl.headers.get('content-disposition')).toContain('chelsea_compress.png');
    const out = Buffer.from(await dl.arrayBuffer());
    expect((await sharp(out).metadata()).format).toBe('png');
    expect(out.length).toBeLessThan(input.length);
  });

  it('answers 10012 once the credits are used up, and takes nothing more', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
    const allowed = PLAN_LIMITS.guest.compressCredits;
    for (let i = 0; i < allowed; i++) {
      const r = await c.transform(uid, COMPRESS);
      expect(r.body.code).toBe(200);
      await c.waitEnd(r.body.data.trans_id);
    }
    const over = await c.transform(uid, COMPRESS);
    expect(over.body).toMatchObject({ code: CODE.INSUFFICIENT_CREDITS, data: { reason: 'insufficientCredits' } });
    expect((await c.license()).compress_used).toBe(allowed);
    expect(await srv.ctx.db.selectFrom('jobs').select('trans_id').execute()).toHaveLength(allowed);
  });

  it('the 4th image work of a guest gets 10012', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg', 'sharpen');
    for (let i = 0; i < PLAN_LIMITS.guest.credits; i++) {
      const r = await c.transform(uid, { job: 'sharpen' });
      expect(r.body.code).toBe(200);
      await c.waitEnd(r.body.data.trans_id);
    }
    expect((await c.transform(uid, { job: 'sharpen' })).body.code).toBe(CODE.INSUFFICIENT_CREDITS);
    const lic = await c.license();
    expect(lic.used_num).toBe(lic.max_num);
  });

  it('refunds a failed work exactly once', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
    // Damage the stored working copy so the engine's decoder fails.
    const up = await srv.ctx.db
      .selectFrom('uploads')
      .select('blob_key')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    await srv.ctx.blobs.write(up.blob_key!, fixture('rocket.jpg').subarray(0, 5000));
    const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    expect((await c.waitEnd(transId)).data.status).toBe('fatal');
    expect(await ledgerKinds(srv, transId)).toEqual(['compress_charge', 'compress_refund']);
    expect((await c.license()).compress_used).toBe(0);
    const dl = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token });
    expect(((await dl.json()) as { code: number }).code).toBe(CODE.PARAM_ERROR);
  });

  it('kills a work past JOB_TIMEOUT_MS: fatal with timeout, credit refunded', async () => {
    const srv = await server({ jobTimeoutMs: 30 });
    const c = await Client.guest(srv);
    const big = new URL('../fixtures/elephants-5640x3172.jpg', import.meta.url);
    const bytes = fs.existsSync(big) ? fs.readFileSync(big) : await bigJpeg();
    // Inserted directly: a 16 MB camera file is above every upload limit, which is not what this tests.
    const key = srv.ctx.blobs.newKey('uploads', 'jpg');
    await srv.ctx.blobs.write(key, bytes);
    const p = await srv.ctx.services.tokens.resolve(c.token);
    const uid = '00000000-0000-4000-8000-00000000e1e9';
    await srv.ctx.db
      .insertInto('uploads')
      .values({
        uid,
        account_id: p.accountId,
        filename: 'elephants.jpg',
        filesize: bytes.length,
        w: 5640,
        h: 3172,
        format: 'jpeg',
        job: 'compress',
        blob_key: key,
        original_key: key,
        sha256: null,
        thumb_key: null,
        status: 'ready',
        total_blob_num: 1,
        received_bytes: bytes.length,
        source_url: null,
        created_at: Date.now(),
        deleted_at: null,
      })
      .execute();
    const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    const end = await c.waitEnd(transId);
    expect(end.data).toMatchObject({ status: 'fatal', error: 'timeout' });
    expect(await ledgerKinds(srv, transId)).toEqual(['compress_charge', 'compress_refund']);
    expect((await c.license()).compress_used).toBe(0);
  });

  it('a work killed inside onnxruntime ends fatal and the server keeps serving', async () => {
    // Terminating a worker *thread* mid-inference aborts the whole process (Napi::Error → std::terminate);
    // slots are processes, so only the slot dies. A 2.5 MP enlarge x2 spends seconds in ESRGAN tiles,
    // far past the 1.5 s limit on any machine this runs on (a small matting finished in time once).
    const srv = await server({ jobTimeoutMs: 1500 });
    const c = await Client.guest(srv);
    const big = await sharp(fixture('LadyBird.jpg')).resize(2000).jpeg({ quality: 90 }).toBuffer();
    const uid = await c.upload(big, 'ladybird.jpg', 'enlarge');
    const t1 = (await c.transform(uid, { job: 'enlarge' })).body.data.trans_id;
    // The slot processes start with the first work; the one running the enlarge is killed at the time limit.
    const slots = await until(slotPids, (p) => p.length > 0, { timeoutMs: 20_000 });
    expect(slots.length).toBeGreaterThan(0);
    expect((await c.waitEnd(t1)).data).toMatchObject({ status: 'fatal', error: 'timeout' });
    expect(await ledgerKinds(srv, t1)).toEqual(['charge', 'refund']);
    // Wait for the killed slot to be gone (its native inference with it): this process outlived it.
    const left = await until(slotPids, (now) => slots.some((p) => !now.includes(p)));
    expect(slots.some((p) => !left.includes(p))).toBe(true);
    const t2 = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    expect((await c.waitEnd(t2)).data.status).toBe('finish');
    expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
  });

  it('retries a work left running across a restart, and fails+refunds it on the second interruption', async () => {
    const a = await server({ runJobs: false });
    const c = await Client.guest(a);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
    const t1 = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    // Guests hold one slot: a second start while the first waits is refused, for free.
    const second = await c.transform(uid, COMPRESS);
    expect(second.body).toMatchObject({ code: CODE.PARAM_ERROR, data: { reason: 'batchSubscribersOnly' } });
    expect((await c.license()).compress_used).toBe(1);
    await a.ctx.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, progress: 50 })
      .where('trans_id', '=', t1)
      .execute();
    await a.stop({ keepData: true });
    forget(a);

    const b = await server({ dataDir: a.dataDir });
    const cb = new Client(b, c.token);
    expect((await cb.waitEnd(t1)).data.status).toBe('finish');
    const job = await b.ctx.db.selectFrom('jobs').selectAll().where('trans_id', '=', t1).executeTakeFirstOrThrow();
    expect(job.attempts).toBe(2);
    expect(await ledgerKinds(b, t1)).toEqual(['compress_charge']);

    // Same again, but the work was already on its second attempt.
    await b.ctx.services.jobs.stopRunner();
    const t2 = (await cb.transform(uid, COMPRESS)).body.data.trans_id;
    await b.ctx.db.updateTable('jobs').set({ status: 'running', attempts: 2 }).where('trans_id', '=', t2).execute();
    await b.stop({ keepData: true });
    forget(b);
    const d = await server({ dataDir: a.dataDir });
    const cd = new Client(d, c.token);
    expect((await cd.waitEnd(t2)).data).toMatchObject({ status: 'fatal', error: 'Process failed' });
    expect(await ledgerKinds(d, t2)).toEqual(['compress_charge', 'compress_refund']);
  });

  it('refuses another token on progress, download, preview, thumbsup, history and bulk', async () => {
    const srv = await server();
    const owner = await Client.guest(srv);
    const other = await Client.guest(srv);
    const uid = await owner.upload(fixture('rocket.jpg'), 'rocket.jpg');
    expect((await other.transform(uid, COMPRESS)).status).toBe(404);
    const transId = (await owner.transform(uid, COMPRESS)).body.data.trans_id;
    await owner.waitEnd(transId);

    const prog = await other.get('/web_api/v1/progress', { trans_id: transId });
    expect([prog.status, prog.body.code]).toEqual([404, CODE.PARAM_ERROR]);
    for (const p of ['/web_api/v1/download/', '/web_api/v1/preview']) {
      const r = await other.raw(p, { trans_id: transId, user_token: other.token });
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/json/);
    }
    expect((await other.post('/api/v2/thumbsup', { trans_id: transId, thumbsup: '1' })).status).toBe(404);
    expect((await other.post('/api/v2/point/check', { trans_ids: transId, need_download_temp_id: '1' })).status).toBe(
      404,
    );
    expect((await other.get('/api/job/record')).body.data.total).toBe(0);
    const noToken = await fetch(`${srv.url}/web_api/v1/progress?trans_id=${transId}`);
    expect([noToken.status, ((await noToken.json()) as { code: number }).code]).toEqual([
      401,
      CODE.VERIFICATION_FAILED,
    ]);
  });

  it('point check hands out a bulk download id; the zip holds every result', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const ids: string[] = [];
    for (const name of ['rocket.jpg', 'chelsea.png']) {
      const uid = await c.upload(fixture(name), name);
      const t = (await c.transform(uid, COMPRESS)).body.data.trans_id;
      await c.waitEnd(t);
      ids.push(t);
    }
    const check = await c.post<{ download_all_id: string }>('/api/v2/point/check', {
      trans_ids: ids.join(','),
      need_download_temp_id: '1',
      guest_token_v2: c.token,
    });
    expect(check.body.code).toBe(200);
    const zipRes = await c.raw(
      '/api/v2/download/all/',
      { download_all_id: check.body.data.download_all_id },
      { headers: { cookie: `guest_token=${c.token}` } },
    );
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    const entries = storedZipEntries(Buffer.from(await zipRes.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(['chelsea_compress.png', 'rocket_compress.jpg']);
    const single = Buffer.from(
      await (await c.raw('/web_api/v1/download/', { trans_id: ids[0]!, user_token: c.token })).arrayBuffer(),
    );
    expect(entries.get('rocket_compress.jpg')!.equals(single)).toBe(true);

    const post = await c.raw(
      '/api/v2/download/all',
      {},
      { method: 'POST', body: new URLSearchParams({ user_token: c.token, trans_ids: ids.join(',') }) },
    );
    expect(storedZipEntries(Buffer.from(await post.arrayBuffer())).size).toBe(2);

    // Out of credits → 30004 (the not-enough-points popup).
    await srv.ctx.db.updateTable('accounts').set({ used_num: PLAN_LIMITS.guest.credits }).execute();
    const broke = await c.post('/api/v2/point/check', { trans_ids: ids.join(','), need_download_temp_id: '1' });
    expect(broke.body.code).toBe(CODE.NOT_ENOUGH_POINTS);
  });

  it('rejects bad transform input with 10001 and a clear message', async () => {
    const srv = await server({ runJobs: false });
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg');
    const bad = async (jconfig: string) => (await c.post('/web_api/v1/transform', { uid, jconfig })).body;
    expect(await bad('{not json')).toMatchObject({ code: CODE.PARAM_ERROR, data: { reason: 'jconfigNotJson' } });
    expect(await bad('{"job":"nope"}')).toMatchObject({ code: CODE.PARAM_ERROR, data: { reason: 'unknownJob' } });
    expect(await bad('{"job":"compress","config":{"module_params":{"quality":500}}}')).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'paramInvalid', module: 'compress', param: 'quality', min: 1, max: 100 },
    });
    expect(await bad('{"job":"enlarge","config":{"module_params":{"scale":4}}}')).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'scaleSubscribersOnly' },
    });
    expect((await c.license()).compress_used).toBe(0);
  });
});
