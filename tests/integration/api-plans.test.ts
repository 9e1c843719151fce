/** API credit packs over real HTTP: GET /api/v2/checkout (email, api_plan), paid through the local provider once, and the operator's grant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../scripts/admin.js';
import { API_PLANS } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `apiplan-${tag}-${++n}@example.com`;
const PACK = API_PLANS[1]!;
const license = async (c: Caller) =>
  (await c.form('/api/v2/license')).body.data as { max_num: number; used_num: number };

describe('GET /api/v2/checkout', () => {
  it('refuses without a signed-in user token field (a cookie alone opens nothing), a foreign email and an unknown pack', async () => {
    const addr = email('refuse');
    const u = await Caller.user(srv, addr);
    const noToken = await u.get('/api/v2/checkout', { email: addr, api_plan: PACK.name }, false);
    expect([noToken.status, noToken.body.code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    const g = await Caller.guest(srv);
    expect((await g.get('/api/v2/checkout', { email: addr, api_plan: PACK.name })).body.code).toBe(
      CODE.VERIFICATION_FAILED,
    );
    const foreign = await u.get('/api/v2/checkout', { email: 'someone-else@example.com', api_plan: PACK.name });
    expect(foreign.body).toMatchObject({ code: CODE.PARAM_ERROR, data: { field: 'email' } });
    const unknown = await u.get('/api/v2/checkout', { email: addr, api_plan: 'api_free_forever' });
    expect(unknown.body).toMatchObject({ code: CODE.PARAM_ERROR, data: { field: 'api_plan' } });
    expect(unknown.body.msg).toContain('api_plan');
    const gbp = await u.get('/api/v2/checkout', { email: addr, api_plan: PACK.name, currency: 'GBP' });
    expect(gbp.body).toMatchObject({ code: CODE.PARAM_ERROR, data: { field: 'currency' } });
  });

  it('opens a checkout for the pack; paying it adds the pack’s credits once and makes the account an API customer', async () => {
    const addr = email('buy');
    const u = await Caller.user(srv, addr);
    expect((await u.form('/api/v2/api_token/get', { create: 'false' })).body.data).toBeNull();
    const before = await license(u);
    const r = await u.get('/api/v2/checkout', { email: addr.toUpperCase(), api_plan: PACK.name, currency: 'EUR' });
    expect(r.body.code, r.body.msg).toBe(CODE.OK);
    expect(r.body.data).toMatchObject({
      level: 'api',
      product_id: PACK.productId,
      amount: PACK.price.EUR,
      currency: 'EUR',
      status: 'open',
    });
    // open is not paid: nothing granted yet
    expect((await license(u)).max_num).toBe(before.max_num);

    const paid = await u.form('/api/payments/local/pay', { id: r.body.data.checkout_id });
    expect(paid.body.data).toMatchObject({ applied: true, checkout: { status: 'paid' } });
    expect((await license(u)).max_num).toBe(before.max_num + PACK.credits);
    // a second pay of the same checkout grants nothing
    expect((await u.form('/api/payments/local/pay', { id: r.body.data.checkout_id })).body.code).toBe(CODE.PARAM_ERROR);
    expect((await license(u)).max_num).toBe(before.max_num + PACK.credits);

    const tok = await u.form('/api/v2/api_token/get');
    expect(tok.body.data).toMatchObject({ entitlement: 'api_plan', api_pack_credits: PACK.credits, created: true });
  });

  it('defaults to the account’s currency when it is USD or EUR', async () => {
    const addr = email('cur');
    const u = await Caller.user(srv, addr);
    const r = await u.get('/api/v2/checkout', { email: addr, api_plan: API_PLANS[0]!.name });
    expect(r.body.data).toMatchObject({ currency: 'USD', amount: API_PLANS[0]!.price.USD });
  });
});

describe('npm run admin -- api-plan', () => {
  it('grants a pack to a registered account and refuses an unknown pack', async () => {
    const addr = email('admin');
    const u = await Caller.user(srv, addr);
    const before = await license(u);
    const out = (await runAdmin(srv.ctx, ['api-plan', addr, PACK.name])) as {
      max_num: number;
      api_plan_customer: boolean;
    };
    expect(out).toMatchObject({ max_num: before.max_num + PACK.credits, api_plan_customer: true });
    await expect(runAdmin(srv.ctx, ['api-plan', addr, 'nope'])).rejects.toThrow(/api-plan needs a pack/);
    expect((await u.form('/api/v2/api_token/get')).body.data.entitlement).toBe('api_plan');
  });

  it('a pack outlives plan changes: going Pro and the plan ending keep its credits, and the token answer shows them', async () => {
    const addr = email('keep');
    const u = await Caller.user(srv, addr);
    await runAdmin(srv.ctx, ['api-plan', addr, PACK.name]);
    const token = async () => (await u.form('/api/v2/api_token/get')).body.data;
    expect(await token()).toMatchObject({
      entitlement: 'api_plan',
      credits: PLAN_LIMITS.register.credits + PACK.credits,
      api_pack_credits: PACK.credits,
    });
    await runAdmin(srv.ctx, ['grant', addr, 'pro']);
    expect(await token()).toMatchObject({
      entitlement: 'pro',
      credits: PLAN_LIMITS.pro.credits + PACK.credits,
      api_pack_credits: PACK.credits,
    });
    await runAdmin(srv.ctx, ['expire', addr]);
    expect(await token()).toMatchObject({
      entitlement: 'api_plan',
      credits: PLAN_LIMITS.expired.credits + PACK.credits,
      api_pack_credits: PACK.credits,
    });
    expect((await license(u)).max_num - (await license(u)).used_num).toBe(PLAN_LIMITS.expired.credits + PACK.credits);
  });
});
