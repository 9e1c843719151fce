/**
 * Issue 48, point 7: without PUBLIC_URL the own origin is the request's scheme and Host (an https page is
 * not the http site), an Origin or Referer with user-info is never own; and request logs hold no e-mail
 * address and no credential under any spelling of its key. Real HTTP, in the suite's mode.
 */
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { createContext } from '../../server/bootstrap.js';
import { loadConfig } from '../../server/config.js';
import { maskUrl, REDACTED } from '../../server/http/logging.js';
import { testModeOverrides } from '../support/modes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { send } from './security-helpers.js';
import { until } from './until.js';

describe('the own origin without PUBLIC_URL', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ runJobs: false });
  });
  afterAll(() => srv?.stop());

  const guestToken = (headers: Record<string, string>) => send(srv.url, 'POST', '/api/v2/guest_token', headers);

  it('the same host and port under https is another origin: refused on this http server', async () => {
    const https = srv.url.replace('http://', 'https://');
    const r = await guestToken({ origin: https });
    expect(r.status).toBe(403);
    expect(r.body?.data).toEqual({ reason: 'crossSite' });
    expect((await guestToken({ referer: `${https}/upload/` })).status).toBe(403);
    // the own origin itself still passes
    expect((await guestToken({ origin: srv.url })).status).toBe(200);
  });

  it('an Origin or Referer with user-info is refused', async () => {
    const withUser = srv.url.replace('http://', 'http://attacker@');
    expect((await guestToken({ origin: withUser })).status).toBe(403);
    expect((await guestToken({ origin: srv.url.replace('http://', 'http://a:b@') })).status).toBe(403);
    expect((await guestToken({ referer: `${withUser}/upload/` })).status).toBe(403);
  });

  it('behind a trusted proxy, X-Forwarded-Proto names the scheme', async () => {
    const proxied = await startTestServer({ runJobs: false, trustProxy: ['127.0.0.1'] });
    try {
      const host = new URL(proxied.url).host;
      const at = (origin: string, proto: string) =>
        send(proxied.url, 'POST', '/api/v2/guest_token', { origin, 'x-forwarded-proto': proto });
      expect((await at(`https://${host}`, 'https')).status).toBe(200);
      expect((await at(`http://${host}`, 'https')).status).toBe(403);
    } finally {
      await proxied.stop();
    }
  });
});

describe('no e-mail address or credential in request logs', () => {
  it('maskUrl blanks e-mail addresses anywhere and credentials under any spelling of their key', () => {
    expect(maskUrl('/api/v2/checkout?email=buyer%40example.com&product_id=2')).toBe(
      `/api/v2/checkout?email=${REDACTED}&product_id=2`,
    );
    expect(maskUrl('/a?to=someone@example.com')).toBe(`/a?to=${REDACTED}`);
    expect(maskUrl('/users/someone@example.com/x')).toBe(`/users/${REDACTED}/x`);
    expect(maskUrl('/a?api_key=K1&x-token=K2&E_Mail=m&new_password=p&apikey=K3&q=1')).toBe(
      `/a?api_key=${REDACTED}&x-token=${REDACTED}&E_Mail=${REDACTED}&new_password=${REDACTED}&apikey=${REDACTED}&q=1`,
    );
  });

  let log = '';
  let url = '';
  let stop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-test-'));
    const mode = await testModeOverrides({ dataDir });
    const ctx = await createContext(
      loadConfig(process.env, {
        port: 0,
        host: '127.0.0.1',
        logLevel: 'info',
        dataDir,
        databaseUrl: undefined,
        redisUrl: undefined,
        runJobs: false,
        ...mode.overrides,
      }),
    );
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => (log += d.toString('utf8')));
    const app = await buildApp(ctx, { logStream: stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    stop = async () => {
      await app.close();
      await mode.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => stop());

  it('checkout by e-mail, a path with an address and odd key spellings leave none of them in the log', async () => {
    await send(url, 'GET', '/api/v2/checkout?email=buyer%40example.com&product_id=1');
    await send(url, 'POST', '/api/v2/checkout?email=buyer2@example.com', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    await send(url, 'GET', '/api/nowhere/someone@example.org?api_key=SECRETKEY1&x_token=SECRETKEY2');
    await until(
      () => log,
      (l) => l.includes('/api/nowhere/'),
      { timeoutMs: 5000 },
    );
    expect(log).toContain('/api/v2/checkout?email=[REDACTED]');
    for (const s of ['buyer', 'someone', 'example.com', 'example.org', 'SECRETKEY1', 'SECRETKEY2'])
      expect(log.includes(s), `${s} in the log`).toBe(false);
  });
});
