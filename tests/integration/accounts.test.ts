import { LOGIN_FAILED_TEXT } from '../../server/services/accounts.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { Caller, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

const PW = 'abcd1234';

describe('register, login, logout (spec §5 texts)', () => {
  it('register refuses missing fields, bad email, weak or mismatched passwords with the spec texts', async () => {
    const c = new Caller(srv);
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'email', 'This field is required.'],
      [{ email: 'x@example.com', password: '', confirm_password: '' }, 'password', 'This field is required.'],
      [{ email: 'not-an-email', password: PW, confirm_password: PW }, 'email', 'Please enter a valid email address.'],
      [
        { email: 'a@example.com', password: 'short1', confirm_password: 'short1' },
        'password',
        'The password must be 8 to 48 characters and contain both letters and numbers.',
      ],
      [
        { email: 'a@example.com', password: 'lettersonly', confirm_password: 'lettersonly' },
        'password',
        'The password must be 8 to 48 characters and contain both letters and numbers.',
      ],
      [
        { email: 'a@example.com', password: '1234567890', confirm_password: '1234567890' },
        'password',
        'The password must be 8 to 48 characters and contain both letters and numbers.',
      ],
      [
        { email: 'a@example.com', password: 'a1'.repeat(25), confirm_password: 'a1'.repeat(25) },
        'password',
        'The password must be 8 to 48 characters and contain both letters and numbers.',
      ],
      [
        { email: 'a@example.com', password: PW, confirm_password: 'abcd12345' },
        'confirm_password',
        'The two passwords do not match.',
      ],
      [{ email: 'a@example.com', password: PW }, 'confirm_password', 'This field is required.'],
    ];
    for (const [form, field, text] of cases) {
      const r = await c.form('/api/account/register', form, false);
      expect(r.body.code, JSON.stringify(form)).toBe(1);
      expect(r.body.data.errors[field]).toBe(text);
    }
    expect(await srv.ctx.db.selectFrom('accounts').select('id').where('kind', '=', 'user').execute()).toHaveLength(0);
  });

  it('register creates a register-level account (pid 0, register credits), logs in, and refuses a second registration', async () => {
    const c = new Caller(srv);
    const r = await c.form(
      '/api/account/register',
      { email: 'New.User@Example.com', password: PW, confirm_password: PW },
      false,
    );
    expect(r.body.code).toBe(200);
    expect(r.body.data).toMatchObject({
      email: 'new.user@example.com',
      pid: 0,
      level: 'register',
      max_num: 3,
      used_num: 0,
    });
    expect(r.body.data.user_token).toMatch(/^u_/);
    const setCookie = r.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/pixmill_session=[A-Za-z0-9_-]{40,}/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const row = await srv.ctx.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'new.user@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'user', pid: 0, max_num: 3, compress_max: 100 });
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(PW);
    const me = await c.get('/api/account/me', {}, false);
    expect(me.body.data).toMatchObject({ email: 'new.user@example.com', level: 'register' });
    // The user token resolves to a logged-in licence.
    const lic = await c.form('/api/v2/license', { guest_token_v2: r.body.data.user_token }, false);
    expect(lic.body.data).toMatchObject({ user_level: 'register', pid: 0 });

    const again = await new Caller(srv).form(
      '/api/account/register',
      { email: 'new.user@EXAMPLE.com', password: PW, confirm_password: PW },
      false,
    );
    expect(again.body).toMatchObject({ code: 1, data: { reason: 'emailTaken' } });
  });

  it('login: one answer (code 3) for an unknown user and a wrong password, fresh session id, logout ends it', async () => {
    await new Caller(srv).form(
      '/api/account/register',
      { email: 'login@example.com', password: PW, confirm_password: PW },
      false,
    );
    const c = new Caller(srv);
    const unknown = (await c.form('/api/account/login', { email: 'nobody@example.com', password: PW }, false)).body;
    const wrong = (await c.form('/api/account/login', { email: 'login@example.com', password: 'wrong1234' }, false))
      .body;
    // the two failures cannot be told apart (who has an account is not the login form's to say)
    expect(unknown).toEqual({ code: 3, msg: LOGIN_FAILED_TEXT, data: { reason: 'loginFailed' } });
    expect(wrong).toEqual(unknown);
    expect((await c.form('/api/account/login', { email: 'login@example.com' }, false)).body).toMatchObject({
      code: 1,
      data: { reason: 'fieldRequired' },
    });
    expect((await c.get('/api/account/me', {}, false)).body.code).toBe(6);

    const first = await c.form('/api/account/login', { email: 'LOGIN@example.com', password: PW }, false);
    expect(first.body.code).toBe(200);
    const s1 = c.cookies.get('pixmill_session');
    const second = await c.form('/api/account/login', { email: 'login@example.com', password: PW }, false);
    expect(second.body.code).toBe(200);
    const s2 = c.cookies.get('pixmill_session');
    expect(s2).toBeTruthy();
    expect(s2).not.toBe(s1);
    // The old session id no longer works.
    const old = await fetch(srv.url + '/api/account/me', { headers: { cookie: `pixmill_session=${s1}` } });
    expect(old.status).toBe(401);
    // Every login hands out a new user token (only hashes are stored); the old session's token ended with it.
    expect(second.body.data.user_token).not.toBe(first.body.data.user_token);
    expect((await c.form('/api/v2/license', { guest_token_v2: first.body.data.user_token }, false)).status).toBe(401);
    expect((await c.form('/api/v2/license', { guest_token_v2: second.body.data.user_token }, false)).body.code).toBe(
      200,
    );

    expect((await c.form('/api/account/logout', {}, false)).body.code).toBe(200);
    const after = await fetch(srv.url + '/api/account/me', { headers: { cookie: `pixmill_session=${s2}` } });
    expect(after.status).toBe(401);
  });

  it('a readable signed-in hint beside the session: set on login, kept with the session, cleared on logout and on a stale session', async () => {
    const c = new Caller(srv);
    const reg = await fetch(srv.url + '/api/account/register', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'hint@example.com', password: PW, confirm_password: PW }),
    });
    const cookies = reg.headers.getSetCookie();
    const hint = cookies.find((h) => h.startsWith('pixmill_signed_in='));
    expect(hint).toMatch(/^pixmill_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/SameSite=Lax/i);
    const sid = /pixmill_session=([^;]+)/.exec(cookies.join('\n'))![1]!;
    // A session from before the hint (or a lost hint): any request gets the hint back.
    const page = await fetch(srv.url + '/api/health', { headers: { cookie: `pixmill_session=${sid}` } });
    expect(page.headers.getSetCookie().some((h) => h.startsWith('pixmill_signed_in=1;'))).toBe(true);
    const withHint = await fetch(srv.url + '/api/health', {
      headers: { cookie: `pixmill_session=${sid}; pixmill_signed_in=1` },
    });
    expect(withHint.headers.getSetCookie()).toEqual([]);
    // A guest gets neither, and its /me is still an honest 401 (the client does not ask without the hint).
    const guest = await fetch(srv.url + '/api/health');
    expect(guest.headers.getSetCookie()).toEqual([]);
    // A stale session: /me refuses and clears both cookies.
    const stale = await fetch(srv.url + '/api/account/me', {
      headers: { cookie: 'pixmill_session=ended-long-ago; pixmill_signed_in=1' },
    });
    expect(stale.status).toBe(401);
    const cleared = stale.headers.getSetCookie();
    expect(cleared.find((h) => h.startsWith('pixmill_session='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cleared.find((h) => h.startsWith('pixmill_signed_in='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    // Logout clears the hint.
    await c.form('/api/account/login', { email: 'hint@example.com', password: PW }, false);
    const out = await fetch(srv.url + '/api/account/logout', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `pixmill_session=${c.cookies.get('pixmill_session')}; pixmill_signed_in=1`,
      },
      body: '',
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((h) => h.startsWith('pixmill_signed_in='))).toMatch(
      /Expires=Thu, 01 Jan 1970/,
    );
  });

  it('setPlan grants the plan and its credits', async () => {
    const u = await Caller.user(srv, 'plan@example.com');
    const a = await srv.ctx.services.accounts.setPlan(u.accountId, 'pro', Date.now() + 30 * 86400_000);
    expect(a).toMatchObject({ pid: 11043, max_num: 500, compress_max: 500, is_expired: 0 });
    expect((await u.form('/api/v2/license', { guest_token_v2: u.token }, false)).body.data).toMatchObject({
      user_level: 'pro',
      left_credits: 500,
    });
    const grants = await srv.ctx.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('account_id', '=', u.accountId)
      .where('kind', '=', 'grant')
      .execute();
    expect(grants.map((g) => g.amount)).toEqual([500]);
  });
});

