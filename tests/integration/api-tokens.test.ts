/** Developer API tokens over real HTTP: who may have one, shown once, reset, where the token works and where it is refused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PLANS, API_TOKEN_RATE_LIMIT_PER_MINUTE } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { API_TOKEN_ROUTES } from '../../server/http/auth.js';
import type { TestServer } from '../support/server.js';
import { Caller, fixture, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `apitok-${tag}-${++n}@example.com`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A call made with the API token alone (no site token, no cookies). */
async function withApi(token: string, method: 'GET' | 'POST', p: string, form: Record<string, string> = {}) {
  const u = new URL(p, srv.url);
  const init: RequestInit = { method, headers: bearer(token) };
  if (method === 'GET') for (const [k, v] of Object.entries(form)) u.searchParams.set(k, v);
  else init.body = new URLSearchParams(form);
  const r = await fetch(u, init);
  return { status: r.status, body: (await r.json()) as { code: number; msg: string; data: any } };
}

async function proWithToken() {
  const u = await Caller.user(srv, email('pro'), 'pro');
  const r = await u.form('/api/v2/api_token/get');
  expect(r.body.code).toBe(CODE.OK);
  return { u, token: r.body.data.api_token as string };
}

describe('who may hold an API token', () => {
  it('a guest is refused with code 6; every registered account gets one (free, Basic, Pro)', async () => {
    const g = await Caller.guest(srv);
    const byGuest = await g.form('/api/v2/api_token/get', { user_token: g.token });
    expect(byGuest.status).toBe(401);
    expect(byGuest.body.code).toBe(CODE.VERIFICATION_FAILED);

    const free = await Caller.user(srv, email('free'));
    const byFree = await free.form('/api/v2/api_token/get');
    expect([byFree.status, byFree.body.code]).toEqual([200, CODE.OK]);
    expect(byFree.body.data).toMatchObject({ entitlement: 'free', created: true });
    expect(byFree.body.data.api_token).toMatch(/^pxm_/);

    const basic = await Caller.user(srv, email('basic'), 'basic');
    expect((await basic.form('/api/v2/api_token/get')).body.data).toMatchObject({ entitlement: 'free' });
  });

  it('an API credit pack makes a free account an API customer, its credits added to the balance', async () => {
    const free = await Caller.user(srv, email('pack'));
    const before = (await free.form('/api/v2/license')).body.data.max_num as number;
    const pack = API_PLANS[0]!;
    expect(await srv.ctx.services.apiTokens.grantPack(free.accountId, pack, `test:${free.accountId}`)).toBe(true);
    // the same reference grants nothing twice
    expect(await srv.ctx.services.apiTokens.grantPack(free.accountId, pack, `test:${free.accountId}`)).toBe(false);
    const r = await free.form('/api/v2/api_token/get');
    expect(r.body.code).toBe(CODE.OK);
    expect(r.body.data).toMatchObject({ entitlement: 'api_plan', api_pack_credits: pack.credits, created: true });
    expect((await free.form('/api/v2/license')).body.data.max_num).toBe(before + pack.credits);
  });
});

