/** Account side over real HTTP: password change, profile and survey, guest → account binding, the operator command. */
import { PLAN_LIMITS } from '../../src/shared/domain/plans.js';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TEXT } from '../../src/shared/domain/account.js';
import { CODE } from '../../src/shared/domain/codes.js';
import { runAdmin } from '../../scripts/admin.js';
import type { TestServer } from '../support/server.js';
import { Caller, fixture, startApiServer } from './api-helpers.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startApiServer();
});
afterAll(() => srv?.stop());

let n = 0;
const email = (tag: string) => `acct-${tag}-${++n}@example.com`;
const PW = 'passw0rdA1';
const license = async (c: Caller) => (await c.form('/api/v2/license', { guest_token_v2: c.token }, false)).body.data;

describe('change password (spec §5)', () => {
  it('checks the old password, the rule, the confirmation and that it differs; then only the new one works', async () => {
    const addr = email('pw');
    const u = await Caller.user(srv, addr);
    const change = (f: Record<string, string>) => u.form('/api/account/password', f, false);
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'old_password', ACCOUNT_TEXT.required],
      [{ old_password: PW, password: 'short1', confirm_password: 'short1' }, 'password', ACCOUNT_TEXT.password],
      [
        { old_password: PW, password: 'lettersonly', confirm_password: 'lettersonly' },
        'password',
        ACCOUNT_TEXT.password,
      ],
      [{ old_password: PW, password: PW, confirm_password: PW }, 'password', ACCOUNT_TEXT.passwordSame],
      [
        { old_password: PW, password: 'newpass99', confirm_password: 'newpass98' },
        'confirm_password',
        ACCOUNT_TEXT.passwordMismatch,
      ],
      [{ old_password: PW, password: 'newpass99' }, 'confirm_password', ACCOUNT_TEXT.required],
    ];
    for (const [form, field, text] of cases) {
      const r = await change(form);
      expect(r.body.code, JSON.stringify(form)).toBe(CODE.COMMON_PARAMETER_ERROR);
      expect(r.body.data.errors[field]).toBe(text);
    }
    expect(
      (await change({ old_password: 'wrongpass1', password: 'newpass99', confirm_password: 'newpass99' })).body,
    ).toMatchObject({ code: CODE.WRONG_PASSWORD, data: { reason: 'wrongPassword' } });

    const oldSession = u.cookies.get('pixmill_session');
    const other = new Caller(srv);
    await other.form('/api/account/login', { email: addr, password: PW }, false);
    const otherSession = other.cookies.get('pixmill_session');
    expect((await change({ old_password: PW, password: 'newpass99', confirm_password: 'newpass99' })).body.code).toBe(
      200,
    );
    // A fresh session for the caller; every other session (and the old id) ends.
    expect(u.cookies.get('pixmill_session')).not.toBe(oldSession);
    expect((await u.get('/api/account/me', {}, false)).body.data.email).toBe(addr);
    for (const s of [oldSession, otherSession])
      expect((await fetch(srv.url + '/api/account/me', { headers: { cookie: `pixmill_session=${s}` } })).status).toBe(
        401,
      );
    const fresh = new Caller(srv);
    expect((await fresh.form('/api/account/login', { email: addr, password: PW }, false)).body.code).toBe(
      CODE.WRONG_PASSWORD,
    );
    expect((await fresh.form('/api/account/login', { email: addr, password: 'newpass99' }, false)).body.code).toBe(200);
    // Without a session or user token: code 6.
    expect(
      (
        await new Caller(srv).form(
          '/api/account/password',
          { old_password: PW, password: 'x1234567', confirm_password: 'x1234567' },
          false,
        )
      ).status,
    ).toBe(401);
  });
});

describe('profile and occupation survey', () => {
  it('profile: names and occupation required, other needs its text', async () => {
    const u = await Caller.user(srv, email('profile'));
    const r = await u.form('/api/v2/profile/set', { first_name: '', last_name: 'Doe', occupation: '' });
    expect(r.body).toMatchObject({
      code: 1,
      msg: ACCOUNT_TEXT.required,
      data: { errors: { first_name: ACCOUNT_TEXT.required, occupation: ACCOUNT_TEXT.required } },
    });
    expect(
      (await u.form('/api/v2/profile/set', { first_name: 'Ann', last_name: 'Doe', occupation: 'other' })).body.data
        .errors,
    ).toEqual({ occupation_other: ACCOUNT_TEXT.required });
    expect(
      (
        await u.form('/api/v2/profile/set', {
          first_name: 'Ann',
          last_name: 'Doe',
          occupation: 'other',
          occupation_other: 'Archivist',
        })
      ).body.code,
    ).toBe(200);
    expect(await license(u)).toMatchObject({ first_name: 'Ann', last_name: 'Doe', occupation: 'other' });
  });

  it('survey: at least one option; other needs its text; answers are kept on the account', async () => {
    const u = await Caller.user(srv, email('survey'));
    expect((await u.form('/api/v2/survey/set', {}, false)).body).toMatchObject({ code: 1, msg: ACCOUNT_TEXT.survey });
    expect((await u.form('/api/v2/survey/set', { occupations: 'pilot' }, false)).body.data.errors).toEqual({
      occupations: ACCOUNT_TEXT.occupation,
    });
    expect((await u.form('/api/v2/survey/set', { occupations: 'designer,other' }, false)).body.data.errors).toEqual({
      occupation_other: ACCOUNT_TEXT.required,
    });
    const ok = await u.json('/api/v2/survey/set', { occupations: ['designer', 'student'] });
    expect(ok.body).toMatchObject({ code: 200, data: { survey: ['designer', 'student'], occupation: 'designer' } });
    expect((await u.get('/api/account/me', {}, false)).body.data.survey).toEqual(['designer', 'student']);
  });
});

