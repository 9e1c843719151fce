/**
 * Ready for the public internet (issue 13): real client addresses (TRUST_PROXY), tokens kept out of
 * the logs, private data files, the envelope for every malformed request, security headers and the
 * CSP, the cross-site check for cookie-authenticated state changes, and PUBLIC_URL. Real HTTP only;
 * raw requests go through node:http so the Host, Origin and body bytes are exactly what a client sent.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { createContext } from '../../server/bootstrap.js';
import { loadConfig, parsePublicUrl, parseTrustProxy, type Config } from '../../server/config.js';
import { maskUrl } from '../../server/http/logging.js';
import { jsonDepthWithin } from '../../server/http/params.js';
import { CROSS_SITE_TEXT } from '../../server/http/security.js';
import { testModeOverrides } from '../../server/testing/modes.js';
import { startTestServer, type TestServer } from '../../server/testing/server.js';
import { Caller } from './api-helpers.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: { code: number; msg: string; data: any } | null;
}

/** One request with exactly these headers and body bytes (node:http lets us set Host). */
function send(base: string, method: string, p: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers: { connection: 'close', ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Raw['body'] = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Bytes on a bare socket, for requests node:http would refuse to write (`GET /%`, not HTTP at all). */
function rawSocket(base: string, bytes: string): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname, () => s.end(bytes));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}
const statusOf = (response: string) => Number(response.split(' ')[1]);
const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

const form = (f: Record<string, string>) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f).toString() });

/** A refusal must be the envelope: code 10001, a specific text, a 4xx status. */
function expectRefusal(r: { status: number; body: Raw['body'] }, status: number, msg: string | RegExp) {
  expect(r.status).toBe(status);
  expect(r.body?.code).toBe(10001);
  if (typeof msg === 'string') expect(r.body?.msg).toBe(msg);
  else expect(r.body?.msg).toMatch(msg);
}

const jpeg = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } }).jpeg().toBuffer();

