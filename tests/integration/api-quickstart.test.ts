/**
 * The developer quick start of /api-docs/, run as written against a real server: the curl steps with
 * the real curl binary, the webhook check and the Node script with node, the `pixmill` lines with the
 * command, the TypeScript client's script with tsx, their placeholders (host, token, e-mail, webhook URL,
 * <user_token>, <api_token>, <uid>, <trans_id>) filled in and nothing else changed — the photo too is the
 * quick start's own (a sample every API plan accepts). First the new calls (issue 49): a fresh account to a
 * free cut-out in three calls, the output options, a webhook, the command. Then the whole quick start
 * through the generated client (clients/typescript), and what the API token must never do.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PLANS } from '../../src/shared/domain/apiPlans.js';
import { CODE } from '../../src/shared/domain/codes.js';
import {
  CLI_COMMANDS,
  CLIENT_SCRIPT,
  CURL_STEPS,
  NODE_SCRIPT,
  QUICK_START_OPTIONS,
  QUICK_START_FEATURE,
  QUICK_START_FILES,
  QUICK_START_JCONFIG,
  QUICK_START_PHOTO_PATH,
  QUICK_START_SLOTS,
  WEBHOOK_VERIFY_SCRIPT,
  type QuickStartStep,
} from '../../src/pages/content/apiQuickStart.js';
import { API_PREVIEW_MEGAPIXELS } from '../../src/shared/domain/apiPlans.js';
import { createClient } from '../../clients/typescript/client.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { Caller } from './api-helpers.js';
import { until } from './until.js';

const run = promisify(execFile);
/** The quick start's photo (the enlarge sample) and its result at 2x. */
const PHOTO = { w: 200, h: 150 };
const RESULT = [PHOTO.w * QUICK_START_FEATURE.scale, PHOTO.h * QUICK_START_FEATURE.scale];
const root = path.resolve(import.meta.dirname, '../..');

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixmill-quickstart-'));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const step = (s: QuickStartStep) => CURL_STEPS.find((c) => c.step === s)!.command;
/**
 * The env step as shown, with this server in place of its example value, and the key exported as the
 * three-call start's last step does (the later steps read it).
 */
const envFor = (token: string) =>
  `${step('env').replace(/^(export PIXMILL_SERVER=).*$/m, `$1${srv.url}`)}\nexport PIXMILL_API_KEY=${token}`;

type Slots = Partial<Record<keyof typeof QUICK_START_SLOTS, string>>;

/** Runs shell text exactly as shown (after the env step), with the slots filled in; answers its stdout. */
async function shell(token: string, text: string, slots: Slots = {}, path = process.env.PATH): Promise<string> {
  let cmd = text;
  for (const [slot, value] of Object.entries(slots))
    cmd = cmd.replaceAll(QUICK_START_SLOTS[slot as keyof typeof QUICK_START_SLOTS], value);
  expect(cmd).not.toMatch(/<\w+>/);
  const { stdout } = await run('sh', ['-c', `set -e\n${envFor(token)}\n${cmd}`], { cwd: dir, env: { PATH: path } });
  return stdout;
}
/** Runs one curl step exactly as shown, with the slots filled in; answers its stdout. */
const curlStep = (token: string, s: QuickStartStep, slots: Slots = {}) => shell(token, step(s), slots);
/** The status line and headers curl -D - wrote, by lower-case name. */
const headersOf = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split(/\r?\n/)
      .map((line) => /^([\w-]+):\s*(.*)$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => [m[1]!.toLowerCase(), m[2]!]),
  );
const json = (s: string) => JSON.parse(s) as { code: number; msg: string; data: any };
const result = async () => {
  const meta = await sharp(path.join(dir, QUICK_START_FILES.result)).metadata();
  return [meta.format, meta.width, meta.height];
};

const charges = async (accountId: number) =>
  (
    await srv.ctx.db
      .selectFrom('credit_ledger')
      .select('ref')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute()
  ).length;

