/**
 * Ready for the public internet, part 2: every malformed request answers the envelope,
 * security headers and the CSP on every answer, and the cross-site check for cookie-authenticated
 * state changes. Raw requests go through node:http / bare sockets so the bytes are exactly a client's.
 */
import fs from 'node:fs';
import net from 'node:net';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../server/config.js';
import { jsonDepthWithin } from '../../server/http/params.js';
import { REFUSED_BODY_READ_BYTES } from '../../server/http/requestErrors.js';
import { CROSS_SITE_TEXT, DOCUMENT_ONLY_HEADERS } from '../../server/http/security.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';
import { bodyOf, expectRefusal, rawSocket, send, statusOf } from './security-helpers.js';

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
  const upload = (contentType: string, body: string | Buffer) =>
    send(srv.url, 'POST', '/web_api/v1/upload', { 'content-type': contentType }, body);

  it('GET /% and other undecodable URLs', async () => {
    for (const p of ['/%', '/api/v2/point%', '/web_api/v1/%zz']) {
      const out = await rawSocket(srv.url, `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(statusOf(out), p).toBe(400);
      expect(bodyOf(out)).toEqual({ code: 10001, msg: 'Malformed URL', data: { reason: 'badUrl' } });
      expect(out.toLowerCase()).toContain('x-content-type-options: nosniff');
    }
  });

  it('a request that is not HTTP', async () => {
    const out = await rawSocket(srv.url, 'HELLO THERE\r\n\r\n');
    expect(statusOf(out)).toBe(400);
    expect(bodyOf(out)).toMatchObject({ code: 10001, data: { reason: 'badRequest' } });
  });

  it('multipart without a boundary, truncated, or garbage: 400 with its reason', async () => {
    const whole =
      part('user_token', token) + part('job', 'compress') + part('file', 'JFIF-ish bytes', 'a.jpg') + `--${B}--\r\n`;
    expectRefusal(await upload('multipart/form-data', whole), 400, 'Malformed multipart body: no boundary');
    expectRefusal(
      await upload(`multipart/form-data; boundary=${B}`, whole.slice(0, whole.length - 30)),
      400,
      /^Malformed multipart body/,
    );
    expectRefusal(
      await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + part('file', 'abc', 'a.jpg')),
      400,
      /^Malformed multipart body/,
    );
    expectRefusal(
      await upload(
        `multipart/form-data; boundary=${B}`,
        Buffer.from('\x00\x01garbage that is no multipart at all\xff\xfe', 'latin1'),
      ),
      400,
      /^Malformed multipart body/,
    );
    // the same on the slice route and on a route that reads fields only
    expectRefusal(
      await send(srv.url, 'POST', '/api/v2/upload_slice', { 'content-type': 'multipart/form-data' }, whole),
      400,
      'Malformed multipart body: no boundary',
    );
    expectRefusal(
      await send(
        srv.url,
        'POST',
        '/api/work_flow/add',
        { 'content-type': `multipart/form-data; boundary=${B}` },
        part('user_token', token),
      ),
      400,
      /^Malformed multipart body/,
    );
  });

  it('too many fields, files or parts; a field too long; a file too large: each its own text', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => part(`f${i}`, 'v')).join('');
    expectRefusal(
      await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + fields + `--${B}--\r\n`),
      413,
      'Too many form fields',
    );
    const files = Array.from({ length: 3 }, (_, i) => part(`file${i}`, 'abc', `a${i}.jpg`)).join('');
    expectRefusal(
      await upload(`multipart/form-data; boundary=${B}`, part('user_token', token) + files + `--${B}--\r\n`),
      413,
      'Too many files uploaded at once',
    );
    const long = part('user_token', token) + part('job', 'x'.repeat(300 * 1024)) + `--${B}--\r\n`;
    expectRefusal(await upload(`multipart/form-data; boundary=${B}`, long), 413, 'A form field is too long');
    const fd = new FormData();
    fd.set('user_token', token);
    fd.set('job', 'compress');
    fd.set('file', new Blob([Buffer.alloc(51 * 1024 * 1024, 1)]), 'big.jpg'); // over every plan's limit (50 MB)
    const big = await fetch(`${srv.url}/web_api/v1/upload`, { method: 'POST', body: fd });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 10001, data: { reason: 'fileTooLarge' } });
  });

  it('bad JSON, empty JSON, unknown content types, oversize bodies', async () => {
    expectRefusal(
      await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, '{"event":'),
      400,
      'Malformed JSON body',
    );
    expectRefusal(
      await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, ''),
      400,
      'Empty JSON body',
    );
    expectRefusal(
      await send(srv.url, 'POST', '/api/report', { 'content-type': 'text/x-unknown' }, 'abc'),
      415,
      'Unsupported content type',
    );
    expectRefusal(
      await send(
        srv.url,
        'POST',
        '/api/report',
        { 'content-type': 'application/json' },
        `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`,
      ),
      413,
      'Request body is too large',
    );
    expectRefusal(
      await send(
        srv.url,
        'POST',
        '/api/report',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `a=${'x'.repeat(100 * 1024)}`,
      ),
      413,
      'Request body is too large',
    );
    expectRefusal(
      await send(srv.url, 'POST', '/web_api/v1/upload', { 'content-type': 'application/json' }, '{"file":"AAAA"}'),
      200,
      'multipart/form-data expected',
    );
  });

  it('a body refused for its size before it is read: the sender still gets the 413 and its connection stays usable', async () => {
    // A client that sends its whole body before reading (fetch, curl): with the connection closed
    // under it, its writes fail (EPIPE) and it never sees the answer.
    const u = new URL(srv.url);
    const body = Buffer.alloc(3 * 1024 * 1024, 'a');
    const s = net.connect(Number(u.port), u.hostname);
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString('latin1')));
    const failed = new Promise<string>((resolve) =>
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message)),
    );
    const until = async (cond: () => boolean) => {
      while (!cond()) await new Promise((r) => setTimeout(r, 10));
    };
    s.write(
      `POST /web_api/v1/transform HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // the answer comes before any of the body is sent
    await until(() => got.includes('\r\n\r\n') && got.includes('}'));
    expect(statusOf(got)).toBe(413);
    expect(bodyOf(got)).toMatchObject({ code: 10001, data: { reason: 'bodyTooLarge' } });
    expect(got.toLowerCase()).not.toContain('connection: close');
    // now the whole body, then a second request on the same connection
    got = '';
    const sent = new Promise<string>((resolve) => s.write(body, (e) => resolve(e ? 'write failed' : 'sent')));
    expect(await Promise.race([sent, failed])).toBe('sent');
    s.write(`GET /api/health HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`);
    const second = await Promise.race([new Promise<string>((resolve) => s.on('close', () => resolve(got))), failed]);
    expect(statusOf(second)).toBe(200);
    // larger than REFUSED_BODY_READ_BYTES: refused and cut off
    const big = await rawSocket(
      srv.url,
      `POST /web_api/v1/transform HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${REFUSED_BODY_READ_BYTES + 1}\r\n\r\na=1`,
    );
    expect(statusOf(big)).toBe(413);
    expect(big.toLowerCase()).toContain('connection: close');
  });

  it('JSON nested deeper than any call needs is refused before it is parsed', async () => {
    for (const deep of ['['.repeat(50_000) + ']'.repeat(50_000), '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)]) {
      const r = await send(
        srv.url,
        'POST',
        '/web_api/v1/transform',
        { 'content-type': 'application/json' },
        `{"user_token":"${token}","uid":"u","jconfig":${deep}}`,
      );
      expectRefusal(r, 400, 'JSON nested too deeply');
    }
    // the deepest real payload (a workflow's steps) is far below the limit
    const flows = [{ name: 'denoise', config: { module: 'denoise', module_params: { remove_noise: 60 } } }];
    const ok = await send(
      srv.url,
      'POST',
      '/api/work_flow/add',
      { 'content-type': 'application/json' },
      JSON.stringify({ user_token: token, name: 'n', flows }),
    );
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
    fs.writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><title>Pixmill</title><script type="module" src="/assets/app.js"></script>',
    );
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'assets', 'app-Ab12Cd34.js'), 'export const app = 1;\n');
    fs.writeFileSync(path.join(clientDir, 'assets', 'mark-Ab12Cd34.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
    expectHeaders(
      (await send(srv.url, 'POST', '/api/report', { 'content-type': 'application/json' }, '{')).headers,
      'bad JSON',
    );
  });

  it('on index.html and the SPA fallback', async () => {
    for (const p of ['/', '/de/pricing/', '/batch-process/']) {
      const r = await send(srv.url, 'GET', p);
      expect(r.status, p).toBe(200);
      expect(r.text).toContain('<title>Pixmill</title>');
      expectHeaders(r.headers, p);
    }
  });

  it('on build files: the policies a worker script needs, none of the document-only headers', async () => {
    const r = await send(srv.url, 'GET', '/assets/app-Ab12Cd34.js');
    expect(r.status).toBe(200);
    expect(r.text).toContain('export const app');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(r.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    for (const name of DOCUMENT_ONLY_HEADERS) expect(r.headers[name], name).toBeUndefined();
    // an unknown build path is answered with index.html: a document, so it keeps every header
    const doc = await send(srv.url, 'GET', '/assets/gone-Zz99Yy88.js');
    expect(doc.text).toContain('<title>Pixmill</title>');
    expectHeaders(doc.headers, 'fallback document');
    expect(doc.headers['cross-origin-opener-policy']).toBe('same-origin');
    // an SVG is a document when opened or framed
    const svg = await send(srv.url, 'GET', '/assets/mark-Ab12Cd34.svg');
    expect(svg.status).toBe(200);
    expectHeaders(svg.headers, 'svg');
  });

  it('HSTS only when the client reached us over https (a trusted proxy says so)', async () => {
    expect((await send(srv.url, 'GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
    // an untrusted peer cannot claim https
    expect(
      (await send(srv.url, 'GET', '/api/health', { 'x-forwarded-proto': 'https' })).headers[
        'strict-transport-security'
      ],
    ).toBeUndefined();
    expect(
      (await send(proxied.url, 'GET', '/', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security'],
    ).toMatch(/^max-age=\d+/);
    expect(
      (await send(proxied.url, 'GET', '/api/health', { 'x-forwarded-proto': 'http' })).headers[
        'strict-transport-security'
      ],
    ).toBeUndefined();
  });
});

describe('cross-site requests with cookies (CSRF)', () => {
  const EVIL = 'https://evil.example';

  /** The state-changing calls, each as a browser sends it: cookies, no token in the body. */
  async function stateChanges(srv: TestServer) {
    const user = await Caller.user(srv, `csrf-${Math.random().toString(36).slice(2)}@example.com`);
    const sharer = await Caller.user(srv, `sharer-${Math.random().toString(36).slice(2)}@example.com`);
    const code = (await sharer.get('/api/promotion/share/code')).body.data.code as string;
    const session = user.cookies.get('pixmill_session')!;
    const cookie = `pixmill_session=${session}; user_token=${user.token}`;
    const wf = await user.form('/api/work_flow/add', {
      name: 'keep',
      flows: JSON.stringify([{ name: 'denoise', config: JSON.stringify({ module: 'denoise', module_params: {} }) }]),
    });
    const calls: Array<{ name: string; method: string; path: string; f?: Record<string, string> }> = [
      { name: 'survey', method: 'POST', path: '/api/v2/survey/set', f: { occupations: 'designer' } },
      {
        name: 'workflow add',
        method: 'POST',
        path: '/api/work_flow/add',
        f: {
          name: 'x',
          flows: JSON.stringify([
            { name: 'denoise', config: JSON.stringify({ module: 'denoise', module_params: {} }) },
          ]),
        },
      },
      { name: 'workflow delete', method: 'POST', path: '/api/work_flow/delete', f: { id: String(wf.body.data.id) } },
      { name: 'user info', method: 'POST', path: '/api/v2/user_info/update', f: { locale: 'de' } },
      {
        name: 'share bind',
        method: 'GET',
        path: `/api/promotion/share/bind?type=anniversary_2021&code=${code}&user_token=${user.token}`,
      },
      { name: 'logout', method: 'POST', path: '/api/account/logout', f: {} },
    ];
    return { user, cookie, calls };
  }
  const call = (
    srv: TestServer,
    c: { method: string; path: string; f?: Record<string, string> },
    headers: Record<string, string>,
  ) =>
    c.f
      ? send(
          srv.url,
          c.method,
          c.path,
          { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          new URLSearchParams(c.f).toString(),
        )
      : send(srv.url, c.method, c.path, headers);

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
        expect(r.body, c.name).toEqual({ code: 10001, msg: CROSS_SITE_TEXT, data: { reason: 'crossSite' } });
      }
      const a = await srv.ctx.services.sessions.account(user.cookies.get('pixmill_session'));
      expect(a, 'still logged in').toBeTruthy();
      expect(a!.locale).not.toBe('de');
      expect((await user.get('/api/work_flow/list')).body.data.datas.map((w: { name: string }) => w.name)).toEqual([
        'keep',
      ]);
    });

    it('a foreign Referer without Origin, or a cross-site fetch without either, is refused too', async () => {
      const { cookie, calls } = await stateChanges(srv);
      const survey = calls[0]!;
      expect((await call(srv, survey, { cookie, referer: `${EVIL}/page` })).status).toBe(403);
      expect((await call(srv, survey, { cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await call(srv, survey, { cookie, origin: 'null' })).status).toBe(403);
      // an encoded path reaches the same handler and gets the same check
      const bind = calls[4]!;
      const encoded = await call(
        srv,
        { ...bind, path: bind.path.replace('/bind?', '/%62ind?') },
        { cookie, origin: EVIL },
      );
      expect(encoded.status).toBe(403);
    });

    it('each state change from the own origin works', async () => {
      const { user, cookie, calls } = await stateChanges(srv);
      for (const c of calls) {
        const r = await call(srv, c, { cookie, origin: srv.url, 'sec-fetch-site': 'same-origin' });
        expect(r.status, c.name).toBe(200);
        expect(r.body?.code, `${c.name}: ${r.body?.msg}`).toBe(200);
      }
      expect(await srv.ctx.services.sessions.account(user.cookies.get('pixmill_session')), 'logged out').toBeFalsy();
      // a same-origin page's Referer (no Origin: a same-origin GET) works as well
      const again = await stateChanges(srv);
      expect(
        (await call(srv, again.calls[4]!, { cookie: again.cookie, referer: `${srv.url}/my-account/` })).body?.code,
      ).toBe(200);
    });

    it('API clients (no Origin, Referer or Sec-Fetch-Site) and the signed webhook are not affected', async () => {
      const { user } = await stateChanges(srv);
      const r = await send(
        srv.url,
        'POST',
        '/api/v2/user_info/update',
        { 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ user_token: user.token, locale: 'fr' }).toString(),
      );
      expect(r.body).toMatchObject({ code: 200 });
      const pref = await send(srv.url, 'POST', '/api/v2/guest_token', { cookie: 'activeMode=batch; isFirstVisit=1' });
      expect(pref.body?.code).toBe(200);
      const hook = await send(
        srv.url,
        'POST',
        '/api/payments/webhook/local',
        { 'content-type': 'application/json', origin: EVIL, cookie: `user_token=${user.token}` },
        '{}',
      );
      expect(hook.body?.msg).not.toBe(CROSS_SITE_TEXT);
      expect(hook.status).not.toBe(403);
    });

    it('login CSRF: a cross-site login or register form, which carries no cookie, is refused and sets none', async () => {
      const email = `victim-${Math.random().toString(36).slice(2)}@example.com`;
      await Caller.user(srv, email);
      const login = { 'content-type': 'application/x-www-form-urlencoded' };
      const creds = new URLSearchParams({ email, password: 'passw0rdA1' }).toString();
      const reg = new URLSearchParams({
        email: `x${email}`,
        password: 'passw0rdA1',
        confirm_password: 'passw0rdA1',
      }).toString();
      for (const headers of [
        { origin: EVIL },
        { origin: 'null' },
        { referer: `${EVIL}/page` },
        { 'sec-fetch-site': 'cross-site' },
      ] as Record<string, string>[]) {
        for (const [p, body] of [
          ['/api/account/login', creds],
          ['/api/account/register', reg],
          ['/api/v2/guest_token', ''],
        ] as const) {
          const r = await send(srv.url, 'POST', p, { ...login, ...headers }, body);
          expect(r.status, `${p} ${JSON.stringify(headers)}`).toBe(403);
          expect(r.body).toEqual({ code: 10001, msg: CROSS_SITE_TEXT, data: { reason: 'crossSite' } });
          expect(r.headers['set-cookie']).toBeUndefined();
        }
      }
      expect(await srv.ctx.services.accounts.byEmail(`x${email}`)).toBeNull();
      // the own pages (Origin = Host, or same-origin fetch metadata) and non-browser clients log in
      for (const headers of [
        { origin: srv.url, 'sec-fetch-site': 'same-origin' },
        { 'sec-fetch-site': 'same-origin' },
        {},
      ] as Record<string, string>[]) {
        const r = await send(srv.url, 'POST', '/api/account/login', { ...login, ...headers }, creds);
        expect(r.body?.code, JSON.stringify(headers)).toBe(200);
        expect(String(r.headers['set-cookie'])).toMatch(/pixmill_session=/);
      }
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
