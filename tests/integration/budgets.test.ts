/**
 * Issue 48, point 6: budgets no caller can run past. Bytes uploaded without an account per address and
 * hour (over all its guest tokens), open checkouts and saved workflows per account (parallel requests
 * included: each is counted under the account's lock). In the suite's mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_CHECKOUTS_MAX, WORKFLOWS_MAX } from '../../src/shared/domain/fairUse.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller, fixture } from './api-helpers.js';

let srv: TestServer;
const rocket = fixture('rocket.jpg');
beforeAll(async () => {
  // room for two rockets an hour per address without an account
  srv = await startTestServer({ runJobs: false, trustProxy: ['127.0.0.1'], guestBytesPerHour: 2 * rocket.length + 10 });
});
afterAll(() => srv?.stop());

async function upload(c: Caller, address: string) {
  const fd = new FormData();
  fd.set('user_token', c.token);
  fd.set('job', 'compress');
  fd.set('file', new Blob([rocket]), 'rocket.jpg');
  const r = await c.fetch('/web_api/v1/upload', { method: 'POST', body: fd, headers: { 'x-forwarded-for': address } });
  return { status: r.status, body: (await r.json()) as { code: number; data: any } };
}

describe('bytes without an account, per address and hour', () => {
  it('new guest tokens do not reset the address budget; another address and accounts are not held by it', async () => {
    const guests = await Promise.all([1, 2, 3].map(() => Caller.guest(srv)));
    expect((await upload(guests[0]!, '203.0.113.50')).body.code).toBe(200);
    expect((await upload(guests[1]!, '203.0.113.50')).body.code).toBe(200);
    const third = await upload(guests[2]!, '203.0.113.50');
    expect(third.status).toBe(429);
    expect(third.body.data).toMatchObject({ reason: 'guestBytesPerHour', mb: 0 });
    expect(third.body.data.retry_after).toBeGreaterThan(0);
    expect(third.body.data.retry_after).toBeLessThanOrEqual(3600);
    // nothing of the refused upload is kept
    const { accountId } = await srv.ctx.services.tokens.resolve(guests[2]!.token);
    expect(await srv.ctx.db.selectFrom('uploads').select('uid').where('account_id', '=', accountId).execute()).toEqual(
      [],
    );
    expect((await upload(await Caller.guest(srv), '203.0.113.51')).body.code).toBe(200);
    const user = await Caller.user(srv, 'budget@example.com');
    expect((await upload(user, '203.0.113.50')).body.code).toBe(200);
  });
});

describe('rows per account', () => {
  it(`at most ${OPEN_CHECKOUTS_MAX} open checkouts, also when opened in parallel`, async () => {
    const u = await Caller.user(srv, 'checkouts@example.com');
    const answers = await Promise.all(
      Array.from({ length: OPEN_CHECKOUTS_MAX + 5 }, () => u.form('/api/payments/checkout', { product_id: '606836' })),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(OPEN_CHECKOUTS_MAX);
    const refused = answers.filter((a) => a.body.code !== 200);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.data).toMatchObject({ reason: 'checkoutLimit', max: OPEN_CHECKOUTS_MAX });
    }
    const rows = await srv.ctx.db.selectFrom('payment_checkouts').select('id').where('status', '=', 'open').execute();
    expect(rows).toHaveLength(OPEN_CHECKOUTS_MAX);
  });

  it(`at most ${WORKFLOWS_MAX} saved workflows, also when saved in parallel`, async () => {
    const u = await Caller.user(srv, 'workflows@example.com');
    const flows = JSON.stringify([
      { name: 'denoise', config: JSON.stringify({ module: 'denoise', module_params: {} }) },
    ]);
    for (let i = 0; i < WORKFLOWS_MAX - 3; i++)
      expect((await u.form('/api/work_flow/add', { name: `w${i}`, flows })).body.code).toBe(200);
    const last = await Promise.all(
      Array.from({ length: 8 }, (_, i) => u.form('/api/work_flow/add', { name: `last${i}`, flows })),
    );
    expect(last.filter((a) => a.body.code === 200)).toHaveLength(3);
    for (const r of last.filter((a) => a.body.code !== 200))
      expect(r.body.data).toMatchObject({ reason: 'workflowLimit', max: WORKFLOWS_MAX });
    expect((await u.get('/api/work_flow/list')).body.data.total).toBe(WORKFLOWS_MAX);
  }, 120_000);
});
