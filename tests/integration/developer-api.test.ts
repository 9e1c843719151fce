/**
 * The developer API as a developer meets it (docs/api.md): X-Api-Key wherever an API token works, 404/405
 * whatever the credentials, the synchronous POST /api/v1/process (the image in one call, the same
 * credits, limits and queue), rate-limit and credit headers, extra fields refused where credits are
 * spent, bounded ids, upload by URL with an API token, size refusals naming the limit and serialised
 * token resets. Then the attack classes: floods, oversize bodies, hang-ups mid-wait, replays — no 500,
 * in both run modes (npm test's scale-out pass runs this file on PostgreSQL + BullMQ too).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PLANS, API_TOKEN_RATE_LIMIT_PER_MINUTE } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { CHUNK_SIZE_BYTES } from '../../src/shared/domain/constants.js';
import { MAX_ID } from '../../src/shared/schemas/common.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';
import { until } from './until.js';

const photo = (w = 64, h = 48) =>
  sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .jpeg()
    .toBuffer();
type Json = { code: number; msg: string; data: any };

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(async () => {
  await srv?.stop();
});

let n = 0;
/** A signed-in account with an API token: Pro, or a pack-only account (an API plan without a subscription: the smallest limits). */
async function developer(kind: 'pro' | 'pack' = 'pro', s: TestServer = srv) {
  const u = await Caller.user(s, `dev-${kind}-${Date.now()}-${n++}@example.com`, kind === 'pro' ? 'pro' : undefined);
  if (kind === 'pack') await s.ctx.services.apiTokens.grantPack(u.accountId, API_PLANS[0]!, `test-${u.accountId}`);
  const r = await u.form('/api/v2/api_token/get');
  expect(r.body.code).toBe(CODE.OK);
  return { u, key: r.body.data.api_token as string };
}

const charges = async (accountId: number, s: TestServer = srv) =>
  (
    await s.ctx.db
      .selectFrom('credit_ledger')
      .select('ref')
      .where('account_id', '=', accountId)
      .where('kind', 'in', ['charge', 'compress_charge'])
      .execute()
  ).length;

/** POST /api/v1/process with X-Api-Key and multipart fields (a file when given). */
async function processCall(
  key: string,
  fields: Record<string, string>,
  file?: Buffer,
  opts: { headers?: Record<string, string>; signal?: AbortSignal; s?: TestServer } = {},
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  if (file) fd.set('file', new Blob([file]), 'photo.jpg');
  return fetch(`${(opts.s ?? srv).url}/api/v1/process`, {
    method: 'POST',
    headers: { 'x-api-key': key, ...opts.headers },
    body: fd,
    signal: opts.signal,
  });
}
const envelope = async (r: Response) => (await r.json()) as Json;

