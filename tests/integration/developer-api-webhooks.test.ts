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
  headers: http.IncomingHttpHeaders;
  body: string;
  answered: number;
}
let receiver: http.Server;
let receiverUrl = '';
const received: Received[] = [];
/** The receiver's answers, in order: the first two tries fail, later ones succeed. */
const failFirst = 2;

let srv: TestServer;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = received.length < failFirst ? 500 : 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/pixmill`;
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
    for (const x of got) {
      const sig = String(x.headers['pixmill-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${x.body}`).digest('hex'));
      expect(x.headers['content-type']).toBe('application/json');
    }
    const event = JSON.parse(got[2]!.body) as Record<string, unknown>;
    expect(event).toMatchObject({ event: 'work.finished', trans_id: transId, status: 'finish', result_w: 80 });
    expect(String(event.download_url)).toContain(`/web_api/v1/download/?trans_id=${transId}`);

    const list = await until(
      async () => {
        const a = await fetch(`${srv.url}/api/v2/api_token/webhooks`, {
          method: 'POST',
          body: new URLSearchParams({ user_token: userToken }),
        });
        return ((await a.json()) as { data: Array<Record<string, unknown>> }).data;
      },
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
      async () => {
        const a = await fetch(`${strict.url}/api/v2/api_token/webhooks`, {
          method: 'POST',
          body: new URLSearchParams({ user_token: userToken }),
        });
        return ((await a.json()) as { code: number; data: Array<Record<string, unknown>> }).data;
      },
      (xs) => xs[0]?.status === 'failed',
    );
    expect(rows[0]).toMatchObject({ status: 'failed', last_error: 'urlPrivate', attempts: 1 });
    expect(received.length).toBe(before);
    expect(CODE.OK).toBe(200);
  });
});
