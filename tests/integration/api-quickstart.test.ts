/**
 * The developer quick start of /api-docs/, run as written against a real server: the curl steps with
 * the real curl binary and the Node script with node, their placeholders (host, token, <uid>,
 * <trans_id>) filled in and nothing else changed. Then what the API token must never do.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE } from '../../src/shared/domain/codes.js';
import { CURL_STEPS, NODE_SCRIPT, QUICK_START_FILES, QUICK_START_SLOTS, type QuickStartStep } from '../../src/pages/content/apiQuickStart.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller, fixture } from './api-helpers.js';
import { until } from './until.js';

const run = promisify(execFile);
/** The photo the quick start enlarges: small, so the 2x enlarge takes little time on a shared machine. */
const PHOTO = { w: 160, h: 107 };

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-quickstart-'));
  await sharp(fixture('LadyBird.jpg')).resize(PHOTO.w, PHOTO.h, { fit: 'fill' }).jpeg().toFile(path.join(dir, QUICK_START_FILES.photo));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const step = (s: QuickStartStep) => CURL_STEPS.find((c) => c.step === s)!.command;
/** The env step as shown, with this server and this token in place of its example values. */
const envFor = (token: string) => step('env').replace(/^(export PIXMILL_HOST=).*$/m, `$1${srv.url}`).replace(/^(export PIXMILL_API_TOKEN=).*$/m, `$1${token}`);

/** Runs one curl step exactly as shown (after the env step), with the slots filled in; answers its stdout. */
async function curlStep(token: string, s: QuickStartStep, slots: { uid?: string; transId?: string } = {}): Promise<string> {
  let cmd = step(s);
  if (slots.uid) cmd = cmd.replaceAll(QUICK_START_SLOTS.uid, slots.uid);
  if (slots.transId) cmd = cmd.replaceAll(QUICK_START_SLOTS.transId, slots.transId);
  expect(cmd).not.toMatch(/<uid>|<trans_id>/);
  const { stdout } = await run('sh', ['-c', `set -e\n${envFor(token)}\n${cmd}`], { cwd: dir, env: { PATH: process.env.PATH } });
  return stdout;
}
const json = (s: string) => JSON.parse(s) as { code: number; msg: string; data: any };

const charges = async (accountId: number) =>
  (await srv.ctx.db.selectFrom('credit_ledger').select('ref').where('account_id', '=', accountId).where('kind', '=', 'charge').execute()).length;

async function proWithToken(tag: string) {
  const u = await Caller.user(srv, `quickstart-${tag}-${Date.now()}@example.com`, 'pro');
  const r = await u.form('/api/v2/api_token/get');
  expect(r.body.code).toBe(CODE.OK);
  return { u, token: r.body.data.api_token as string };
}

describe('the quick start, as /api-docs/ shows it', () => {
  let a: Awaited<ReturnType<typeof proWithToken>>;
  let transId = '';

  it('curl: upload, transform (enlarge 2x), poll, download — one credit charged, a real image twice the size', async () => {
    a = await proWithToken('curl');
    const before = await a.u.form('/api/v2/license');
    const up = json(await curlStep(a.token, 'upload'));
    expect(up.code, up.msg).toBe(CODE.OK);
    const uid = up.data.data.uid as string;

    const started = json(await curlStep(a.token, 'transform', { uid }));
    expect(started.code, started.msg).toBe(CODE.OK);
    transId = started.data.trans_id;

    const end = await until(
      async () => json(await curlStep(a.token, 'progress', { transId })),
      (b) => b.code !== CODE.OK || b.data.status !== 'progress',
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(end.code).toBe(CODE.OK);
    expect(end.data.status).toBe('finish');

    await curlStep(a.token, 'download', { transId });
    const meta = await sharp(path.join(dir, QUICK_START_FILES.result)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PHOTO.w * 2, PHOTO.h * 2]);

    // exactly one charge for one processed image; polling the finished work again charges nothing
    expect(await charges(a.u.accountId)).toBe(1);
    for (let i = 0; i < 3; i++) expect(json(await curlStep(a.token, 'progress', { transId })).data.status).toBe('finish');
    expect(await charges(a.u.accountId)).toBe(1);
    const after = await a.u.form('/api/v2/license');
    expect(after.body.data.used_num).toBe(before.body.data.used_num + 1);
  }, 300_000);

  it('Node: the same calls in one script', async () => {
    const b = await proWithToken('node');
    fs.rmSync(path.join(dir, QUICK_START_FILES.result), { force: true });
    fs.writeFileSync(path.join(dir, 'quickstart.mjs'), NODE_SCRIPT);
    const { stdout } = await run(process.execPath, ['quickstart.mjs', QUICK_START_FILES.photo], {
      cwd: dir,
      env: { PATH: process.env.PATH, PIXMILL_HOST: srv.url, PIXMILL_API_TOKEN: b.token },
      timeout: 240_000,
    });
    expect(stdout).toContain(`saved ${QUICK_START_FILES.result}`);
    const meta = await sharp(path.join(dir, QUICK_START_FILES.result)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', PHOTO.w * 2, PHOTO.h * 2]);
    expect(await charges(b.u.accountId)).toBe(1);
  }, 300_000);

  it("another account's trans_id answers not-found to the quick start's own poll and download", async () => {
    const other = await proWithToken('other');
    const poll = json(await curlStep(other.token, 'progress', { transId }));
    expect(poll.code).toBe(CODE.PARAM_ERROR);
    const r = await fetch(`${srv.url}/web_api/v1/download/?trans_id=${transId}`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(r.status).toBe(404);
  });

  it('the token cannot change the password nor mint tokens', async () => {
    const auth = { authorization: `Bearer ${a.token}` };
    const pw = await fetch(`${srv.url}/api/account/password`, { method: 'POST', headers: auth, body: new URLSearchParams({ old_password: 'passw0rdA1', password: 'hijacked99', confirm_password: 'hijacked99' }) });
    expect([pw.status, ((await pw.json()) as { code: number }).code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    for (const p of ['/api/v2/api_token/get', '/api/v2/api_token/reset', '/api/v2/guest_token', '/api/v2/bind_token']) {
      const r = await fetch(`${srv.url}${p}`, { method: 'POST', headers: auth });
      expect([p, r.status]).toEqual([p, 401]);
    }
    // still the old password, and still this token (a reset would have changed it)
    const me = await a.u.get('/api/account/me');
    const login = await new Caller(srv).form('/api/account/login', { email: me.body.data.email, password: 'passw0rdA1' }, false);
    expect(login.body.code).toBe(CODE.OK);
    expect(json(await curlStep(a.token, 'progress', { transId })).code).toBe(CODE.OK);
  });

  it('api_token/reset retires the old token: the quick start with it answers code 6', async () => {
    const r = await a.u.form('/api/v2/api_token/reset');
    const fresh = r.body.data.api_token as string;
    const old = json(await curlStep(a.token, 'upload'));
    expect(old.code).toBe(CODE.VERIFICATION_FAILED);
    expect(json(await curlStep(a.token, 'progress', { transId })).code).toBe(CODE.VERIFICATION_FAILED);
    expect(json(await curlStep(fresh, 'progress', { transId })).data.status).toBe('finish');
  });
});
