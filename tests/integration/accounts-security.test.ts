/**
 * Accounts on the public internet: the per-email login lockout (across client addresses and API
 * processes: it lives in the database), tokens and sessions stored only as hashes, expiring, and
 * revoked on logout and password change; GET calls that record something need an explicit token.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_TOKEN_TTL_MS, TOKEN_REFRESH_MS, USER_TOKEN_TTL_MS } from '../../server/services/tokens.js';
import { LOGIN_LOCK_MS, LOGIN_MAX_FAILURES } from '../../server/services/loginThrottle.js';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

const PW = 'passw0rdA1';
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** A form POST sent from another loopback address (127.0.0.x), so the server sees another client. */
function postFrom(
  localAddress: string,
  p: string,
  form: Record<string, string>,
): Promise<{ status: number; body: { code: number; msg: string; data: any } }> {
  const body = new URLSearchParams(form).toString();
  const url = new URL(p, srv.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let raw = '';
        res.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(raw) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const licenseStatus = async (token: string) =>
  (await new Caller(srv).form('/api/v2/license', { guest_token_v2: token }, false)).status;
const meStatus = async (sessionId: string) =>
  (await fetch(srv.url + '/api/account/me', { headers: { cookie: `pixmill_session=${sessionId}` } })).status;

describe('per-email login lockout', () => {
  it(`the ${LOGIN_MAX_FAILURES + 1}th wrong password for one email is refused from any address, a right one too, until the lock ends`, async () => {
    await Caller.user(srv, 'lock@example.com');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const r = await postFrom('127.0.0.1', '/api/account/login', {
        email: 'lock@example.com',
        password: `wrong${i}pass`,
      });
      expect(r.body.code, `attempt ${i + 1}`).toBe(3);
    }
    const eleventh = await postFrom('127.0.0.2', '/api/account/login', {
      email: 'LOCK@example.com',
      password: 'wrong99pass',
    });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({
      code: 1,
      data: { error: 'login_locked', errors: { email: eleventh.body.msg } },
    });
    expect(eleventh.body.data).toMatchObject({ reason: 'loginLocked', field: 'email' });
    expect(eleventh.body.data.retry_after).toBeGreaterThan(LOGIN_LOCK_MS / 1000 - 60);
    const right = await postFrom('127.0.0.3', '/api/account/login', { email: 'lock@example.com', password: PW });
    expect(right.status).toBe(429);
    expect(right.body.data.error).toBe('login_locked');
    // Another email is not affected.
    await Caller.user(srv, 'unlocked@example.com');
    expect(
      (await postFrom('127.0.0.2', '/api/account/login', { email: 'unlocked@example.com', password: PW })).body.code,
    ).toBe(200);

    // The lock's end passes (moved into the past in the stored row): the right password works and clears the record.
    await srv.ctx.db
      .updateTable('login_throttle')
      .set({ locked_until: Date.now() - 1 })
      .where('email', '=', 'lock@example.com')
      .execute();
    expect(
      (await postFrom('127.0.0.1', '/api/account/login', { email: 'lock@example.com', password: PW })).body.code,
    ).toBe(200);
    expect(
      await srv.ctx.db.selectFrom('login_throttle').selectAll().where('email', '=', 'lock@example.com').execute(),
    ).toHaveLength(0);
  });

  it('lockouts in a row grow: the second lock lasts twice as long; unknown emails are counted the same way', async () => {
    const email = 'no-such-user@example.com';
    const fail = async () =>
      (await postFrom('127.0.0.4', '/api/account/login', { email, password: 'wrong1pass' })).body;
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await fail()).code).toBe(3);
    expect((await fail()).data.error).toBe('login_locked');
    const first = await srv.ctx.db
      .selectFrom('login_throttle')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(first.lockouts).toBe(1);
    await srv.ctx.db
      .updateTable('login_throttle')
      .set({ locked_until: Date.now() - 1 })
      .where('email', '=', email)
      .execute();
    const before = Date.now();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await fail()).code).toBe(3);
    const second = await srv.ctx.db
      .selectFrom('login_throttle')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(second.lockouts).toBe(2);
    expect(second.locked_until).toBeGreaterThanOrEqual(before + 2 * LOGIN_LOCK_MS);
    expect(second.locked_until).toBeLessThanOrEqual(Date.now() + 2 * LOGIN_LOCK_MS);
  });
});