describe('login rate limit', () => {
  it('more than 30 login attempts a minute from one address are refused with 429', async () => {
    const c = new Caller(srv);
    const codes: number[] = [];
    // A different email each time, so the per-email lockout (accounts-security.test.ts) stays out of it.
    for (let i = 0; i < 32; i++)
      codes.push(
        (await c.form('/api/account/login', { email: `nobody-${i}@example.com`, password: 'x1x1x1x1' }, false)).status,
      );
    expect(codes.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('site ajax endpoint', () => {
  it('a nonce bound to the session; wrong or foreign nonce → code 5; get_user_token needs a session', async () => {
    const u = await Caller.user(srv, 'ajax@example.com');
    const n = await u.get('/site-ajax/nonce', {}, false);
    expect(n.body.data.nonce).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{32}$/);
    const ok = await u.form('/site-ajax', { action: 'get_user_token', pid: '1', nonce: n.body.data.nonce }, false);
    expect(ok.body.code).toBe(200);
    // A new token each time; it and the login's token both act for the account.
    expect(ok.body.data.user_token).toMatch(/^u_/);
    expect(ok.body.data.user_token).not.toBe(u.token);
    for (const t of [ok.body.data.user_token, u.token])
      expect((await u.form('/api/v2/license', { guest_token_v2: t }, false)).body.data.user_id).toBe(u.accountId);

    for (const nonce of ['', 'abc', n.body.data.nonce.replace(/.$/, (ch: string) => (ch === 'A' ? 'B' : 'A'))]) {
      expect((await u.form('/site-ajax', { action: 'get_user_token', nonce }, false)).body).toMatchObject({
        code: 5,
        data: { reason: 'validationInvalid' },
      });
    }
    // A nonce issued to an anonymous visitor does not work with a session, and the reverse.
    const anon = new Caller(srv);
    const anonNonce = (await anon.form('/site-ajax', { action: 'nonce' }, false)).body.data.nonce;
    expect((await u.form('/site-ajax', { action: 'get_user_token', nonce: anonNonce }, false)).body.code).toBe(5);
    expect(
      (await anon.form('/site-ajax', { action: 'get_user_token', nonce: n.body.data.nonce }, false)).body.code,
    ).toBe(5);
    const noSession = await anon.form('/site-ajax', { action: 'get_user_token', nonce: anonNonce }, false);
    expect(noSession.status).toBe(401);
    expect(noSession.body.code).toBe(6);
    // An expired nonce (older than a day) is refused.
    const stale = srv.ctx.services.nonces.issue(undefined, Date.now() - 25 * 3600_000);
    expect((await anon.form('/site-ajax', { action: 'credit_upload', nonce: stale }, false)).body.code).toBe(5);
  });

  it('credit actions record an event with the trans_id/uid; unknown action → 10001', async () => {
    const g = await Caller.guest(srv);
    const nonce = (await g.get('/site-ajax/nonce', {}, false)).body.data.nonce;
    const accountId = (await srv.ctx.services.tokens.resolve(g.token)).accountId;
    for (const [action, kind] of [
      ['credit_transform', 'credit-transform'],
      ['credit_upload', 'credit-upload'],
      ['credit-download', 'credit-download'],
    ]) {
      const r = await g.form('/site-ajax', { action: action!, pid: '42', nonce, trans_id: 't-1', uid: 'u-1' });
      expect(r.body.code).toBe(200);
      const [ev] = await srv.ctx.services.events.recent(accountId, kind);
      expect(ev).toMatchObject({ id: r.body.data.event_id, kind, payload: { pid: '42', trans_id: 't-1', uid: 'u-1' } });
    }
    expect((await g.form('/site-ajax', { action: 'delete_everything', nonce })).body).toMatchObject({ code: 10001 });
  });
});
