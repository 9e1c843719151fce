/**
 * Honest time (issue 51 point 4): finished works teach this server's engine rates (engine_rates,
 * migration 016: seconds per input MP per engine, a moving average from the seed), and a running work's
 * progress answers seconds_left from them. Real works on the real engines, in both run modes.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { learnRate, SEED_S_PER_MP, secondsLeft, workSeconds } from '../../src/shared/domain/estimate.js';
import { findOwnedProgress } from '../../server/repositories/jobRepository.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';
import { until } from './until.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

const W = 480;
const H = 320;
const photo = () =>
  sharp({ create: { width: W, height: H, channels: 3, background: { r: 120, g: 90, b: 30 } } })
    .composite([
      { input: { create: { width: 64, height: 64, channels: 3, background: '#1040c0' } }, left: 40, top: 40 },
    ])
    .png()
    .toBuffer();

async function sharpen(c: Caller) {
  const up = await c.upload(await photo(), 'photo.png', 'sharpen');
  expect(up.body.code).toBe(CODE.OK);
  const jconfig = { job: 'sharpen', config: { module: 'sharpen', module_params: {} } };
  const start = await c.form('/web_api/v1/transform', { uid: up.body.data.data.uid, jconfig: JSON.stringify(jconfig) });
  expect(start.body.code).toBe(CODE.OK);
  const transId = start.body.data.trans_id as string;
  for (;;) {
    const p = await c.get('/web_api/v1/progress', { trans_id: transId });
    if (p.body.data.status !== 'progress') {
      expect(p.body.data.status).toBe('finish');
      return transId;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rateRow = () =>
  srv.ctx.db.selectFrom('engine_rates').selectAll().where('rate_key', '=', 'sharpen').executeTakeFirst();
/** The runner learns just after it records the work finished: the row once it counts `n` works. */
const rateAfter = (n: number) => until(rateRow, (r) => (r?.samples ?? 0) >= n);

describe('the engine rates this server learns', () => {
  it('each finished work moves its engine’s rate from the seed as a moving average, and a running work’s time left uses it', async () => {
    const c = await Caller.user(srv, `rates-${Date.now()}@example.com`, 'pro');
    expect(await rateRow()).toBeUndefined();
    const first = await sharpen(c);
    const one = await rateAfter(1);
    expect(one).toMatchObject({ samples: 1 });
    const r1 = Number(one!.s_per_mp);
    // a moving average from the seed: one work moves it at most one clamped step either way (which way and
    // how far is this machine's speed: a sharpen this small can take less than the seed says, or more)
    expect(r1).toBeGreaterThanOrEqual(learnRate(SEED_S_PER_MP.sharpen, Number.MIN_VALUE));
    expect(r1).toBeLessThanOrEqual(learnRate(SEED_S_PER_MP.sharpen, Number.MAX_VALUE));
    await sharpen(c);
    const two = await rateAfter(2);
    expect(two!.samples).toBe(2);

    // the progress answer of that work while running (its row as a poll reads it, halfway): the learned rate's time left
    const row = await findOwnedProgress(srv.ctx.db, c.accountId, first);
    const view = await srv.ctx.services.jobs.progressOf({ ...row!, status: 'running', progress: 50 });
    const total = workSeconds([{ module: 'sharpen' }], W, H, { sharpen: Number(two!.s_per_mp) });
    expect(view).toMatchObject({ status: 'progress', seconds_left: secondsLeft(total, 50) });
    expect((await c.get('/web_api/v1/progress', { trans_id: first })).body.data).not.toHaveProperty('seconds_left');

    // what the client reads before a start: the learned rate where measured, the seeds elsewhere, no token needed
    const catalogue = await fetch(`${srv.url}/api/v2/engine_rates`);
    const body = (await catalogue.json()) as {
      code: number;
      data: { rates: Record<string, number>; overhead_s: number };
    };
    expect(body.code).toBe(CODE.OK);
    expect(body.data.rates.sharpen).toBeCloseTo(Number(two!.s_per_mp));
    expect(body.data.rates['enlarge:4']).toBe(SEED_S_PER_MP['enlarge:4']);
    expect(body.data.overhead_s).toBeGreaterThan(0);
  });

  it('a waiting work’s time counts the works ahead of it in queue order, on the slots', async () => {
    const idle = await startTestServer({ runJobs: false, processWorkers: 1 });
    try {
      // this server has measured sharpen at 10 s per MP: a 1000×500 photo takes 10 × 0.5 + the overhead
      await idle.ctx.db
        .insertInto('engine_rates')
        .values({ rate_key: 'sharpen', s_per_mp: 10, samples: 5, updated_at: Date.now() })
        .execute();
      const one = workSeconds([{ module: 'sharpen' }], 1000, 500, { sharpen: 10 });
      const c = await Caller.user(idle, `queue-${Date.now()}@example.com`, 'pro');
      const big = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const up = await c.upload(big, `p${i}.png`, 'sharpen');
        const jconfig = { job: 'sharpen', config: { module: 'sharpen', module_params: {} } };
        const start = await c.form('/web_api/v1/transform', {
          uid: up.body.data.data.uid,
          jconfig: JSON.stringify(jconfig),
        });
        expect(start.body.code).toBe(CODE.OK);
        ids.push(start.body.data.trans_id as string);
      }
      const answers = [];
      for (const id of ids) answers.push((await c.get('/web_api/v1/progress', { trans_id: id })).body.data);
      expect(answers.map((a) => [a.queue_position, a.seconds_left])).toEqual([
        [1, Math.round(one)],
        [2, Math.round(2 * one)],
        [3, Math.round(3 * one)],
      ]);
    } finally {
      await idle.stop();
    }
  });
});