describe('configuration parsing', () => {
  it('TRUST_PROXY: off by default; a hop count or addresses/CIDRs; never "true"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '*', 'proxy.example', '10.0.0.0/40', '1.2.3.4/8/9']) expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('PUBLIC_URL: an http(s) origin; default http://localhost:PORT', () => {
    expect(parsePublicUrl(undefined, 8080)).toEqual({ publicUrl: 'http://localhost:8080', publicUrlFixed: false });
    expect(parsePublicUrl('https://pixmill.example/', 8080)).toEqual({ publicUrl: 'https://pixmill.example', publicUrlFixed: true });
    expect(parsePublicUrl('https://pixmill.example:8443', 1)).toEqual({ publicUrl: 'https://pixmill.example:8443', publicUrlFixed: true });
    for (const bad of ['pixmill.example', 'ftp://x.example', 'https://x.example/app', 'https://x.example/?a=1']) expect(() => parsePublicUrl(bad, 1), bad).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it('log URLs: token-like query values are masked, the rest stays', () => {
    expect(maskUrl('/web_api/v1/progress?trans_id=t1&user_token=SECRET')).toBe('/web_api/v1/progress?trans_id=t1&user_token=[REDACTED]');
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
    const ctx = await createContext(loadConfig(process.env, { port: 0, host: '127.0.0.1', logLevel: 'info', dataDir, databaseUrl: undefined, redisUrl: undefined, runJobs: false, ...mode.overrides }));
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
    const user = registered.body!.data.user_token as string;
    const session = /pixmill_session=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
    const nonce = (await send(srv.url, 'GET', '/site-ajax/nonce')).body!.data.nonce as string;
    const secrets = [guest, user, session, nonce, 'sig0123456789abcdef0123456789abcd'];
    const cookie = `user_token=${user}; guest_token=${guest}; pixmill_session=${session}`;
    await send(srv.url, 'GET', `/api/v2/point?guest_token_v2=${guest}`);
    await send(srv.url, 'GET', `/web_api/v1/progress?trans_id=nope&user_token=${user}`);
    await send(srv.url, 'GET', `/web_api/v1/download/?trans_id=nope&token=${user}&guest_token=${guest}`, { cookie });
    await send(srv.url, 'GET', `/api/nowhere?user_token=${user}&nonce=${nonce}`);
    await send(srv.url, 'GET', `/api/mail/unsubscribe?email=a%40b.c&sig=${secrets[4]}`);
    const body = form({ user_token: user, guest_token_v2: guest, nonce, password: 'passw0rdA1' });
    await send(srv.url, 'POST', `/api/v2/license?guest_token_v2=${guest}`, { ...body.headers, cookie, authorization: `Bearer ${user}` }, body.body);
    await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json', cookie }, `{"user_token":"${user}",`);
    await rawSocket(srv.url, `GET /%?user_token=${user} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 100)); // pino writes asynchronously
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
      const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [path.join(dir, e.name) + '/', ...walk(path.join(dir, e.name))] : [path.join(dir, e.name)]));
      const entries = walk(dataDir);
      expect(entries.filter((e) => !e.endsWith('/')).length).toBeGreaterThanOrEqual(2); // blobs of the upload (+ secret, database)
      for (const e of entries) expect(mode(e), e).toBe(e.endsWith('/') ? 0o700 : 0o600);
      if (!srv.ctx.config.databaseUrl) {
        for (const f of ['pixmill.sqlite', 'pixmill.sqlite-wal', 'pixmill.sqlite-shm']) expect(mode(path.join(dataDir, f)), f).toBe(0o600);
      }
    } finally {
      await srv.stop();
      process.umask(oldUmask);
    }
  });
});

describe('malformed requests answer the envelope, never a 500', () => {
  let srv: TestServer;
  let token: string;
  beforeAll(async () => {
    srv = await startTestServer({ runJobs: false });
    token = (await srv.ctx.services.tokens.createGuest()).token;
  });
  afterAll(() => srv?.stop());

  const B = 'pixmillBoundary';
  const part = (name: string, value: string, filename?: string) =>
    `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: image/jpeg\r\n' : ''}\r\n${value}\r\n`;
  const upload = (contentType: string, body: string | Buffer) => send(srv.url, 'POST', '/web_api/v1/upload', { 'content-type': contentType }, body);

  it('GET /% and other undecodable URLs', async () => {
    for (const p of ['/%', '/api/v2/point%', '/web_api/v1/%zz']) {
      const out = await rawSocket(srv.url, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(statusOf(out), p).toBe(400);
      expect(bodyOf(out)).toEqual({ code: 10001, msg: 'Malformed URL', data: null });
      expect(out.toLowerCase()).toContain('x-content-type-options: nosniff');
    }
  });

  it('a request that is not HTTP', async () => {
    const out = await rawSocket(srv.url, 'HELLO THERE\r\n\r\n');
    expect(statusOf(out)).toBe(400);
    expect(bodyOf(out)).toMatchObject({ code: 10001, msg: 'Bad request' });
  });

  it('multipart without a boundary, truncated, or garbage: 400 with its reason', async () => {
    const whole = part('user_token', token) + part('job', 'compress') + part('file', 'JFIF-ish bytes', 'a.jpg') + `--${B}--\r\n`;
    expectRefusal(await upload('multipart/form-data', whole), 400, 'Malformed multipart body: no boundary');
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, whole.slice(0, whole.length - 30)), 400, /^Malformed multipart body/);
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + part('file', 'abc', 'a.jpg')), 400, /^Malformed multipart body/);
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, Buffer.from('\x00\x01garbage that is no multipart at all\xff\xfe', 'latin1')), 400, /^Malformed multipart body/);
    // the same on the slice route and on a route that reads fields only
    expectRefusal(await send(srv.url, 'POST', '/api/v2/upload_slice', { 'content-type': 'multipart/form-data' }, whole), 400, 'Malformed multipart body: no boundary');
    expectRefusal(await send(srv.url, 'POST', '/api/work_flow/add', { 'content-type': `multipart/form-data; boundary=${B}` }, part('user_token', token)), 400, /^Malformed multipart body/);
  });

  it('too many fields, files or parts; a field too long; a file too large: each its own text', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => part(`f${i}`, 'v')).join('');
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + fields + `--${B}--\r\n`), 413, 'Too many form fields');
    const files = Array.from({ length: 3 }, (_, i) => part(`file${i}`, 'abc', `a${i}.jpg`)).join('');
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + files + `--${B}--\r\n`), 413, 'Too many files uploaded at once');
    const long = part('user_token', token) + part('job', 'x'.repeat(300 * 1024)) + `--${B}--\r\n`;
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, long), 413, 'A form field is too long');
    const fd = new FormData();
    fd.set('user_token', token);
    fd.set('job', 'compress');
    fd.set('file', new Blob([Buffer.alloc(51 * 1024 * 1024, 1)]), 'big.jpg'); // over every plan's limit (50 MB)
    const big = await fetch(`${srv.url}/web_api/v1/upload`, { method: 'POST', body: fd });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 10001, msg: 'Your file is too large' });
  });

  it('bad JSON, empty JSON, unknown content types, oversize bodies', async () => {
    expectRefusal(await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, '{"event":'), 400, 'Malformed JSON body');
    expectRefusal(await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, ''), 400, 'Empty JSON body');
    expectRefusal(await send(srv.url, 'POST', '/api/report', { 'content-type': 'text/x-unknown' }, 'abc'), 415, 'Unsupported content type');
    expectRefusal(await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`), 413, 'Request body is too large');
    expectRefusal(await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/x-www-form-urlencoded' }, `a=${'x'.repeat(100 * 1024)}`), 413, 'Request body is too large');
    expectRefusal(await send(srv.url, 'POST', '/web_api/v1/upload', { 'content-type': 'application/json' }, '{"file":"AAAA"}'), 200, 'multipart/form-data expected');
  });

  it('JSON nested deeper than any call needs is refused before it is parsed', async () => {
    for (const deep of ['['.repeat(50_000) + ']'.repeat(50_000), '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)]) {
      const r = await send(srv.url, 'POST', '/web_api/v1/transform', { 'content-type': 'application/json' }, `{"user_token":"${token}","uid":"u","jconfig":${deep}}`);
      expectRefusal(r, 400, 'JSON nested too deeply');
    }
    // the deepest real payload (a workflow's steps) is far below the limit
    const flows = [{ name: 'denoise', config: { module: 'denoise', module_params: { remove_noise: 60 } } }];
    const ok = await send(srv.url, 'POST', '/api/work_flow/add', { 'content-type': 'application/json' }, JSON.stringify({ user_token: token, name: 'n', flows }));
    expect(ok.body?.msg).not.toBe('JSON nested too deeply');
    expect(jsonDepthWithin('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[","b":"\\"[[[["}', 2)).toBe(true);
    expect(jsonDepthWithin('[[[]]]', 2)).toBe(false);
  });
});

describe('security headers', () => {
  let srv: TestServer;
  let proxied: TestServer;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-client-'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Pixmill</title><script type="module" src="/assets/app.js"></script>');
    srv = await startTestServer({ runJobs: false, clientDir });
    proxied = await startTestServer({ runJobs: false, clientDir, trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await srv?.stop();
    await proxied?.stop();
    fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const expectHeaders = (h: http.IncomingHttpHeaders, what: string) => {
    const csp = String(h['content-security-policy']);
    expect(csp, what).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(h['x-frame-options'], what).toBe('DENY');
    expect(h['x-content-type-options'], what).toBe('nosniff');
    expect(h['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  };

  it('on API answers, errors and 404s', async () => {
    expectHeaders((await send(srv.url, 'GET', '/api/health')).headers, 'health');
    expectHeaders((await send(srv.url, 'POST', '/api/v2/guest_token')).headers, 'guest_token');
    expectHeaders((await send(srv.url, 'GET', '/web_api/v1/progress?trans_id=x&user_token=bad')).headers, 'refusal');
    expectHeaders((await send(srv.url, 'GET', '/api/nowhere')).headers, '404');
    expectHeaders((await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, '{')).headers, 'bad JSON');
  });

  it('on index.html and the SPA fallback', async () => {
    for (const p of ['/', '/de/pricing/', '/batch-process/']) {
      const r = await send(srv.url, 'GET', p);
      expect(r.status, p).toBe(200);
      expect(r.text).toContain('<title>Pixmill</title>');
      expectHeaders(r.headers, p);
    }
  });

  it('HSTS only when the client reached us over https (a trusted proxy says so)', async () => {
    expect((await send(srv.url, 'GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
    // an untrusted peer cannot claim https
    expect((await send(srv.url, 'GET', '/api/health', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBeUndefined();
    expect((await send(proxied.url, 'GET', '/', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect((await send(proxied.url, 'GET', '/api/health', { 'x-forwarded-proto': 'http' })).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('cross-site requests with cookies (CSRF)', () => {
  const EVIL = 'https://evil.example';

  /** The state changes of issue 13, each as a browser sends it: cookies, no token in the body. */
  async function stateChanges(srv: TestServer) {
    const user = await Caller.user(srv, `csrf-${Math.random().toString(36).slice(2)}@example.com`);
    const sharer = await Caller.user(srv, `sharer-${Math.random().toString(36).slice(2)}@example.com`);
    const code = (await sharer.get('/api/promotion/share/code')).body.data.code as string;
    const session = user.cookies.get('pixmill_session')!;
    const cookie = `pixmill_session=${session}; user_token=${user.token}`;
    const wf = await user.form('/api/work_flow/add', { name: 'keep', flows: JSON.stringify([{ name: 'denoise', config: JSON.stringify({ module: 'denoise', module_params: {} }) }]) });
    const calls: Array<{ name: string; method: string; path: string; f?: Record<string, string> }> = [
      { name: 'survey', method: 'POST', path: '/api/v2/survey/set', f: { occupations: 'designer' } },
      { name: 'workflow add', method: 'POST', path: '/api/work_flow/add', f: { name: 'x', flows: JSON.stringify([{ name: 'denoise', config: JSON.stringify({ module: 'denoise', module_params: {} }) }]) } },
      { name: 'workflow delete', method: 'POST', path: '/api/work_flow/delete', f: { id: String(wf.body.data.id) } },
      { name: 'user info', method: 'POST', path: '/api/v2/user_info/update', f: { locale: 'de' } },
      { name: 'share bind', method: 'GET', path: `/api/promotion/share/bind?type=anniversary_2021&code=${code}` },
      { name: 'logout', method: 'POST', path: '/api/account/logout', f: {} },
    ];
    return { user, cookie, calls };
  }
  const call = (srv: TestServer, c: { method: string; path: string; f?: Record<string, string> }, headers: Record<string, string>) =>
    c.f ? send(srv.url, c.method, c.path, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(c.f).toString()) : send(srv.url, c.method, c.path, headers);

  describe('without PUBLIC_URL: the own origin is the request’s Host', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ runJobs: false });
    });
    afterAll(() => srv?.stop());

    it('each state change from a foreign Origin is refused, and changes nothing', async () => {
      const { user, cookie, calls } = await stateChanges(srv);
      for (const c of calls) {
        const r = await call(srv, c, { cookie, origin: EVIL });
        expect(r.status, c.name).toBe(403);
        expect(r.body, c.name).toEqual({ code: 10001, msg: CROSS_SITE_TEXT, data: null });
      }
      const a = await srv.ctx.services.accounts.sessionAccount(user.cookies.get('pixmill_session'));
      expect(a, 'still logged in').toBeTruthy();
      expect(a!.locale).not.toBe('de');
      expect((await user.get('/api/work_flow/list')).body.data.datas.map((w: { name: string }) => w.name)).toEqual(['keep']);
    });

    it('a foreign Referer without Origin, or a cross-site fetch without either, is refused too', async () => {
      const { cookie, calls } = await stateChanges(srv);
      const survey = calls[0]!;
      expect((await call(srv, survey, { cookie, referer: `${EVIL}/page` })).status).toBe(403);
      expect((await call(srv, survey, { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await call(srv, survey, { cookie, origin: 'null' })).status).toBe(403);
      // an encoded path reaches the same handler and gets the same check
      const bind = calls[4]!;
      const encoded = await call(srv, { ...bind, path: bind.path.replace('/bind?', '/%62ind?') }, { cookie, origin: EVIL });
      expect(encoded.status).toBe(403);
    });

    it('each state change from the own origin works', async () => {
      const { user, cookie, calls } = await stateChanges(srv);
      for (const c of calls) {
        const r = await call(srv, c, { cookie, origin: srv.url, 'sec-fetch-site': 'same-origin' });
        expect(r.status, c.name).toBe(200);
        expect(r.body?.code, `${c.name}: ${r.body?.msg}`).toBe(200);
      }
      expect(await srv.ctx.services.accounts.sessionAccount(user.cookies.get('pixmill_session')), 'logged out').toBeFalsy();
      // a same-origin page's Referer (no Origin: a same-origin GET) works as well
      const again = await stateChanges(srv);
      expect((await call(srv, again.calls[4]!, { cookie: again.cookie, referer: `${srv.url}/my-account/` })).body?.code).toBe(200);
    });

    it('requests without cookies (API clients) and the signed webhook are not affected', async () => {
      const { user } = await stateChanges(srv);
      const r = await send(srv.url, 'POST', '/api/v2/user_info/update', { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL }, new URLSearchParams({ user_token: user.token, locale: 'fr' }).toString());
      expect(r.body).toMatchObject({ code: 200 });
      // other cookies (preferences) do not count as credentials
      const pref = await send(srv.url, 'POST', '/api/v2/guest_token', { origin: EVIL, cookie: 'activeMode=batch; isFirstVisit=1' });
      expect(pref.body?.code).toBe(200);
      const hook = await send(srv.url, 'POST', '/api/payments/webhook/local', { 'content-type': 'application/json', origin: EVIL, cookie: `user_token=${user.token}` }, '{}');
      expect(hook.body?.msg).not.toBe(CROSS_SITE_TEXT);
      expect(hook.status).not.toBe(403);
    });
  });

  describe('with PUBLIC_URL: only its origin', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ runJobs: false, ...parsePublicUrl('https://pixmill.example', 0) });
    });
    afterAll(() => srv?.stop());

    it('PUBLIC_URL’s origin passes; the raw Host or another origin does not', async () => {
      const { cookie, calls } = await stateChanges(srv);
      const info = calls[3]!;
      expect((await call(srv, info, { cookie, origin: srv.url })).status).toBe(403);
      expect((await call(srv, info, { cookie, origin: 'http://pixmill.example' })).status).toBe(403);
      expect((await call(srv, info, { cookie, origin: EVIL, host: 'evil.example' })).status).toBe(403);
      expect((await call(srv, info, { cookie, origin: 'https://pixmill.example' })).body?.code).toBe(200);
    });
  });
});

describe('PUBLIC_URL for absolute addresses', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ runJobs: false, ...parsePublicUrl('https://pixmill.example', 0) } as Partial<Config>);
  });
  afterAll(() => srv?.stop());

  it('the sitemap ignores a forged Host (and X-Forwarded-Host)', async () => {
    const r = await send(srv.url, 'GET', '/sitemap.xml', { host: 'evil.example', 'x-forwarded-host': 'evil2.example', 'x-forwarded-proto': 'http' });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('evil');
    const locs = [...r.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBeGreaterThan(10);
    expect(locs.every((l) => l.startsWith('https://pixmill.example/'))).toBe(true);
  });
});
