/**
 * Completion webhooks over real HTTP, in both run modes (issue 49 point 6): a work started with webhook_url
 * POSTs its end to a real receiver on 127.0.0.1 (reached through ALLOW_PRIVATE_URLS, the tests-only setting
 * upload_url's tests use), signed with the key's secret, retried until a 2xx; listed for the account; and
 * the SSRF rule of upload_url holds for webhook_url on a server that does not allow private addresses.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from './until.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  answered: number;
}
let receiver: http.Server;
let receiverUrl = '';
/** The receiver's other path, which answers 200 from the first try. */
let acceptingUrl = '';
const received: Received[] = [];
/** The receiver's answers at receiverUrl, in order: the first two tries fail, later ones succeed. */
const failFirst = 2;
const RETRYING_PATH = '/hooks/pixmill';

let srv: TestServer;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const earlier = received.filter((x) => x.path === RETRYING_PATH).length;
      const answered = path === RETRYING_PATH && earlier < failFirst ? 500 : 200;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  receiverUrl = `${origin}${RETRYING_PATH}`;
  acceptingUrl = `${origin}/hooks/accepting`;
  srv = await startTestServer({ allowPrivateUrls: true, apiWebhookRetryMs: 20 });
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  await new Promise((r) => receiver.close(r));
});

let n = 0;
async function freeKey(s: TestServer) {
  const reg = await fetch(`${s.url}/api/account/register`, {
    method: 'POST',
    body: new URLSearchParams({
      email: `hook-${Date.now()}-${++n}@example.com`,
      password: 'passw0rdA1',
      confirm_password: 'passw0rdA1',
    }),
  });
  const userToken = ((await reg.json()) as { data: { user_token: string } }).data.user_token;
  const key = await fetch(`${s.url}/api/v2/api_token/get`, {
    method: 'POST',
    body: new URLSearchParams({ user_token: userToken }),
  });
  const data = ((await key.json()) as { data: { api_token: string; webhook_secret: string } }).data;
  return { key: data.api_token, secret: data.webhook_secret, userToken };
}

const photo = () =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 30, g: 60, b: 90 } } })
    .jpeg()
    .toBuffer();

