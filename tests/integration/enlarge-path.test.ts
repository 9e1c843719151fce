/**
 * Never a silent downgrade (issue 51 point 3): the path a work's enlargement took (net, fast_net,
 * resized; src/shared/domain/enlargePath.ts) is answered by the progress call once finished, by
 * /api/v1/process in X-Enlarge-Path, and kept by the history (jobs.enlarge_path, migration 015). A work
 * without an enlarge step answers none. Real works on the real engines, in both run modes.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

const photo = () =>
  sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .composite([{ input: { create: { width: 16, height: 16, channels: 3, background: '#1040c0' } }, left: 8, top: 8 }])
    .png()
    .toBuffer();

let n = 0;
async function finished(c: Caller, job: 'enlarge' | 'sharpen') {
  const up = await c.upload(await photo(), 'photo.png', job);
  expect(up.body.code).toBe(CODE.OK);
  const params = job === 'enlarge' ? { scale: 2 } : {};
  const start = await c.form('/web_api/v1/transform', {
    uid: up.body.data.data.uid,
    jconfig: JSON.stringify({ job, config: { module: job, module_params: params } }),
  });
  expect(start.body.code).toBe(CODE.OK);
  const transId = start.body.data.trans_id as string;
  for (;;) {
    const p = await c.get('/web_api/v1/progress', { trans_id: transId });
    if (p.body.data.status !== 'progress') return { transId, data: p.body.data };
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the path an enlargement took', () => {
  it('progress answers it once finished and the history keeps it; a work without an enlarge step has none', async () => {
    const c = await Caller.user(srv, `path-${Date.now()}-${n++}@example.com`, 'pro');
    const enlarged = await finished(c, 'enlarge');
    expect(enlarged.data).toMatchObject({ status: 'finish', result_w: 96, result_h: 64, enlarge_path: 'net' });
    const sharpened = await finished(c, 'sharpen');
    expect(sharpened.data.status).toBe('finish');
    expect(sharpened.data).not.toHaveProperty('enlarge_path');

    const row = await srv.ctx.db
      .selectFrom('jobs')
      .select('enlarge_path')
      .where('trans_id', '=', enlarged.transId)
      .executeTakeFirstOrThrow();
    expect(row.enlarge_path).toBe('net');
    const history = await c.get('/api/job/record');
    expect(history.body.code).toBe(CODE.OK);
    const byId = new Map((history.body.data.datas as { trans_id: string }[]).map((r) => [r.trans_id, r]));
    expect(byId.get(enlarged.transId)).toMatchObject({ status: 'finished', enlarge_path: 'net' });
    expect(byId.get(sharpened.transId)).not.toHaveProperty('enlarge_path');
  });

  it('/api/v1/process says it in X-Enlarge-Path with the result, and sends none for another feature', async () => {
    const u = await Caller.user(srv, `path-api-${Date.now()}-${n++}@example.com`, 'pro');
    const key = (await u.form('/api/v2/api_token/get')).body.data.api_token as string;
    const call = async (fields: Record<string, string>) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.set(k, v);
      fd.set('file', new Blob([await photo()]), 'photo.png');
      return fetch(`${srv.url}/api/v1/process`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
    };
    const enlarged = await call({ feature: 'enlarge', scale: '2', wait: '60' });
    expect(enlarged.status).toBe(200);
    expect([enlarged.headers.get('x-width'), enlarged.headers.get('x-enlarge-path')]).toEqual(['96', 'net']);
    const sharpened = await call({ feature: 'sharpen', wait: '60' });
    expect(sharpened.status).toBe(200);
    expect(sharpened.headers.get('x-enlarge-path')).toBeNull();
  });
});