describe('X-Api-Key and wrong routes', () => {
  it('X-Api-Key is an API token wherever Bearer and api_token are', async () => {
    const { key } = await developer();
    const up = await fetch(`${srv.url}/web_api/v1/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: (() => {
        const f = new FormData();
        f.set('file', new Blob([Buffer.alloc(0)]), 'x.jpg');
        return f;
      })(),
    });
    // the key was taken (the refusal is the file's, not the token's)
    expect((await envelope(up)).data.reason).toBe('emptyFile');
    const lic = await fetch(`${srv.url}/api/v2/license`, { method: 'POST', headers: { 'x-api-key': key } });
    expect([lic.status, (await envelope(lic)).code]).toEqual([200, CODE.OK]);
    // a call the token does not make refuses it, as with Bearer
    const mint = await fetch(`${srv.url}/api/v2/api_token/reset`, { method: 'POST', headers: { 'x-api-key': key } });
    expect([mint.status, (await envelope(mint)).code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    const wrong = await fetch(`${srv.url}/api/v2/license`, {
      method: 'POST',
      headers: { 'x-api-key': 'pxm_not-a-token' },
    });
    expect([wrong.status, (await envelope(wrong)).data]).toEqual([401, { reason: 'invalidApiKey' }]);
  });

  it('a path no call has answers 404, a method a path does not take 405 with Allow — whatever the credentials', async () => {
    const { u, key } = await developer();
    const credentials: Record<string, string>[] = [
      {},
      { 'x-api-key': key },
      { authorization: `Bearer ${key}` },
      { 'x-api-key': 'pxm_wrong' },
      { cookie: `user_token=${u.token}` },
    ];
    for (const headers of credentials) {
      const missing = await fetch(`${srv.url}/web_api/v1/no-such-call`, { headers });
      expect([missing.status, (await envelope(missing)).data?.reason]).toEqual([404, 'routeNotFound']);
      const get = await fetch(`${srv.url}/web_api/v1/transform`, { headers });
      expect([get.status, get.headers.get('allow'), (await envelope(get)).data?.reason]).toEqual([
        405,
        'POST',
        'methodNotAllowed',
      ]);
      const del = await fetch(`${srv.url}/api/v1/process`, { method: 'DELETE', headers });
      expect([del.status, del.headers.get('allow')]).toEqual([405, 'POST']);
    }
  });
});

describe('rate-limit and credit headers', () => {
  it(`every API-token answer says where its limit stands; call ${API_TOKEN_RATE_LIMIT_PER_MINUTE + 1} is 429 with Retry-After and reason rateLimited`, async () => {
    const { key } = await developer();
    const first = await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': key } });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(API_TOKEN_RATE_LIMIT_PER_MINUTE));
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(API_TOKEN_RATE_LIMIT_PER_MINUTE - 1));
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    let last = first;
    for (let i = 1; i <= API_TOKEN_RATE_LIMIT_PER_MINUTE; i++)
      last = await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': key } });
    expect(last.status).toBe(429);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await envelope(last)).data).toMatchObject({ reason: 'rateLimited', max: API_TOKEN_RATE_LIMIT_PER_MINUTE });
    // a site token's call carries none of them
    const site = await Caller.user(srv, `site-${Date.now()}@example.com`);
    expect(
      (await site.fetch('/api/v2/point', {}, { user_token: site.token })).headers.get('x-ratelimit-limit'),
    ).toBeNull();
  });
});

describe('POST /api/v1/process', () => {
  it('answers the processed image itself, with its name, the work and the credits; one credit, the same ledger as transform', async () => {
    const { u, key } = await developer();
    const before = (await u.form('/api/v2/license')).body.data;
    const r = await processCall(key, { feature: 'sharpen', sharpness: '60' }, await photo());
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/jpeg');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="photo_sharpen\.jpg"/);
    expect(r.headers.get('x-credits-charged')).toBe('1');
    expect(Number(r.headers.get('x-credits-left'))).toBe(before.max_num - before.used_num - 1);
    expect(r.headers.get('x-ratelimit-limit')).toBe(String(API_TOKEN_RATE_LIMIT_PER_MINUTE));
    const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 64, 48]);
    // the work is an ordinary work: its progress and download answer as for transform
    const transId = r.headers.get('x-trans-id')!;
    const prog = await fetch(`${srv.url}/web_api/v1/progress?trans_id=${transId}`, { headers: { 'x-api-key': key } });
    expect((await envelope(prog)).data.status).toBe('finish');
    expect(await charges(u.accountId)).toBe(1);
    // its upload is an ordinary upload (the work's source), the one in the caller's list
    expect((await u.form('/web_api/v1/upload/list')).body.data.datas).toHaveLength(1);
  }, 120_000);

  it('takes jconfig instead of feature, and a JSON body with a url instead of a file (upload by URL with an API token)', async () => {
    const { u, key } = await developer();
    const img = await photo(40, 30);
    const remote = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(img));
    await new Promise<void>((ok) => remote.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    srv.ctx.config.allowPrivateUrls = true;
    try {
      const r = await fetch(`${srv.url}/api/v1/process`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `${base}/cat.jpg`,
          jconfig: { job: 'compress', config: { module_params: { quality: 40 } } },
        }),
      });
      expect(r.status).toBe(200);
      expect((await sharp(Buffer.from(await r.arrayBuffer())).metadata()).width).toBe(40);
      // compress works draw on compress credits: the header counts those
      expect(Number(r.headers.get('x-credits-left'))).toBe(
        (await srv.ctx.services.credits.balance(u.accountId)).compress_left,
      );
      // the asynchronous upload by URL takes the API token too
      const byUrl = await fetch(`${srv.url}/api/job_utils/upload_url`, {
        method: 'POST',
        headers: { 'x-api-key': key },
        body: new URLSearchParams({ url: `${base}/cat.jpg`, type: 'enlarge' }),
      });
      expect((await envelope(byUrl)).data.data).toMatchObject({ w: 40, h: 30 });
    } finally {
      srv.ctx.config.allowPrivateUrls = false;
      remote.close();
    }
  }, 120_000);

  it('refuses with the envelope, a reason and an HTTP status that says why — and charges nothing', async () => {
    const { u, key } = await developer();
    const img = await photo();
    const cases: Array<[Record<string, string>, Buffer | undefined, number, Record<string, unknown>]> = [
      [{ feature: 'sharpen' }, undefined, 400, { reason: 'fieldRequired', field: 'file' }],
      [{}, img, 400, { reason: 'fieldRequired', field: 'jconfig' }],
      [{ feature: 'sharpen', colour: 'red' }, img, 400, { reason: 'fieldUnknown', field: 'colour' }],
      [{ feature: 'sharpen', scale: '2' }, img, 400, { reason: 'paramUnknown', param: 'scale' }],
      [{ feature: 'enlarge', scale: '3' }, img, 400, { reason: 'paramInvalid', param: 'scale', allowed: [2, 4, 6, 8] }],
      [{ jconfig: '{"job":"sharpen","colour":"red"}' }, img, 400, { reason: 'fieldUnknown', field: 'jconfig.colour' }],
      [
        { jconfig: '{"job":"enlarge","config":{"module":"enlarge","module_params":{"scale":2,"strength":9}}}' },
        img,
        400,
        { reason: 'paramUnknown', param: 'strength' },
      ],
      [{ jconfig: '{"job":"sharpen"}', feature: 'sharpen' }, img, 400, { reason: 'fieldInvalid', field: 'feature' }],
      [{ feature: 'sharpen', wait: '0' }, img, 400, { reason: 'fieldInvalid', field: 'wait' }],
    ];
    for (const [fields, file, status, data] of cases) {
      const r = await processCall(key, fields, file);
      const body = await envelope(r);
      expect([JSON.stringify(fields), r.status, body.code]).toEqual([JSON.stringify(fields), status, CODE.PARAM_ERROR]);
      expect(body.data).toMatchObject(data);
    }
    const bad = await processCall(key, { feature: 'sharpen' }, img, {
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect([bad.status, (await envelope(bad)).data.field]).toEqual([400, 'Idempotency-Key']);
    // a site token is not an API key
    const site = await fetch(`${srv.url}/api/v1/process`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_token: u.token, url: 'https://example.com/a.jpg', feature: 'sharpen' }),
    });
    expect([site.status, (await envelope(site)).code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    expect(await charges(u.accountId)).toBe(0);
  });

  it('plan limits and credits answer 403, 413 (naming the limit) and 402, before anything is charged', async () => {
    // a pack-only account has the smallest limits: 2x only, 5 MB
    const { u, key } = await developer('pack');
    const img = await photo();
    const scale = await processCall(key, { feature: 'enlarge', scale: '4' }, img);
    expect([scale.status, (await envelope(scale)).data.reason]).toEqual([403, 'scaleSubscribersOnly']);
    const { maxFileBytes } = u.accountId
      ? (await srv.ctx.services.tokens.resolve(u.token)).limits
      : { maxFileBytes: 0 };
    const big = await processCall(key, { feature: 'sharpen' }, Buffer.concat([img, Buffer.alloc(maxFileBytes)]));
    const bigBody = await envelope(big);
    expect([big.status, bigBody.code, bigBody.msg]).toEqual([413, CODE.PARAM_ERROR, 'Your file is too large']);
    expect(bigBody.data).toMatchObject({ reason: 'fileTooLarge', max: maxFileBytes });
    await srv.ctx.db
      .updateTable('accounts')
      .set((eb) => ({ used_num: eb.ref('max_num') }))
      .where('id', '=', u.accountId)
      .execute();
    const broke = await processCall(key, { feature: 'sharpen' }, img);
    expect([broke.status, (await envelope(broke)).code]).toEqual([402, CODE.INSUFFICIENT_CREDITS]);
    expect(await charges(u.accountId)).toBe(0);
  });

  it('Idempotency-Key: repeats, in a row or at once, answer the same work — one upload, one charge', async () => {
    const { u, key } = await developer();
    const img = await photo();
    const once = { headers: { 'idempotency-key': 'order-1' } };
    const a = await processCall(key, { feature: 'sharpen' }, img, once);
    const b = await processCall(key, { feature: 'sharpen' }, img, once);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('x-trans-id')).toBe(a.headers.get('x-trans-id'));
    expect([a.headers.get('x-credits-charged'), b.headers.get('x-credits-charged')]).toEqual(['1', '0']);
    const twice = { headers: { 'idempotency-key': 'order-2' } };
    const racing = await Promise.all([
      processCall(key, { feature: 'sharpen' }, img, twice),
      processCall(key, { feature: 'sharpen' }, img, twice),
    ]);
    expect(racing.map((r) => r.status)).toEqual([200, 200]);
    expect(racing[0]!.headers.get('x-trans-id')).toBe(racing[1]!.headers.get('x-trans-id'));
    expect(await charges(u.accountId)).toBe(2);
    // another account's same key is another work
    const other = await developer();
    const c = await processCall(other.key, { feature: 'sharpen' }, img, once);
    expect(c.headers.get('x-trans-id')).not.toBe(a.headers.get('x-trans-id'));
  }, 120_000);
});

describe('POST /api/v1/process while the work waits in the queue', () => {
  // no runner: every work stays queued, so the wait always ends before the work does
  let idle: TestServer;
  beforeAll(async () => {
    idle = await startApiServer();
  });
  afterAll(async () => {
    await idle?.stop();
  });

  it('answers 202 with the trans_id when the wait ends; a client that hangs up leaves the work queued and charged once', async () => {
    const { u, key } = await developer('pro', idle);
    const r = await processCall(key, { feature: 'sharpen', wait: '1' }, await photo(), { s: idle });
    const body = await envelope(r);
    expect(r.status).toBe(202);
    expect(body.data).toMatchObject({
      reason: 'stillProcessing',
      status: 'progress',
      trans_id: r.headers.get('x-trans-id'),
    });
    expect(r.headers.get('location')).toBe(`/web_api/v1/progress?trans_id=${body.data.trans_id}`);
    expect(await charges(u.accountId, idle)).toBe(1);

    const hangUp = new AbortController();
    const waiting = processCall(key, { feature: 'sharpen' }, await photo(), { s: idle, signal: hangUp.signal }).catch(
      (e: unknown) => e,
    );
    await until(
      () => charges(u.accountId, idle),
      (c) => c === 2,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    hangUp.abort();
    expect(await waiting).toBeInstanceOf(Error);
    const works = await idle.ctx.db
      .selectFrom('jobs')
      .select(['status'])
      .where('account_id', '=', u.accountId)
      .execute();
    expect(works.map((w) => w.status)).toEqual(['queued', 'queued']);
    expect(await charges(u.accountId, idle)).toBe(2);
    // the server goes on answering the same caller
    expect((await fetch(`${idle.url}/api/v2/point`, { headers: { 'x-api-key': key } })).status).toBe(200);
  }, 60_000);

  it('a flood of calls at once: each answers 202 or 429 (waits and works at once are capped), never 500; only the started works are charged', async () => {
    const { u, key } = await developer('pro', idle);
    const img = await photo();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => processCall(key, { feature: 'sharpen', wait: '1' }, img, { s: idle })),
    );
    const statuses = answers.map((r) => r.status);
    expect(
      statuses.every((st) => st === 202 || st === 429),
      statuses.join(','),
    ).toBe(true);
    const started = statuses.filter((st) => st === 202).length;
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(10);
    for (const r of answers.filter((a) => a.status === 429))
      expect((await envelope(r)).data.reason).toMatch(/^(rateLimited|batchLimit)$/);
    expect(await charges(u.accountId, idle)).toBe(started);
  }, 60_000);
});

describe('write routes that spend credits, and ids', () => {
  it('transform refuses a field it does not take (and one inside jconfig) without a charge; a numeric uid is a refused field, not a 404', async () => {
    const { u, key } = await developer();
    const up = await u.upload(await photo(), 'photo.jpg', 'sharpen');
    const uid = up.body.data.data.uid as string;
    const transform = (body: unknown) =>
      fetch(`${srv.url}/web_api/v1/transform`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const extra = await envelope(await transform({ uid, jconfig: { job: 'sharpen' }, priority: 'high' }));
    expect(extra).toMatchObject({ code: CODE.PARAM_ERROR, data: { reason: 'fieldUnknown', field: 'priority' } });
    const inner = await envelope(
      await transform({
        uid,
        jconfig: { job: 'sharpen', config: { module: 'sharpen', module_params: {} }, priority: 'high' },
      }),
    );
    expect(inner).toMatchObject({
      code: CODE.PARAM_ERROR,
      data: { reason: 'fieldUnknown', field: 'jconfig.priority' },
    });
    const numeric = await transform({ uid: 123, jconfig: { job: 'sharpen' } });
    expect([numeric.status, (await envelope(numeric)).data]).toMatchObject([
      200,
      { reason: 'fieldInvalid', field: 'uid' },
    ]);
    expect(await charges(u.accountId)).toBe(0);
    // the right call is charged, and says so
    const okCall = await transform({ uid, jconfig: { job: 'sharpen' } });
    const left = (await srv.ctx.services.credits.balance(u.accountId)).left;
    expect([okCall.headers.get('x-credits-charged'), okCall.headers.get('x-credits-left')]).toEqual([
      '1',
      String(left),
    ]);
    expect((await envelope(okCall)).data.credits_left).toBe(left);
  }, 60_000);

  it(`workflow ids past ${MAX_ID} are refused fields, never a database error`, async () => {
    const u = await Caller.user(srv, `ids-${Date.now()}@example.com`, 'pro');
    const huge = String(MAX_ID + 1);
    for (const [path, fields] of [
      ['/api/work_flow/update', { id: huge, name: 'x', flows: '[{"name":"a","config":{"module":"sharpen"}}]' }],
      ['/api/work_flow/delete', { id: huge }],
      ['/api/work_flow/delete', { ids: `1,${huge}` }],
      ['/api/work_flow/active_flows', { ids: '99999999999999' }],
    ] as const) {
      const r = await u.form(path, fields);
      expect([path, r.status, r.body.code]).toEqual([path, 200, CODE.PARAM_ERROR]);
      expect(r.body.data.reason).toBe('fieldInvalid');
    }
    const json = await u.json('/api/work_flow/delete', { id: MAX_ID + 1 });
    expect([json.status, json.body.data.field]).toEqual([200, 'id']);
  });
});

describe('api_token reset', () => {
  it('parallel resets are serialised: one answers the new token, the others a conflict, and that token works', async () => {
    const { u, key } = await developer();
    const answers = await Promise.all(Array.from({ length: 6 }, () => u.form('/api/v2/api_token/reset')));
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409);
    expect([won.length, lost.length]).toEqual([1, 5]);
    for (const l of lost)
      expect(l.body).toMatchObject({ code: CODE.PARAM_ERROR, data: { reason: 'apiTokenResetConflict' } });
    // the one token answered works; the old one does not
    const fresh = won[0]!.body.data.api_token as string;
    expect((await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': fresh } })).status).toBe(200);
    expect((await fetch(`${srv.url}/api/v2/point`, { headers: { 'x-api-key': key } })).status).toBe(401);
    // the account page shows that token's hint
    expect((await u.form('/api/v2/api_token/get')).body.data.masked).toBe(`pxm_…${fresh.slice(-4)}`);
  });
});

describe('live answers and the document', () => {
  /** A document's schema with its component references put in place (the components hold no cycles). */
  function inline(s: unknown, components: Record<string, unknown>): unknown {
    if (Array.isArray(s)) return s.map((x) => inline(x, components));
    if (!s || typeof s !== 'object') return s;
    const o = s as Record<string, unknown>;
    if (typeof o.$ref === 'string') return inline(components[o.$ref.split('/').pop()!], components);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, inline(v, components)]));
  }

  it('30 live JSON answers, successes and refusals, match the schema the document gives their status (ajv)', async () => {
    const served = (await (await fetch(`${srv.url}/api-docs/openapi.json`)).json()) as {
      paths: Record<string, Record<string, any>>;
      components: { schemas: Record<string, unknown> };
    };
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const mismatches: string[] = [];
    let checked = 0;
    async function check(method: string, p: string, r: Response) {
      const op = served.paths[p]?.[method.toLowerCase()];
      expect(op, `${method} ${p}`).toBeDefined();
      const answer = op.responses[String(r.status)] ?? op.responses.default;
      const schema = answer?.content?.['application/json']?.schema;
      expect(schema, `${method} ${p} ${r.status}`).toBeDefined();
      const body = await r.json();
      const validate = ajv.compile(inline(schema, served.components.schemas) as object);
      if (!validate(body))
        mismatches.push(
          `${method} ${p} ${r.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`,
        );
      checked++;
      return body as Json;
    }
    const { u, key } = await developer();
    const api = (init: RequestInit = {}) => ({
      ...init,
      headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) },
    });
    const form = (fields: Record<string, string>) => api({ method: 'POST', body: new URLSearchParams(fields) });
    const multipart = (fields: Record<string, string>, file?: Buffer) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.set(k, v);
      if (file) fd.set('file', new Blob([file]), 'photo.jpg');
      return api({ method: 'POST', body: fd });
    };
    const at = (p: string) => `${srv.url}${p}`;
    const img = await photo();

    await check('GET', '/api/health', await fetch(at('/api/health')));
    await check('POST', '/api/v2/guest_token', await fetch(at('/api/v2/guest_token'), { method: 'POST' }));
    await check('GET', '/api/v2/sample/info', await fetch(at('/api/v2/sample/info')));
    await check('GET', '/api/v2/point', await fetch(at('/api/v2/point'), api()));
    await check('POST', '/api/v2/license', await fetch(at('/api/v2/license'), api({ method: 'POST' })));
    await check('GET', '/api/v2/subscribe_info', await fetch(at('/api/v2/subscribe_info'), api()));
    const uploaded = await check(
      'POST',
      '/web_api/v1/upload',
      await fetch(at('/web_api/v1/upload'), multipart({ job: 'sharpen' }, img)),
    );
    const uid = uploaded.data.data.uid as string;
    await check('POST', '/web_api/v1/upload', await fetch(at('/web_api/v1/upload'), multipart({ job: 'sharpen' })));
    const slice = await check(
      'POST',
      '/api/v2/upload_slice',
      await fetch(
        at('/api/v2/upload_slice'),
        // a first slice of two is exactly the slice size (only the last may be shorter)
        multipart(
          { blob_num: '1', total_blob_num: '2', name: 'big.jpg', job: 'sharpen' },
          Buffer.concat([img, Buffer.alloc(CHUNK_SIZE_BYTES - img.length)]),
        ),
      ),
    );
    await check(
      'POST',
      '/api/v2/upload_slice/status',
      await fetch(at('/api/v2/upload_slice/status'), form({ uid: slice.data.uid })),
    );
    await check(
      'POST',
      '/api/v2/upload_slice',
      await fetch(at('/api/v2/upload_slice'), multipart({ blob_num: '3', total_blob_num: '2' }, img)),
    );
    const started = await check(
      'POST',
      '/web_api/v1/transform',
      await fetch(at('/web_api/v1/transform'), form({ uid, jconfig: '{"job":"sharpen"}' })),
    );
    await check(
      'POST',
      '/web_api/v1/transform',
      await fetch(at('/web_api/v1/transform'), form({ uid, jconfig: '{"job":"sharpen"}', speed: 'max' })),
    );
    await check(
      'POST',
      '/web_api/v1/transform',
      await fetch(
        at('/web_api/v1/transform'),
        form({ uid, jconfig: '{"job":"enlarge","config":{"module_params":{"scale":5}}}' }),
      ),
    );
    await check(
      'GET',
      '/web_api/v1/progress',
      await fetch(at(`/web_api/v1/progress?trans_id=${started.data.trans_id}`), api()),
    );
    await check('GET', '/web_api/v1/progress', await fetch(at('/web_api/v1/progress?trans_id=no-such-work'), api()));
    await check(
      'GET',
      '/web_api/v1/progress',
      await fetch(at('/web_api/v1/progress?trans_id=x'), { headers: { 'x-api-key': 'pxm_wrong' } }),
    );
    await check(
      'POST',
      '/api/v1/process',
      await fetch(at('/api/v1/process'), multipart({ feature: 'sharpen', tint: 'blue' }, img)),
    );
    await check(
      'POST',
      '/api/v1/process',
      await fetch(at('/api/v1/process'), multipart({ feature: 'enlarge', scale: '4' })),
    );
    await check(
      'POST',
      '/api/job_utils/upload_url',
      await fetch(at('/api/job_utils/upload_url'), form({ url: 'file:///etc/passwd' })),
    );
    await check(
      'POST',
      '/web_api/v1/upload/list',
      await fetch(at('/web_api/v1/upload/list'), {
        method: 'POST',
        body: new URLSearchParams({ user_token: u.token }),
      }),
    );
    await check('GET', '/api/v2/retention', await fetch(at(`/api/v2/retention?user_token=${u.token}`)));
    await check('GET', '/api/job/record', await fetch(at(`/api/job/record?user_token=${u.token}`)));
    await check(
      'POST',
      '/api/v2/thumbsup',
      await fetch(at('/api/v2/thumbsup'), {
        method: 'POST',
        body: new URLSearchParams({ user_token: u.token, trans_id: started.data.trans_id, thumbsup: '7' }),
      }),
    );
    await check(
      'POST',
      '/api/v2/point/check',
      await fetch(at('/api/v2/point/check'), { method: 'POST', body: new URLSearchParams({ user_token: u.token }) }),
    );
    await check('GET', '/api/work_flow/list', await fetch(at(`/api/work_flow/list?user_token=${u.token}`)));
    await check(
      'POST',
      '/api/work_flow/add',
      await fetch(at('/api/work_flow/add'), {
        method: 'POST',
        body: new URLSearchParams({
          user_token: u.token,
          name: 'two steps',
          flows: '[{"name":"a","config":{"module":"denoise"}},{"name":"b","config":{"module":"enlarge"}}]',
        }),
      }),
    );
    await check(
      'POST',
      '/api/work_flow/delete',
      await fetch(at('/api/work_flow/delete'), {
        method: 'POST',
        body: new URLSearchParams({ user_token: u.token, id: String(MAX_ID + 1) }),
      }),
    );
    await check(
      'POST',
      '/api/v2/api_token/get',
      await fetch(at('/api/v2/api_token/get'), { method: 'POST', body: new URLSearchParams({ user_token: u.token }) }),
    );
    await check(
      'POST',
      '/api/v2/api_token/reset',
      await fetch(at('/api/v2/api_token/reset'), {
        method: 'POST',
        body: new URLSearchParams({ user_token: u.token }),
      }),
    );
    await check(
      'POST',
      '/api/v2/api_token/reset',
      await fetch(at('/api/v2/api_token/reset'), {
        method: 'POST',
        body: new URLSearchParams({ user_token: u.token }),
      }),
    );
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(30);
  }, 60_000);
});