/** A delivery as a receiver checks it: JSON, its event named, HMAC-SHA256 of `<t>.<body>` with the key's secret. */
function expectSigned(x: Received, secret: string, event: string) {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(x.headers['pixmill-signature'])) ?? [];
  expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${x.body}`).digest('hex'));
  expect(x.headers['content-type']).toBe('application/json');
  expect(x.headers['pixmill-event']).toBe(event);
}

async function deliveries(s: TestServer, userToken: string) {
  const a = await fetch(`${s.url}/api/v2/api_token/webhooks`, {
    method: 'POST',
    body: new URLSearchParams({ user_token: userToken }),
  });
  return ((await a.json()) as { data: Array<Record<string, unknown>> }).data;
}

async function processWithHook(s: TestServer, key: string, webhookUrl: string) {
  const fd = new FormData();
  fd.set('feature', 'sharpen');
  fd.set('webhook_url', webhookUrl);
  fd.set('file', new Blob([await photo()]), 'p.jpg');
  return fetch(`${s.url}/api/v1/process`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
}

describe('webhook_url', () => {
  it('POSTs the work’s end, signed with the key’s secret, retried until a 2xx, and lists the delivery', async () => {
    const { key, secret, userToken } = await freeKey(srv);
    expect(secret).toMatch(/^whsec_/);
    // shown once: a later get answers null
    const again = await fetch(`${srv.url}/api/v2/api_token/get`, {
      method: 'POST',
      body: new URLSearchParams({ user_token: userToken }),
    });
    expect(((await again.json()) as { data: { webhook_secret: unknown } }).data.webhook_secret).toBeNull();

    const r = await processWithHook(srv, key, receiverUrl);
    expect(r.status).toBe(200);
    const transId = r.headers.get('x-trans-id')!;
    const got = await until(
      () => received.filter((x) => x.body.includes(transId)),
      (xs) => xs.some((x) => x.answered === 200),
    );
    expect(got.map((x) => x.answered)).toEqual([500, 500, 200]);
    for (const x of got) expectSigned(x, secret, 'work.finished');
    const event = JSON.parse(got[2]!.body) as Record<string, unknown>;
    expect(event).toMatchObject({ event: 'work.finished', trans_id: transId, status: 'finish', result_w: 80 });
    expect(String(event.download_url)).toContain(`/web_api/v1/download/?trans_id=${transId}`);

    const list = await until(
      () => deliveries(srv, userToken),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(list[0]).toMatchObject({
      trans_id: transId,
      url: receiverUrl,
      status: 'delivered',
      event: 'work.finished',
      attempts: 3,
      last_http: 200,
    });
  });

  it('a work that fails POSTs work.failed once, with its status and reason, signed as a finished one is', async () => {
    const { key, secret, userToken } = await freeKey(srv);
    const form = new FormData();
    form.set('job', 'sharpen');
    form.set('file', new Blob([await photo()]), 'p.jpg');
    const up = await fetch(`${srv.url}/web_api/v1/upload`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form,
    });
    const uid = ((await up.json()) as { data: { data: { uid: string } } }).data.data.uid;
    // the stored working copy damaged, so the engine's decoder fails the work
    const stored = await srv.ctx.db
      .selectFrom('uploads')
      .select('blob_key')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    await srv.ctx.blobs.write(stored.blob_key!, (await photo()).subarray(0, 200));
    const t = await fetch(`${srv.url}/web_api/v1/transform`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: new URLSearchParams({ uid, jconfig: '{"job":"sharpen"}', webhook_url: acceptingUrl }),
    });
    const transId = ((await t.json()) as { data: { trans_id: string } }).data.trans_id;

    // the receiver hears it first (the list call has a rate limit a fast poll would reach), then the list says so
    const got = await until(
      () => received.filter((x) => x.body.includes(transId)),
      (xs) => xs.length > 0,
    );
    expect(got.map((x) => [x.path, x.answered])).toEqual([['/hooks/accepting', 200]]);
    const rows = await until(
      () => deliveries(srv, userToken),
      (xs) => xs[0]?.status === 'delivered' || xs[0]?.status === 'failed',
      { intervalMs: 100 },
    );
    expect(rows[0]).toMatchObject({
      trans_id: transId,
      url: acceptingUrl,
      status: 'delivered',
      event: 'work.failed',
      attempts: 1,
      last_http: 200,
    });
    // once: nothing more came while the delivery was recorded
    expect(received.filter((x) => x.body.includes(transId))).toEqual(got);
    expectSigned(got[0]!, secret, 'work.failed');
    const event = JSON.parse(got[0]!.body) as Record<string, unknown>;
    expect(event).toMatchObject({
      event: 'work.failed',
      trans_id: transId,
      status: 'fatal',
      job: 'sharpen',
      reason: 'processFailed',
    });
    expect(String(event.progress_url)).toContain(`/web_api/v1/progress?trans_id=${transId}`);
    expect(event).not.toHaveProperty('download_url');
    expect(event).not.toHaveProperty('result_w');
    // the progress call answers the same end
    const progress = await fetch(`${srv.url}/web_api/v1/progress?trans_id=${transId}`, {
      headers: { 'x-api-key': key },
    });
    expect(((await progress.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      status: 'fatal',
      reason: 'processFailed',
    });
  });

  it('a bad URL, and webhook_url from a site token, are refused before anything is stored', async () => {
    const { key } = await freeKey(srv);
    for (const bad of ['ftp://example.com/x', 'http://user:pw@example.com/x', 'not a url']) {
      const r = await processWithHook(srv, key, bad);
      expect([r.status, ((await r.json()) as { data: { field: string } }).data.field]).toEqual([400, 'webhook_url']);
    }
    const guest = await fetch(`${srv.url}/api/v2/guest_token`, { method: 'POST' });
    const token = ((await guest.json()) as { data: { token: string } }).data.token;
    const t = await fetch(`${srv.url}/web_api/v1/transform`, {
      method: 'POST',
      body: new URLSearchParams({
        guest_token_v2: token,
        uid: 'x',
        jconfig: '{"job":"compress"}',
        webhook_url: receiverUrl,
      }),
    });
    expect(((await t.json()) as { code: number; data: { field: string } }).data.field).toBe('webhook_url');
  });
});

describe('the SSRF rule of upload_url holds for webhook_url', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ apiWebhookRetryMs: 20 });
  }, 60_000);
  afterAll(async () => {
    await strict?.stop();
  });

  it('a loopback IP is refused at once; a name that resolves to loopback fails at connect time, nothing sent', async () => {
    const { key, userToken } = await freeKey(strict);
    const literal = await processWithHook(strict, key, receiverUrl);
    expect([literal.status, ((await literal.json()) as { data: { field: string } }).data.field]).toEqual([
      400,
      'webhook_url',
    ]);
    const before = received.length;
    const byName = await processWithHook(strict, key, receiverUrl.replace('127.0.0.1', 'localhost'));
    expect(byName.status).toBe(200);
    const rows = await until(
      () => deliveries(strict, userToken),
      (xs) => xs[0]?.status === 'failed',
    );
    expect(rows[0]).toMatchObject({ status: 'failed', last_error: 'urlPrivate', attempts: 1 });
    expect(received.length).toBe(before);
    expect(CODE.OK).toBe(200);
  });
});
