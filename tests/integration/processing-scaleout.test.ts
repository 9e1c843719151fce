/**
 * The processing flow in the scale-out configuration, in one process: PostgreSQL + BullMQ on Redis,
 * the API enqueuing into BullMQ and the in-process runner taking works from it.
 * Skips (saying why) when PostgreSQL or Redis do not answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CODE } from '../../src/shared/domain/codes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { detectScaleout, scaleoutOverrides, type ModeOverrides } from '../support/modes.js';
import { Client, COMPRESS, fixture } from './processing-helpers.js';

const avail = await detectScaleout();
if (!avail.available) console.warn(`processing scale-out tests SKIPPED: ${avail.reason}`);

describe.skipIf(!avail.available)('processing on PostgreSQL + BullMQ', () => {
  let mode: ModeOverrides;
  let srv: TestServer;
  beforeAll(async () => {
    mode = await scaleoutOverrides({ pgUrl: avail.pgUrl, redisUrl: avail.redisUrl });
    srv = await startTestServer(mode.overrides);
  });
  afterAll(async () => {
    await srv?.stop();
    await mode?.cleanup();
  });

  it('uploads, compresses through the BullMQ queue and downloads the result', async () => {
    expect(srv.ctx.services.jobs.queue.distributed).toBe(true);
    const c = await Client.guest(srv);
    const input = fixture('rocket.jpg');
    const uid = await c.upload(input, 'rocket.jpg');
    const transId = (await c.transform(uid, COMPRESS)).body.data.trans_id;
    expect((await c.waitEnd(transId)).data).toMatchObject({ status: 'finish', progress: 100 });
    const out = Buffer.from(
      await (await c.raw('/web_api/v1/download/', { trans_id: transId, user_token: c.token })).arrayBuffer(),
    );
    expect((await sharp(out).metadata()).format).toBe('jpeg');
    expect(out.length).toBeLessThan(input.length);
    const kinds = await srv.ctx.db.selectFrom('credit_ledger').select('kind').where('ref', '=', transId).execute();
    expect(kinds.map((k) => k.kind)).toEqual(['compress_charge']);
    expect((await c.transform(uid, { job: 'nope' })).body.code).toBe(CODE.PARAM_ERROR);
  });
});