describe('guest identity', () => {
  it("bind_token moves a guest's uploads and works to the account; unbind on logout gives the guest token back its own account", async () => {
    const g = await Caller.guest(srv);
    const up = await g.upload(fixture('rocket.jpg'), 'rocket.jpg', 'compress');
    const uid = up.body.data.data.uid;
    const t = await g.form('/web_api/v1/transform', { uid, jconfig: JSON.stringify({ job: 'compress' }) });
    expect(t.body.code).toBe(200);
    const guestAccount = (await srv.ctx.services.tokens.resolve(g.token)).accountId;

    const u = await Caller.user(srv, email('bind'));
    const bind = await u.form('/api/v2/bind_token', { token: u.token, guest_token_v2: g.token }, false);
    expect(bind.body).toMatchObject({ code: 200, data: { moved_uploads: 1, moved_jobs: 1 } });
    // The account now owns them: its history and upload list show them, the old guest account has none.
    const hist = await u.get('/api/job/record');
    expect(hist.body.data.datas.map((d: { trans_id: string }) => d.trans_id)).toEqual([t.body.data.trans_id]);
    expect((await u.form('/web_api/v1/upload/list', {})).body.data.datas.map((d: { uid: string }) => d.uid)).toEqual([
      uid,
    ]);
    expect(
      await srv.ctx.db.selectFrom('jobs').select('trans_id').where('account_id', '=', guestAccount).execute(),
    ).toHaveLength(0);
    // While bound, the guest token acts for the account.
    expect((await license(g)).user_level).toBe('register');

    expect((await u.form('/api/v2/unbind_token', { token: u.token, guest_token_v2: g.token }, false)).body.code).toBe(
      200,
    );
    expect((await license(g)).user_level).toBe('guest');
    expect((await g.get('/api/job/record')).body.data.total).toBe(0);
    // Unbinding a token that is not bound to this user is refused.
    expect((await u.form('/api/v2/unbind_token', { token: u.token, guest_token_v2: g.token }, false)).body.code).toBe(
      CODE.PARAM_ERROR,
    );
  });
});

describe('operator command', () => {
  it('grant, renew, expire, credits, expire-due', async () => {
    const addr = email('admin');
    const u = await Caller.user(srv, addr);
    expect(await runAdmin(srv.ctx, ['grant', addr, 'pro'])).toMatchObject({ level: 'pro', left_credits: 500 });
    expect(await runAdmin(srv.ctx, ['credits', addr, '25'])).toMatchObject({ left_credits: 525 });
    const renewed = (await runAdmin(srv.ctx, ['renew', addr, '10'])) as {
      plan_expires_at: string;
      left_credits: number;
    };
    expect(renewed.left_credits).toBe(500);
    expect(Date.parse(renewed.plan_expires_at)).toBeGreaterThan(Date.now() + 39 * 86_400_000);
    expect(await runAdmin(srv.ctx, ['expire', addr])).toMatchObject({
      level: 'expired',
      left_credits: PLAN_LIMITS.expired.credits,
    });
    expect((await license(u)).user_level).toBe('expired');
    await expect(runAdmin(srv.ctx, ['grant', addr, 'gold'])).rejects.toThrow(/basic or pro/);
    await expect(runAdmin(srv.ctx, ['show', 'nobody@example.com'])).rejects.toThrow(/no registered account/);

    const due = email('due');
    const d = await Caller.user(srv, due, 'basic');
    await srv.ctx.db
      .updateTable('accounts')
      .set({ plan_expires_at: Date.now() - 1 })
      .where('id', '=', d.accountId)
      .execute();
    expect(await runAdmin(srv.ctx, ['expire-due'])).toEqual({ expired: 1 });
    expect(await runAdmin(srv.ctx, ['show', due])).toMatchObject({
      level: 'expired',
      left_credits: PLAN_LIMITS.expired.credits,
    });
  });

  it('`npm run admin` works as a separate process against the server database', async () => {
    const addr = email('cli');
    const u = await Caller.user(srv, addr);
    const env = {
      ...process.env,
      DATA_DIR: srv.dataDir,
      DATABASE_URL: srv.ctx.config.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
    };
    const root = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', 'grant', addr, 'basic'],
      { cwd: root, env, timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toMatchObject({ email: addr, level: 'basic', left_credits: 200 });
    expect((await license(u)).user_level).toBe('basic');
    const bad = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', 'frobnicate', addr],
      { cwd: root, env, timeout: 60_000 },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
  }, 90_000);
});