describe('the lockout is atomic', () => {
  it(`${LOGIN_MAX_FAILURES * 3} parallel wrong passwords: at most ${LOGIN_MAX_FAILURES} are evaluated, the email ends locked and the right password is refused`, async () => {
    const email = `race-${Math.random().toString(36).slice(2)}@example.com`;
    await Caller.user(srv, email);
    const answers = await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES * 3 }, (_, i) =>
        postFrom(`127.0.0.${10 + (i % 20)}`, '/api/account/login', { email, password: `wrong${i}pass` }),
      ),
    );
    const evaluated = answers.filter((a) => a.body.code === 3).length;
    const locked = answers.filter((a) => a.status === 429 && a.body.data?.error === 'login_locked').length;
    expect(evaluated).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(evaluated + locked).toBe(LOGIN_MAX_FAILURES * 3);
    const right = await postFrom('127.0.0.3', '/api/account/login', { email, password: PW });
    expect(right.status).toBe(429);
    expect(right.body.data.error).toBe('login_locked');
    const row = await srv.ctx.db
      .selectFrom('login_throttle')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBeGreaterThan(Date.now());
  });
});

describe('tokens and sessions are stored hashed', () => {
  it('the database holds only SHA-256 hashes; a stored value used as a token or cookie is refused', async () => {
    const u = await Caller.user(srv, 'hashed@example.com');
    const sessionId = u.cookies.get('pixmill_session')!;
    const g = await Caller.guest(srv);
    const tokens = await srv.ctx.db.selectFrom('tokens').selectAll().execute();
    const sessions = await srv.ctx.db.selectFrom('sessions').selectAll().execute();
    for (const plain of [u.token, g.token]) {
      expect(tokens.some((t) => t.token_hash === plain)).toBe(false);
      expect(tokens.some((t) => t.token_hash === sha256(plain))).toBe(true);
    }
    expect(sessions.some((s) => s.id_hash === sessionId)).toBe(false);
    expect(sessions.some((s) => s.id_hash === sha256(sessionId))).toBe(true);
    for (const t of tokens) expect(await licenseStatus(t.token_hash)).toBe(401);
    for (const s of sessions) expect(await meStatus(s.id_hash)).toBe(401);
    expect(await licenseStatus(u.token)).toBe(200);
    if (!srv.ctx.config.databaseUrl) {
      // Embedded mode: the SQLite file (and its write-ahead log) contain no usable token or session id.
      const dir = srv.ctx.config.dataDir;
      const bytes = Buffer.concat(
        fs
          .readdirSync(dir)
          .filter((f) => f.startsWith('pixmill.sqlite'))
          .map((f) => fs.readFileSync(path.join(dir, f))),
      );
      for (const plain of [u.token, g.token, sessionId]) expect(bytes.includes(Buffer.from(plain))).toBe(false);
    }
  });
});