/** A Pro account, or a pack-only account (the smallest API plan: an API pack without a subscription), with its API token. */
async function developerWithToken(tag: string, kind: 'pro' | 'pack' = 'pro') {
  const u = await Caller.user(srv, `quickstart-${tag}-${Date.now()}@example.com`, kind === 'pro' ? 'pro' : undefined);
  if (kind === 'pack')
    await srv.ctx.services.apiTokens.grantPack(u.accountId, API_PLANS[0]!, `quickstart-${u.accountId}`);
  const r = await u.form('/api/v2/api_token/get');
  expect(r.body.code).toBe(CODE.OK);
  return { u, token: r.body.data.api_token as string };
}
const proWithToken = (tag: string) => developerWithToken(tag);

describe('the new calls first, as /api-docs/ shows them (issue 49)', () => {
  let key = '';
  let secret = '';
  let accountId = 0;
  /** The credits the account has used (a free preview uses none). */
  const used = async () => (await srv.ctx.services.credits.balance(accountId)).used_num;

  it('curl, from nothing: register, key, and a free cut-out — three calls', async () => {
    const email = `quickstart-free-${Date.now()}@example.com`;
    const registered = json(await curlStep('', 'register', { email }));
    expect(registered.code, registered.msg).toBe(CODE.OK);
    const created = json(await curlStep('', 'key', { userToken: registered.data.user_token }));
    expect(created.code, created.msg).toBe(CODE.OK);
    key = created.data.api_token;
    secret = created.data.webhook_secret;
    expect([key, secret]).toEqual([expect.stringMatching(/^pxm_/), expect.stringMatching(/^whsec_/)]);
    accountId = (await srv.ctx.services.tokens.resolve(registered.data.user_token)).accountId;

    await curlStep('', 'photo');
    const headers = headersOf(await curlStep('', 'cutout', { apiToken: key }));
    expect([headers['x-credits-charged'], headers['content-type']]).toEqual(['0', 'image/png']);
    const cut = await sharp(path.join(dir, QUICK_START_FILES.cutout)).metadata();
    expect(cut.hasAlpha).toBe(true);
    expect(cut.width! * cut.height!).toBeLessThanOrEqual(API_PREVIEW_MEGAPIXELS * 1e6);
    expect(await used()).toBe(0);
  }, 300_000);

  it('curl: the output options — another name of matting, a JPG on white, cropped to the subject', async () => {
    const headers = headersOf(await curlStep(key, 'options'));
    expect([headers['content-type'], headers['x-input-downscaled']]).toEqual(['image/jpeg', 'false']);
    const out = await sharp(path.join(dir, QUICK_START_FILES.options)).metadata();
    expect([out.format, out.hasAlpha]).toEqual(['jpeg', false]);
    expect([String(out.width), String(out.height)]).toEqual([headers['x-width'], headers['x-height']]);
    // cropped to the subject's box (with QUICK_START_OPTIONS.crop_margin px around it): within the photo
    expect(out.width).toBeLessThanOrEqual(PHOTO.w);
    expect(out.height).toBeLessThanOrEqual(PHOTO.h);
    expect(QUICK_START_OPTIONS.crop).toBe('true');
    expect(await used()).toBe(1);
  }, 300_000);

  it('curl: a webhook, checked by the verification script as shown', async () => {
    const received: { body: string; signature: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ body, signature: String(req.headers['pixmill-signature']) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    // the tests' receiver is on loopback, which a server refuses unless told (ALLOW_PRIVATE_URLS, tests only)
    srv.ctx.config.allowPrivateUrls = true;
    try {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/pixmill`;
      expect(await curlStep(key, 'webhook', { webhookUrl })).toBe('200\n');
      const got = await until(
        () => received,
        (xs) => xs.length > 0,
      );
      expect(JSON.parse(got[0]!.body)).toMatchObject({ event: 'work.finished', status: 'finish' });
      fs.writeFileSync(path.join(dir, 'verify.mjs'), WEBHOOK_VERIFY_SCRIPT);
      const { verify } = (await import(pathToFileURL(path.join(dir, 'verify.mjs')).href)) as {
        verify: (body: string, signature: string, secret: string) => boolean;
      };
      expect(verify(got[0]!.body, got[0]!.signature, secret)).toBe(true);
      expect(verify(got[0]!.body.replace('finish', 'fatal'), got[0]!.signature, secret)).toBe(false);
      expect(verify(got[0]!.body, got[0]!.signature, 'whsec_another')).toBe(false);
      expect(verify(got[0]!.body, 't=1,v1=00', secret)).toBe(false);
    } finally {
      srv.ctx.config.allowPrivateUrls = false;
      await new Promise((r) => receiver.close(r));
    }
  }, 300_000);

  it('the pixmill command: the lines as shown (the package from this checkout)', async () => {
    // `pixmill` as npm's install of the package puts it on the PATH: the command's source run by tsx
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const cli = path.join(root, 'clients', 'typescript', 'cli.ts');
    fs.writeFileSync(
      path.join(bin, 'pixmill'),
      `#!/bin/sh\nexec "${process.execPath}" --import ${tsx} "${cli}" "$@"\n`,
      {
        mode: 0o755,
      },
    );
    // the lines before the first export build and install the package (scripts/api-client-package.test.ts packs it)
    const lines = CLI_COMMANDS.trim().split('\n');
    // the key and the server come from the quick start's own environment (envFor): one name each for curl, scripts and the CLI
    const from = lines.findIndex((l) => l.startsWith('pixmill '));
    expect(lines.slice(0, from).join('\n')).toMatch(/npm pack[^]*npm install -g/);
    await shell(key, lines.slice(from).join('\n'), {}, `${bin}:${process.env.PATH}`);
    const cutout = await sharp(path.join(dir, 'cutouts', 'photo.png')).metadata();
    expect(cutout.hasAlpha).toBe(true);
    const big = await sharp(path.join(dir, 'big.jpg')).metadata();
    expect([big.width, big.height]).toEqual(RESULT);
  }, 300_000);
});

describe('the quick start, as /api-docs/ shows it', () => {
  let a: Awaited<ReturnType<typeof proWithToken>>;
  let transId = '';

  it('curl, on the smallest API plan: the photo, then one synchronous call — the image twice the size, one credit', async () => {
    a = await developerWithToken('curl', 'pack');
    const before = (await a.u.form('/api/v2/license')).body.data;
    await curlStep(a.token, 'photo');
    expect((await sharp(path.join(dir, QUICK_START_FILES.photo)).metadata()).width).toBe(PHOTO.w);
    expect(await curlStep(a.token, 'process')).toBe('200\n');
    expect(await result()).toEqual(['jpeg', ...RESULT]);
    expect(await charges(a.u.accountId)).toBe(1);
    const after = (await a.u.form('/api/v2/license')).body.data;
    expect(after.used_num).toBe(before.used_num + 1);
  }, 300_000);

  it('curl: the same in four calls — upload, transform, poll, download; polling charges nothing', async () => {
    fs.rmSync(path.join(dir, QUICK_START_FILES.result), { force: true });
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
    expect(await result()).toEqual(['jpeg', ...RESULT]);

    // one charge for each processed image; polling the finished work again charges nothing
    expect(await charges(a.u.accountId)).toBe(2);
    for (let i = 0; i < 3; i++)
      expect(json(await curlStep(a.token, 'progress', { transId })).data.status).toBe('finish');
    expect(await charges(a.u.accountId)).toBe(2);
  }, 300_000);

  it('Node: the synchronous call in one script', async () => {
    const b = await proWithToken('node');
    fs.rmSync(path.join(dir, QUICK_START_FILES.result), { force: true });
    await curlStep(b.token, 'photo');
    fs.writeFileSync(path.join(dir, 'quickstart.mjs'), NODE_SCRIPT);
    const { stdout } = await run(process.execPath, ['quickstart.mjs', QUICK_START_FILES.photo], {
      cwd: dir,
      env: { PATH: process.env.PATH, PIXMILL_SERVER: srv.url, PIXMILL_API_KEY: b.token },
      timeout: 240_000,
    });
    const left = (await srv.ctx.services.credits.balance(b.u.accountId)).left;
    expect(stdout).toBe(`saved ${QUICK_START_FILES.result}; ${left} credits left\n`);
    expect(await result()).toEqual(['jpeg', ...RESULT]);
    expect(await charges(b.u.accountId)).toBe(1);
  }, 300_000);

  it('TypeScript: the client script as shown, beside a copy of clients/typescript', async () => {
    const c = await proWithToken('client');
    fs.rmSync(path.join(dir, QUICK_START_FILES.result), { force: true });
    await curlStep(c.token, 'photo');
    fs.cpSync(path.join(root, 'clients', 'typescript'), path.join(dir, 'clients', 'typescript'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'quickstart.mts'), CLIENT_SCRIPT);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    await run(process.execPath, ['--import', tsx, 'quickstart.mts'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PIXMILL_SERVER: srv.url, PIXMILL_API_KEY: c.token },
      timeout: 240_000,
    });
    expect(await result()).toEqual(['jpeg', ...RESULT]);
    expect(await charges(c.u.accountId)).toBe(1);
  }, 300_000);

  it('every step through the generated client: photo, process, and the four calls', async () => {
    const d = await proWithToken('generated');
    const api = createClient({ baseUrl: srv.url, apiKey: d.token });
    const params = new URLSearchParams(QUICK_START_PHOTO_PATH.split('?')[1]);
    const photo = await api.call('getSampleDownload', {
      job: params.get('job')!,
      type: params.get('type') as 'original',
    });
    expect(photo.kind).toBe('file');
    const bytes = new Blob([photo.bytes]);
    const out = await api.call('postProcess', { file: bytes, ...QUICK_START_FEATURE });
    if (out.kind !== 'file') throw new Error(`still running: ${JSON.stringify(out.data)}`);
    expect(out.filename).toMatch(/_enlarge\.jpg$/);
    expect(out.headers.get('x-credits-charged')).toBe('1');
    expect((await sharp(Buffer.from(out.bytes)).metadata()).width).toBe(RESULT[0]);

    const up = await api.call('postUpload', { job: 'enlarge', file: bytes });
    const started = await api.call('postTransform', {
      uid: up.data.data.uid,
      jconfig: JSON.parse(QUICK_START_JCONFIG),
    });
    const id = started.data.trans_id;
    const done = await until(
      async () => (await api.call('getProgress', { trans_id: id })).data.status,
      (s) => s !== 'progress',
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(done).toBe('finish');
    const file = await api.call('getDownload', { trans_id: id });
    expect((await sharp(Buffer.from(file.bytes)).metadata()).height).toBe(RESULT[1]);
    // a refusal is a typed error: its status, code and reason
    const refusal = await api
      .call('postProcess', { file: bytes, feature: 'enlarge', scale: 3 })
      .catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 400, code: CODE.PARAM_ERROR, reason: 'paramInvalid' });
    expect(await charges(d.u.accountId)).toBe(2);
  }, 300_000);

  it("another account's trans_id answers not-found to the quick start's own poll and download", async () => {
    const other = await proWithToken('other');
    const poll = json(await curlStep(other.token, 'progress', { transId }));
    expect(poll.code).toBe(CODE.PARAM_ERROR);
    const r = await fetch(`${srv.url}/web_api/v1/download/?trans_id=${transId}`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(r.status).toBe(404);
  });

  it('the token cannot change the password nor mint tokens', async () => {
    const auth = { authorization: `Bearer ${a.token}` };
    const pw = await fetch(`${srv.url}/api/account/password`, {
      method: 'POST',
      headers: auth,
      body: new URLSearchParams({ old_password: 'passw0rdA1', password: 'hijacked99', confirm_password: 'hijacked99' }),
    });
    expect([pw.status, ((await pw.json()) as { code: number }).code]).toEqual([401, CODE.VERIFICATION_FAILED]);
    for (const p of ['/api/v2/api_token/get', '/api/v2/api_token/reset', '/api/v2/bind_token']) {
      const r = await fetch(`${srv.url}${p}`, { method: 'POST', headers: auth });
      expect([p, r.status]).toEqual([p, 401]);
    }
    // guest_token needs no credentials: the key is not read there, and the answer is a new guest's token, not the account's
    const guest = await fetch(`${srv.url}/api/v2/guest_token`, { method: 'POST', headers: auth });
    const minted = ((await guest.json()) as { data: { token: string } }).data.token;
    expect((await srv.ctx.services.tokens.resolve(minted)).logged).toBe(false);
    // still the old password, and still this token (a reset would have changed it)
    const me = await a.u.get('/api/account/me');
    const login = await new Caller(srv).form(
      '/api/account/login',
      { email: me.body.data.email, password: 'passw0rdA1' },
      false,
    );
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
