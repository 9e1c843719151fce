/**
 * Processing over real HTTP with the heavy neural engines (IS-Net matting, the se-night preset's MAXIM
 * step): a file of its own so that the two runners' workers share them out instead of one file holding
 * the others up (processing.test.ts has the rest of the flow).
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Client, fixture, processingServers } from './processing-helpers.js';

// PIXMILL_PROCESSING_DB=postgres runs this file on PostgreSQL (processingServers).
const { server } = await processingServers();

describe('processing over HTTP, neural engines', () => {
  it('matting in a worker thread: PNG with alpha named matting-<name>.png, extras by zoom_type', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('chelsea.png'), 'chelsea.png', 'matting');
    const transId = (await c.transform(uid, { job: 'matting' }, { zoom_type: 'large' })).body.data.trans_id;
    expect((await c.waitEnd(transId)).data.status).toBe('finish');
    const dl = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token });
    expect(dl.headers.get('content-disposition')).toContain('filename="matting-chelsea.png"');
    const meta = await sharp(Buffer.from(await dl.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 451, 300, true]);
    const job = await srv.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('trans_id', '=', transId)
      .executeTakeFirstOrThrow();
    const extras = JSON.parse(job.extras_json ?? '{}') as Record<string, string>;
    // The matting engine declares extra outputs (white background JPEG, preview); each is reachable by zoom_type.
    expect(Object.keys(extras).length).toBeGreaterThan(0);
    for (const [variant, key] of Object.entries(extras)) {
      const ex = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token, zoom_type: variant });
      expect(ex.headers.get('content-disposition')).toContain(`matting-chelsea.${key.split('.').pop()}`);
      expect(Buffer.from(await ex.arrayBuffer()).equals(await srv.ctx.blobs.read(key))).toBe(true);
    }
  });

  it('runs the se-night preset workflow (denoise → perfect)', async () => {
    const srv = await server();
    const c = await Client.guest(srv);
    const uid = await c.upload(fixture('rocket.jpg'), 'rocket.jpg', 'workflow');
    const transId = (await c.transform(uid, { job: 'se-night' })).body.data.trans_id;
    const end = await c.waitEnd(transId);
    expect(end.data).toMatchObject({ status: 'finish', steps: 2, step: 2 });
    const dl = await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token });
    expect(dl.headers.get('content-disposition')).toContain('rocket_se-night.jpg');
    const out = Buffer.from(await dl.arrayBuffer());
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([640, 427]);
    // A real result differs from its input.
    const a = await sharp(fixture('rocket.jpg')).raw().toBuffer();
    const b = await sharp(out).raw().toBuffer();
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
    expect(diff / a.length).toBeGreaterThan(0.5);
    expect((await c.license()).used_num).toBe(1);
  });
});