describe('revocation', () => {
  it('logout ends the session, the user tokens handed to it and the token sent; the guest token sent is unbound and keeps working', async () => {
    const u = await Caller.user(srv, 'logout@example.com');
    const g = await Caller.guest(srv);
    const nonce = (await u.get('/site-ajax/nonce', {}, false)).body.data.nonce;
    const fromAjax = (await u.form('/site-ajax', { action: 'get_user_token', nonce, pid: '1' }, false)).body.data
      .user_token as string;
    const elsewhere = await Caller.user(srv, 'logout-other@example.com');
    expect(await licenseStatus(fromAjax)).toBe(200);
    // Bound, then the browser logs out without unbinding first: the guest token sent along is unbound.
    expect((await u.form('/api/v2/bind_token', { token: u.token, guest_token_v2: g.token }, false)).body.code).toBe(
      200,
    );
    expect((await new Caller(srv).form('/api/v2/license', { guest_token_v2: g.token }, false)).body.data.user_id).toBe(
      u.accountId,
    );
    const sid = u.cookies.get('pixmill_session')!;
    u.cookies.set('guest_token', g.token);
    expect((await u.form('/api/account/logout', {})).body.code).toBe(200);
    expect(
      (await new Caller(srv).form('/api/v2/license', { guest_token_v2: g.token }, false)).body.data.user_level,
    ).toBe('guest');
    expect(await licenseStatus(u.token)).toBe(401);
    expect(await licenseStatus(fromAjax)).toBe(401);
    expect(await meStatus(sid)).toBe(401);
    expect(await licenseStatus(g.token)).toBe(200);
    // Another account's token sent along with a logout is not touched.
    expect(await licenseStatus(elsewhere.token)).toBe(200);
  });

  it('a logout by the session cookie alone unbinds the guest token the browser bound', async () => {
    const u = await Caller.user(srv, `cookie-logout-${Math.random().toString(36).slice(2)}@example.com`);
    const g = await Caller.guest(srv);
    expect((await u.form('/api/v2/bind_token', { token: u.token, guest_token_v2: g.token }, false)).body.code).toBe(
      200,
    );
    expect((await new Caller(srv).form('/api/v2/license', { guest_token_v2: g.token }, false)).body.data.user_id).toBe(
      u.accountId,
    );
    // only the pixmill_session cookie: no user token, no guest token in the request
    const sid = u.cookies.get('pixmill_session')!;
    const out = await fetch(srv.url + '/api/account/logout', {
      method: 'POST',
      headers: { cookie: `pixmill_session=${sid}` },
    });
    expect(((await out.json()) as { code: number }).code).toBe(200);
    expect(await meStatus(sid)).toBe(401);
    const after = (await new Caller(srv).form('/api/v2/license', { guest_token_v2: g.token }, false)).body.data;
    expect(after.user_level).toBe('guest');
    expect(after.user_id).not.toBe(u.accountId);
  });

  it('a password change ends every other session and user token of the account and unbinds its guest tokens; the caller gets new ones', async () => {
    const a = await Caller.user(srv, 'pwchange@example.com');
    const b = new Caller(srv);
    const bLogin = await b.form('/api/account/login', { email: 'pwchange@example.com', password: PW }, false);
    const loose = await srv.ctx.services.tokens.issueUserToken(a.accountId);
    const g = await Caller.guest(srv);
    expect((await a.form('/api/v2/bind_token', { token: a.token, guest_token_v2: g.token }, false)).body.code).toBe(
      200,
    );
    const aSid = a.cookies.get('pixmill_session')!;
    const r = await a.form(
      '/api/account/password',
      { old_password: PW, password: 'newPassw0rd', confirm_password: 'newPassw0rd' },
      false,
    );
    expect(r.body.code).toBe(200);
    const fresh = r.body.data.user_token as string;
    for (const t of [a.token, bLogin.body.data.user_token, loose]) expect(await licenseStatus(t)).toBe(401);
    expect(await meStatus(b.cookies.get('pixmill_session')!)).toBe(401);
    expect(await meStatus(aSid)).toBe(401);
    expect(a.cookies.get('pixmill_session')).not.toBe(aSid);
    expect((await a.get('/api/account/me', {}, false)).body.data.email).toBe('pwchange@example.com');
    expect(await licenseStatus(fresh)).toBe(200);
    // A guest token bound to the account acts for its guest again.
    expect(
      (await new Caller(srv).form('/api/v2/license', { guest_token_v2: g.token }, false)).body.data.user_level,
    ).toBe('guest');
  });
});