describe('shown once, reset retires the old token', () => {
  it('get with create=false only looks: null before a token exists, and it creates none', async () => {
    const u = await Caller.user(srv, email('peek'), 'pro');
    expect((await u.form('/api/v2/api_token/get', { create: 'false' })).body).toMatchObject({
      code: CODE.OK,
      data: null,
    });
    expect((await u.form('/api/v2/api_token/get', { create: 'false' })).body.data).toBeNull();
    const made = (await u.form('/api/v2/api_token/get')).body.data;
    expect(made.created).toBe(true);
    const seen = (await u.form('/api/v2/api_token/get', { create: 'false' })).body.data;
    expect(seen).toMatchObject({ api_token: null, created: false, masked: made.masked });
  });

  it('the first get shows the whole token; later gets show only its masked form and counters', async () => {
    const { u, token } = await proWithToken();
    expect(token).toMatch(/^pxm_[A-Za-z0-9_-]{43}$/);
    const again = (await u.form('/api/v2/api_token/get')).body.data;
    expect(again.api_token).toBeNull();
    expect(again.created).toBe(false);
    expect(again.masked).toBe(`pxm_…${token.slice(-4)}`);
    expect(again.calls_this_month).toBe(0);
    expect(again.last_used_at).toBeNull();
    expect(again.rate_limit_per_minute).toBe(API_TOKEN_RATE_LIMIT_PER_MINUTE);

    // two calls with the token: counted, last use recorded
    expect((await withApi(token, 'POST', '/api/v2/license')).body.code).toBe(CODE.OK);
    expect((await withApi(token, 'GET', '/api/v2/subscribe_info')).body.code).toBe(CODE.OK);
    const used = (await u.form('/api/v2/api_token/get')).body.data;
    expect(used.calls_this_month).toBe(2);
    expect(used.last_used_at).toBeGreaterThan(0);
  });

  it('reset answers a new token once; the old one answers code 6 at once, the new one works', async () => {
    const { u, token } = await proWithToken();
    const r = await u.form('/api/v2/api_token/reset');
    expect(r.body.code).toBe(CODE.OK);
    const fresh = r.body.data.api_token as string;
    expect(fresh).toMatch(/^pxm_/);
    expect(fresh).not.toBe(token);
    const old = await withApi(token, 'POST', '/api/v2/license');
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(CODE.VERIFICATION_FAILED);
    const now = await withApi(fresh, 'POST', '/api/v2/license');
    expect(now.body).toMatchObject({ code: CODE.OK, data: { user_id: u.accountId, user_level: 'pro' } });
  });

  it('the stored row holds the hash, never the token', async () => {
    const { u, token } = await proWithToken();
    const rows = await srv.ctx.db
      .withTables<{ api_tokens: { account_id: number; token_hash: string; hint: string } }>()
      .selectFrom('api_tokens')
      .selectAll()
      .where('account_id', '=', u.accountId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
  });
});

describe('where the token works', () => {
  it('as a Bearer header or the api_token field (query or form) on the listed calls', async () => {
    const { u, token } = await proWithToken();
    const lic = await withApi(token, 'POST', '/api/v2/license');
    expect(lic.body.data.user_id).toBe(u.accountId);
    const q = await fetch(`${srv.url}/api/v2/point?api_token=${token}`);
    expect(((await q.json()) as { code: number }).code).toBe(CODE.OK);
    const f = await fetch(`${srv.url}/api/v2/license`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: token }),
    });
    expect(((await f.json()) as { data: { user_id: number } }).data.user_id).toBe(u.accountId);
    // every listed call takes it (a missing work or upload is not-found, never code 6)
    for (const key of API_TOKEN_ROUTES) {
      const [method, p] = key.split(' ') as ['GET' | 'POST', string];
      if (p.includes('upload') && method === 'POST' && !p.endsWith('/status')) continue; // multipart, below
      const r = await withApi(token, method, p, { trans_id: 'none', uid: 'none' }).catch(() => ({
        status: 200,
        body: { code: 200 },
      }));
      expect([key, r.body.code]).not.toEqual([key, CODE.VERIFICATION_FAILED]);
    }
    // a multipart upload with the api_token field
    const fd = new FormData();
    fd.set('api_token', token);
    fd.set('job', 'enlarge');
    fd.set('file', new Blob([fixture('LadyBird.jpg')]), 'ladybird.jpg');
    const up = (await (await fetch(`${srv.url}/web_api/v1/upload`, { method: 'POST', body: fd })).json()) as {
      code: number;
      data: { data: { uid: string } };
    };
    expect(up.code).toBe(CODE.OK);
    // it is the account's upload: the site token sees it in its list
    const list = await u.form('/web_api/v1/upload/list');
    expect(list.body.data.datas.map((d: { uid: string }) => d.uid)).toContain(up.data.data.uid);
  });

  // (calls that need no credentials — logout, login, health — ignore a key: developer-api-keys.test.ts)
  it('is refused with code 6 on every other call that needs credentials, even beside a valid session', async () => {
    const { u, token } = await proWithToken();
    const refused: [string, string, Record<string, string>][] = [
      ['POST', '/api/v2/api_token/get', {}],
      ['POST', '/api/v2/api_token/reset', {}],
      [
        'POST',
        '/api/account/password',
        { old_password: 'passw0rdA1', password: 'newpass99', confirm_password: 'newpass99' },
      ],
      ['GET', '/api/account/me', {}],
      ['POST', '/api/v2/user_info/update', { first_name: 'Mallory' }],
      ['POST', '/api/payments/checkout', { product_id: '606838' }],
      ['GET', '/api/v2/checkout', { email: 'x@example.com', api_plan: API_PLANS[0]!.name }],
      ['POST', '/web_api/v1/upload/list', {}],
      ['GET', '/api/work_flow/list', {}],
    ];
    for (const [method, p, form] of refused) {
      expect(API_TOKEN_ROUTES.has(`${method} ${p}`)).toBe(false);
      const r = await withApi(token, method as 'GET' | 'POST', p, form);
      expect([r.status, r.body.code], `${method} ${p}`).toEqual([401, CODE.VERIFICATION_FAILED]);
    }
    // with the session cookies too: the API token still makes the call fail
    const r = await u.fetch('/api/account/me', { headers: bearer(token) });
    expect(r.status).toBe(401);
    // the password did not change: login with the old one still works
    const login = await new Caller(srv).form(
      '/api/account/login',
      { email: (await u.get('/api/account/me')).body.data.email, password: 'passw0rdA1' },
      false,
    );
    expect(login.body.code).toBe(CODE.OK);
  });

  it('a token is not a site token: sent as user_token it answers code 6', async () => {
    const { token } = await proWithToken();
    const r = await fetch(`${srv.url}/api/v2/license`, {
      method: 'POST',
      body: new URLSearchParams({ user_token: token }),
    });
    expect(r.status).toBe(401);
  });

  it("another account's work answers not-found", async () => {
    const a = await proWithToken();
    const b = await proWithToken();
    const up = await a.u.upload(fixture('LadyBird.jpg'), 'ladybird.jpg');
    const uid = up.body.data.data.uid as string;
    const src = await fetch(`${srv.url}/web_api/v1/download/src?uid=${uid}`, { headers: bearer(b.token) });
    expect(src.status).toBe(404);
    const own = await fetch(`${srv.url}/web_api/v1/download/src?uid=${uid}`, { headers: bearer(a.token) });
    expect(own.status).toBe(200);
    const prog = await withApi(b.token, 'GET', '/web_api/v1/progress', { trans_id: 'not-a-work-of-b' });
    expect([prog.status, prog.body.code]).toEqual([404, CODE.PARAM_ERROR]);
  });

  it('keeps working when the Pro plan ends (a free key then: the account’s own credits and free previews)', async () => {
    const { u, token } = await proWithToken();
    await srv.ctx.services.plans.expirePlan(u.accountId);
    const r = await withApi(token, 'POST', '/api/v2/license');
    expect([r.status, r.body.code]).toEqual([200, CODE.OK]);
    expect((await u.form('/api/v2/api_token/get')).body.data.entitlement).toBe('free');
  });

  it(`is rate limited per token: call ${API_TOKEN_RATE_LIMIT_PER_MINUTE + 1} within a minute answers 429`, async () => {
    const a = await proWithToken();
    const b = await proWithToken();
    let last = 0;
    for (let i = 0; i <= API_TOKEN_RATE_LIMIT_PER_MINUTE; i++)
      last = (await fetch(`${srv.url}/api/v2/point`, { headers: bearer(a.token) })).status;
    expect(last).toBe(429);
    // another token has its own allowance
    expect((await fetch(`${srv.url}/api/v2/point`, { headers: bearer(b.token) })).status).toBe(200);
    const counted = (await a.u.form('/api/v2/api_token/get')).body.data.calls_this_month;
    expect(counted).toBe(API_TOKEN_RATE_LIMIT_PER_MINUTE);
  });
});

describe('the OpenAPI document', () => {
  it('names the API token as a way in on exactly the calls that take it (API_TOKEN_ROUTES)', async () => {
    const doc = (await (await fetch(`${srv.url}/api-docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const documented = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops))
        if (op.security?.some((s) => 'api_token' in s)) documented.add(`${m.toUpperCase()} ${p}`);
    expect([...documented].sort()).toEqual([...API_TOKEN_ROUTES].sort());
  });
});
