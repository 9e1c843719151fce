/**
 * Ready for the public internet, part 1: configuration, real client addresses
 * (TRUST_PROXY), tokens kept out of the logs, private data files, PUBLIC_URL. Part 2 (malformed
 * requests, headers, CSRF) is security-requests.test.ts. Real HTTP only.
 */
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { createContext } from '../../server/bootstrap.js';
import { loadConfig, parsePublicUrl, parseTrustProxy, type Config } from '../../server/config.js';
import { maskUrl } from '../../server/http/logging.js';
import { testModeOverrides } from '../support/modes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';
import { until } from './until.js';
import { expectRefusal, form, jpeg, rawSocket, send } from './security-helpers.js';

describe('configuration parsing', () => {
  it('TRUST_PROXY: off by default; a hop count or addresses/CIDRs; never "true"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', '*', 'proxy.example', '10.0.0.0/40', '1.2.3.4/8/9'])
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('PUBLIC_URL: an http(s) origin; default http://localhost:PORT', () => {
    expect(parsePublicUrl(undefined, 8080)).toEqual({ publicUrl: 'http://localhost:8080', publicUrlFixed: false });
    expect(parsePublicUrl('https://pixmill.example/', 8080)).toEqual({
      publicUrl: 'https://pixmill.example',
      publicUrlFixed: true,
    });
    expect(parsePublicUrl('https://pixmill.example:8443', 1)).toEqual({
      publicUrl: 'https://pixmill.example:8443',
      publicUrlFixed: true,
    });
    for (const bad of ['pixmill.example', 'ftp://x.example', 'https://x.example/app', 'https://x.example/?a=1'])
      expect(() => parsePublicUrl(bad, 1), bad).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it('log URLs: token-like query values are masked, the rest stays', () => {
    expect(maskUrl('/web_api/v1/progress?trans_id=t1&user_token=SECRET')).toBe(
      '/web_api/v1/progress?trans_id=t1&user_token=[REDACTED]',
    );
    expect(maskUrl('/a?guest_token_v2=S&token=S&Guest_Token=S&sig=S&nonce=S&uids%5B%5D=1&user%5Ftoken=S')).toBe(
      '/a?guest_token_v2=[REDACTED]&token=[REDACTED]&Guest_Token=[REDACTED]&sig=[REDACTED]&nonce=[REDACTED]&uids%5B%5D=1&user%5Ftoken=[REDACTED]',
    );
    expect(maskUrl('/plain/path')).toBe('/plain/path');
    expect(maskUrl('/a?%E0%A4%A=1&token=S')).toBe('/a?%E0%A4%A=1&token=[REDACTED]');
  });
});

describe('client addresses (TRUST_PROXY)', () => {
  const xff = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i % 250}, 198.51.100.${i % 250}` });
  const guestTokens = async (srv: TestServer, n: number, headers: (i: number) => Record<string, string>) => {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) codes.push((await send(srv.url, 'POST', '/api/v2/guest_token', headers(i))).status);
    return codes;
  };
  const logins = async (srv: TestServer, n: number, headers: (i: number) => Record<string, string>) => {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) {
      const f = form({ email: `nobody-${i}@example.com`, password: 'wrong-passw0rd' });
      codes.push((await send(srv.url, 'POST', '/api/account/login', { ...f.headers, ...headers(i) }, f.body)).status);
    }
    return codes;
  };

  describe('default: nobody is trusted', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ runJobs: false, guestTokenRateLimit: 5 });
    });
    afterAll(() => srv?.stop());

    it('a rotating X-Forwarded-For does not reset the guest-token limit', async () => {
      const codes = await guestTokens(srv, 8, xff);
      expect(codes.filter((c) => c === 200)).toHaveLength(5);
      expect(codes.slice(5)).toEqual([429, 429, 429]);
      const r = await send(srv.url, 'POST', '/api/v2/guest_token', xff(99));
      expectRefusal(r, 429, 'Too many requests, please retry later.');
    });

    it('a rotating X-Forwarded-For does not reset the login limit (30 a minute per address)', async () => {
      const codes = await logins(srv, 34, xff);
      expect(codes.filter((c) => c === 429)).toHaveLength(4);
      expect(codes.slice(0, 30).every((c) => c !== 429)).toBe(true);
    });
  });

  describe('TRUST_PROXY=1: the nearest proxy names the client', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ runJobs: false, guestTokenRateLimit: 5, trustProxy: parseTrustProxy('1') });
    });
    afterAll(() => srv?.stop());

    it('each forwarded address has its own limit; one address still hits it', async () => {
      expect(await guestTokens(srv, 8, xff)).toEqual(Array(8).fill(200));
      const same = await guestTokens(srv, 7, () => ({ 'x-forwarded-for': '192.0.2.7' }));
      expect(same.filter((c) => c === 429)).toHaveLength(2);
    });

    it('logins are limited per forwarded address', async () => {
      expect((await logins(srv, 34, xff)).filter((c) => c === 429)).toHaveLength(0);
    });
  });

  it('TRUST_PROXY as addresses: only a listed peer may forward', async () => {
    const listed = await startTestServer({ runJobs: false, guestTokenRateLimit: 2, trustProxy: ['127.0.0.1'] });
    const other = await startTestServer({ runJobs: false, guestTokenRateLimit: 2, trustProxy: ['10.9.9.9'] });
    try {
      expect(await guestTokens(listed, 4, xff)).toEqual([200, 200, 200, 200]);
      expect(await guestTokens(other, 4, xff)).toEqual([200, 200, 429, 429]);
    } finally {
      await listed.stop();
      await other.stop();
    }
  });
});

describe('logs', () => {
  let srv: { url: string; stop(): Promise<void> };
  let log = '';
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
    const addr = app.server.address() as net.AddressInfo;
    srv = {
      url: `http://127.0.0.1:${addr.port}`,
      async stop() {
        await app.close();
        await mode.cleanup();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
  afterAll(() => srv?.stop());

  it('no token, session, nonce or signature appears in the log at the default level', async () => {
    const guest = ((await send(srv.url, 'POST', '/api/v2/guest_token')).body!.data as { token: string }).token;
    const reg = form({ email: 'logs@example.com', password: 'passw0rdA1', confirm_password: 'passw0rdA1' });
    const registered = await send(srv.url, 'POST', '/api/account/register', reg.headers, reg.body);
    const user = registered.body!.data!.user_token as string;
    const session = /pixmill_session=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
    const nonce = (await send(srv.url, 'GET', '/site-ajax/nonce')).body!.data!.nonce as string;
    const secrets = [guest, user, session, nonce, 'sig0123456789abcdef0123456789abcd'];
    const cookie = `user_token=${user}; guest_token=${guest}; pixmill_session=${session}`;
    await send(srv.url, 'GET', `/api/v2/point?guest_token_v2=${guest}`);
    await send(srv.url, 'GET', `/web_api/v1/progress?trans_id=nope&user_token=${user}`);
    await send(srv.url, 'GET', `/web_api/v1/download/?trans_id=nope&token=${user}&guest_token=${guest}`, { cookie });
    await send(srv.url, 'GET', `/api/nowhere?user_token=${user}&nonce=${nonce}`);
    await send(srv.url, 'GET', `/api/mail/unsubscribe?email=a%40b.c&sig=${secrets[4]}`);
    const body = form({ user_token: user, guest_token_v2: guest, nonce, password: 'passw0rdA1' });
    await send(
      srv.url,
      'POST',
      `/api/v2/license?guest_token_v2=${guest}`,
      { ...body.headers, cookie, authorization: `Bearer ${user}` },
      body.body,
    );
    await send(
      srv.url,
      'POST',
      '/api/report',
      { 'content-type': 'application/json', cookie },
      `{"user_token":"${user}",`,
    );
    await rawSocket(srv.url, `GET /%?user_token=${user} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    // pino writes asynchronously: wait for the last request's entry (bounded), then read the whole log.
    await until(
      () => log,
      (l) => l.includes('"url":"/%?user_token='),
      { timeoutMs: 5000 },
    );
    expect(log).toContain('incoming request');
    expect(log).toContain('user_token=[REDACTED]');
    for (const s of secrets) expect(log.includes(s), `secret ${s.slice(0, 8)}… in the log`).toBe(false);
  });
});

describe('data files are private', () => {
  const mode = (p: string) => fs.statSync(p).mode & 0o777;
  it('DATA_DIR and its directories 0700, the database and blobs 0600, after a start and an upload', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-perm-'));
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'blobs'), { mode: 0o755 });
    fs.chmodSync(path.join(dataDir, 'blobs'), 0o755);
    const oldUmask = process.umask(0o022);
    const srv = await startTestServer({ dataDir, runJobs: false });
    try {
      const up = await (await Caller.guest(srv)).upload(await jpeg(), 'a.jpg', 'compress');
      expect(up.body.code, up.body.msg).toBe(200);
      expect(mode(dataDir)).toBe(0o700);
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) =>
            e.isDirectory()
              ? [path.join(dir, e.name) + '/', ...walk(path.join(dir, e.name))]
              : [path.join(dir, e.name)],
          );
      const entries = walk(dataDir);
      expect(entries.filter((e) => !e.endsWith('/')).length).toBeGreaterThanOrEqual(2); // blobs of the upload (+ secret, database)
      for (const e of entries) expect(mode(e), e).toBe(e.endsWith('/') ? 0o700 : 0o600);
      if (!srv.ctx.config.databaseUrl) {
        for (const f of ['pixmill.sqlite', 'pixmill.sqlite-wal', 'pixmill.sqlite-shm'])
          expect(mode(path.join(dataDir, f)), f).toBe(0o600);
      }
    } finally {
      await srv.stop();
      process.umask(oldUmask);
    }
  });
});

describe('PUBLIC_URL for absolute addresses', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ runJobs: false, ...parsePublicUrl('https://pixmill.example', 0) } as Partial<Config>);
  });
  afterAll(() => srv?.stop());

  it('the sitemap ignores a forged Host (and X-Forwarded-Host)', async () => {
    const r = await send(srv.url, 'GET', '/sitemap.xml', {
      host: 'evil.example',
      'x-forwarded-host': 'evil2.example',
      'x-forwarded-proto': 'http',
    });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('evil');
    const locs = [...r.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBeGreaterThan(10);
    expect(locs.every((l) => l.startsWith('https://pixmill.example/'))).toBe(true);
  });
});
