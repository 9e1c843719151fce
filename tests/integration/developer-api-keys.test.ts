/**
 * Issue 49's first points over real HTTP, in both run modes: the spec's compress shorthand on transform,
 * and serialised token resets on an account with or without a key.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `keys-${tag}-${Date.now()}-${++n}@example.com`;
const photo = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

describe('the spec’s compress job (§3: {"job":"compress","quality":50})', () => {
  it('transform takes quality beside job and runs compress at that quality', async () => {
    const g = await Caller.guest(srv);
    const up = await g.upload(await photo(), 'p.jpg', 'compress');
    expect(up.body.code).toBe(CODE.OK);
    const r = await g.form('/web_api/v1/transform', {
      uid: up.body.data.data.uid,
      jconfig: JSON.stringify({ job: 'compress', quality: 37 }),
    });
    expect([r.status, r.body.code]).toEqual([200, CODE.OK]);
    const row = await srv.ctx.db
      .selectFrom('jobs')
      .select('steps_json')
      .where('trans_id', '=', r.body.data.trans_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.steps_json)[0].config.module_params.quality).toBe(37);
  });

  it('a quality out of range, or two different qualities, are refused naming the field', async () => {
    const g = await Caller.guest(srv);
    const up = await g.upload(await photo(), 'p.jpg', 'compress');
    const over = await g.form('/web_api/v1/transform', {
      uid: up.body.data.data.uid,
      jconfig: JSON.stringify({ job: 'compress', quality: 500 }),
    });
    expect(over.body.code).toBe(CODE.PARAM_ERROR);
    expect(over.body.data).toMatchObject({ reason: 'paramInvalid', param: 'quality' });
    const both = await g.form('/web_api/v1/transform', {
      uid: up.body.data.data.uid,
      jconfig: JSON.stringify({ job: 'compress', quality: 40, config: { module_params: { quality: 60 } } }),
    });
    expect(both.body.data).toMatchObject({ reason: 'fieldInvalid', field: 'jconfig.quality' });
    // only compress has the shorthand
    const other = await g.form('/web_api/v1/transform', {
      uid: up.body.data.data.uid,
      jconfig: JSON.stringify({ job: 'denoise', quality: 40 }),
    });
    expect(other.body.data).toMatchObject({ reason: 'fieldUnknown', field: 'jconfig.quality' });
  });
});

describe('api_token/reset: six at once answer one 200 and five 409', () => {
  for (const start of ['without a key', 'with a key'] as const) {
    it(start, async () => {
      const u = await Caller.user(srv, email('reset'), 'pro');
      let old: string | undefined;
      if (start === 'with a key') old = (await u.form('/api/v2/api_token/get')).body.data.api_token as string;
      const answers = await Promise.all(Array.from({ length: 6 }, () => u.form('/api/v2/api_token/reset')));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409))
        expect(a.body.data).toMatchObject({ reason: 'apiTokenResetConflict' });
      const key = answers.find((a) => a.status === 200)!.body.data.api_token as string;
      const point = await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': key } });
      expect([point.status, ((await point.json()) as { code: number }).code]).toEqual([200, CODE.OK]);
      if (old) expect((await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': old } })).status).toBe(401);
      expect((await u.form('/api/v2/api_token/get')).body.data.masked).toBe(`pxm_…${key.slice(-4)}`);
    });
  }
});

describe('public calls ignore a key; a call that needs one tells a missing key from an invalid one', () => {
  const BAD_KEYS = ['pxm_' + 'A'.repeat(43), 'not-a-key'];

  it('health, register, login, the sitemap, email status and the OpenAPI document answer as without a key', async () => {
    const u = await Caller.user(srv, email('public'), 'pro');
    const good = (await u.form('/api/v2/api_token/get')).body.data.api_token as string;
    for (const key of [good, ...BAD_KEYS]) {
      const ways: Record<string, string>[] = [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }];
      for (const headers of ways) {
        const health = await fetch(`${srv.url}/api/health`, { headers });
        expect(health.status).toBe(200);
        const doc = await fetch(`${srv.url}/api-docs/openapi.json`, { headers });
        expect([doc.status, ((await doc.json()) as { openapi: string }).openapi]).toEqual([200, '3.1.0']);
        const sitemap = await fetch(`${srv.url}/sitemap.xml`, { headers });
        expect(sitemap.status).toBe(200);
        const address = email('reg');
        const reg = await fetch(`${srv.url}/api/account/register`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ email: address, password: 'passw0rdA1', confirm_password: 'passw0rdA1' }),
        });
        expect([reg.status, ((await reg.json()) as { code: number }).code]).toEqual([200, CODE.OK]);
        const login = await fetch(`${srv.url}/api/account/login`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ email: address, password: 'passw0rdA1' }),
        });
        expect([login.status, ((await login.json()) as { code: number }).code]).toEqual([200, CODE.OK]);
        const status = await fetch(`${srv.url}/api/v2/common/email_status`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ email: address }),
        });
        expect(status.status).not.toBe(401);
      }
    }
  });

  it('an invalid key on a call that needs one: 401 invalidApiKey; no credentials at all: 401 missingCredentials', async () => {
    for (const key of BAD_KEYS) {
      for (const p of ['/api/v2/point', '/web_api/v1/progress?trans_id=7b1e0c52-93aa-4f6e-b0d2-5c4e8f9a1d30']) {
        const r = await fetch(`${srv.url}${p}`, { headers: { 'x-api-key': key } });
        expect([r.status, ((await r.json()) as { data: unknown }).data]).toEqual([401, { reason: 'invalidApiKey' }]);
      }
      const proc = await fetch(`${srv.url}/api/v1/process`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: new URLSearchParams({ url: 'https://example.com/x.jpg', feature: 'enlarge' }),
      });
      expect([proc.status, ((await proc.json()) as { data: unknown }).data]).toEqual([
        401,
        { reason: 'invalidApiKey' },
      ]);
    }
    for (const p of ['/api/v2/point', '/api/v2/license']) {
      const r = await fetch(`${srv.url}${p}`, { method: p.endsWith('license') ? 'POST' : 'GET' });
      expect([r.status, ((await r.json()) as { data: unknown }).data]).toEqual([401, { reason: 'missingCredentials' }]);
    }
    const proc = await fetch(`${srv.url}/api/v1/process`, {
      method: 'POST',
      body: new URLSearchParams({ url: 'https://example.com/x.jpg', feature: 'enlarge' }),
    });
    expect([proc.status, ((await proc.json()) as { data: unknown }).data]).toEqual([
      401,
      { reason: 'missingCredentials' },
    ]);
  });
});