describe('expiry (sliding)', () => {
  const tokenRow = (token: string) =>
    srv.ctx.db.selectFrom('tokens').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
  const setTokenExpiry = (token: string, at: number) =>
    srv.ctx.db.updateTable('tokens').set({ expires_at: at }).where('token_hash', '=', sha256(token)).execute();

  it('new tokens live 30 days (user) and a year (guest) from their last use', async () => {
    const u = await Caller.user(srv, 'ttl@example.com');
    const g = await Caller.guest(srv);
    const now = Date.now();
    expect((await tokenRow(u.token))!.expires_at).toBeGreaterThan(now + USER_TOKEN_TTL_MS - 60_000);
    expect((await tokenRow(g.token))!.expires_at).toBeGreaterThan(now + GUEST_TOKEN_TTL_MS - 60_000);
  });

  it('an idle user token, guest token or session past its expiry is refused (and the user token deleted)', async () => {
    const u = await Caller.user(srv, 'expired@example.com');
    const g = await Caller.guest(srv);
    await setTokenExpiry(u.token, Date.now() - 1);
    await setTokenExpiry(g.token, Date.now() - 1);
    expect(await licenseStatus(u.token)).toBe(401);
    expect(await tokenRow(u.token)).toBeUndefined();
    expect(await licenseStatus(g.token)).toBe(401);
    const sid = u.cookies.get('pixmill_session')!;
    await srv.ctx.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('id_hash', '=', sha256(sid))
      .execute();
    expect(await meStatus(sid)).toBe(401);
  });

  it('use moves the expiry forward, at most once per refresh interval', async () => {
    const u = await Caller.user(srv, 'slide@example.com');
    // Last refreshed two intervals ago: this use writes a new expiry.
    const stale = Date.now() + USER_TOKEN_TTL_MS - 2 * TOKEN_REFRESH_MS;
    await setTokenExpiry(u.token, stale);
    const before = Date.now();
    expect(await licenseStatus(u.token)).toBe(200);
    expect((await tokenRow(u.token))!.expires_at).toBeGreaterThanOrEqual(before + USER_TOKEN_TTL_MS);
    // Refreshed a few minutes ago: no write.
    const recent = Date.now() + USER_TOKEN_TTL_MS - 5 * 60_000;
    await setTokenExpiry(u.token, recent);
    expect(await licenseStatus(u.token)).toBe(200);
    expect((await tokenRow(u.token))!.expires_at).toBe(recent);
  });
});

describe('GET calls that record something (spec §7 names GET)', () => {
  it('check-in and share bind need the token in the query; a cookie alone changes nothing', async () => {
    const u = await Caller.user(srv, 'checkin@example.com');
    const cookieOnly = await fetch(srv.url + '/api/promotion/giveaway/checkin', {
      headers: { cookie: `user_token=${u.token}` },
    });
    expect(cookieOnly.status).toBe(401);
    const code = (await u.get('/api/promotion/share/code')).body.data.code as string;
    const friend = await Caller.user(srv, 'checkin-friend@example.com');
    const bindByCookie = await fetch(`${srv.url}/api/promotion/share/bind?type=anniversary_2021&code=${code}`, {
      headers: { cookie: `user_token=${friend.token}` },
    });
    expect(bindByCookie.status).toBe(401);
    expect(
      await srv.ctx.db
        .selectFrom('promotions')
        .select('id')
        .where('kind', 'in', ['checkin', 'share_bind:anniversary_2021'])
        .execute(),
    ).toHaveLength(0);
    expect((await u.get('/api/promotion/giveaway/checkin')).body.data).toMatchObject({ new_checkin: true, days: 1 });
    expect((await friend.get('/api/promotion/share/bind', { type: 'anniversary_2021', code })).body.data).toMatchObject(
      { bound: true, code },
    );
  });
});
