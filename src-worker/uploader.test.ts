// The uploader against the real server (startTestServer): whole files, 5 MB slices, errors, resume.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_SIZE_BYTES } from '../src/shared/domain/constants.js';
import { startTestServer, type TestServer } from '../tests/support/server.js';
import { recordFetch } from '../tests/support/recordingFetch.js';
import { UploadError, sliceStatus, uploadSliced, uploadWhole, type SliceState } from './uploader.js';

const fixtures = path.resolve(import.meta.dirname, '../tests/fixtures');
const big = fs.readFileSync(path.join(fixtures, 'elephants-5640x3172.jpg'));
const small = fs.readFileSync(path.join(fixtures, 'rocket.jpg'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
// A real 80×80 JPEG thumbnail, as the worker would make.
const THUMB = `data:image/jpeg;base64,${fs.readFileSync(path.join(fixtures, 'rocket.jpg')).toString('base64')}`;

let srv: TestServer;
let guestToken: string;
let proToken: string;

beforeAll(async () => {
  srv = await startTestServer();
  guestToken = (await srv.ctx.services.tokens.createGuest()).token;
  const pro = await srv.ctx.services.accounts.register({
    email: 'pro-uploader@example.com',
    password: 'abcd1234',
    confirm_password: 'abcd1234',
  });
  await srv.ctx.services.accounts.setPlan(pro.id, 'pro');
  proToken = await srv.ctx.services.tokens.userTokenFor(pro.id);
});
afterAll(() => srv?.stop());

let rec: ReturnType<typeof recordFetch> | undefined;
afterEach(() => rec?.restore());

describe('uploadWhole', () => {
  it('sends file, thumbnail, user_token and job; reads the answer at data.data', async () => {
    rec = recordFetch();
    const progress: number[] = [];
    const r = await uploadWhole(
      new Blob([small], { type: 'image/jpeg' }),
      'rocket.jpg',
      { apiBase: srv.url, token: guestToken, job: 'enlarge' },
      { thumbnail: THUMB, onProgress: (p) => progress.push(p) },
    );
    expect(r).toMatchObject({ filename: 'rocket.jpg', filesize: small.length, w: 640, h: 427, sha256: sha(small) });
    expect(r.uid).toMatch(/\w{8,}/);
    expect(rec.log).toHaveLength(1);
    expect(rec.log[0]).toEqual({
      path: '/web_api/v1/upload',
      fields: {
        user_token: guestToken,
        job: 'enlarge',
        thumbnail: expect.stringMatching(/bytes/),
        file: `<${small.length} bytes>`,
      },
    });
    expect(progress.at(-1)).toBe(100);
  });

  it("sent again with the card's id (a reload cut off the first answer): the first's uid, stored once", async () => {
    const target = { apiBase: srv.url, token: proToken, job: 'compress' };
    const send = () =>
      uploadWhole(new Blob([small], { type: 'image/jpeg' }), 'rocket.jpg', target, { onceKey: 'card-42' });
    const first = await send();
    const again = await send();
    expect(again.uid).toBe(first.uid);
    const p = await srv.ctx.services.tokens.resolve(proToken);
    const rows = await srv.ctx.db.selectFrom('uploads').select('uid').where('account_id', '=', p.accountId).execute();
    expect(rows.filter((r) => r.uid === first.uid)).toHaveLength(1);
    // without the key each send is an upload of its own
    const plain = await uploadWhole(new Blob([small], { type: 'image/jpeg' }), 'rocket.jpg', target);
    expect(plain.uid).not.toBe(first.uid);
  });

  it('a refusal (code 10001) becomes upload:uploadFailed with the server text and the reason as a code', async () => {
    const err = await uploadWhole(new Blob(['not an image']), 'x.jpg', {
      apiBase: srv.url,
      token: guestToken,
      job: 'enlarge',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(err).toMatchObject({
      key: 'upload:uploadFailed',
      code: 10001,
      refusal: { reason: 'unsupported', status: 200 },
    });
    expect(err.serverMsg).toBeTruthy();
  });

  it('no server at all is a network error', async () => {
    const err = await uploadWhole(new Blob([small]), 'r.jpg', {
      apiBase: 'http://127.0.0.1:9',
      token: guestToken,
      job: 'enlarge',
    }).catch((e) => e);
    expect(err).toMatchObject({ key: 'upload:network' });
  });
});

describe('uploadSliced', () => {
  const target = () => ({ apiBase: srv.url, token: proToken, job: 'compress' });

  it('16 MB → 4 slices of 5 MB, numbered 1..4 of 4, one in flight, thumbnail first, uid after', async () => {
    rec = recordFetch();
    const acks: SliceState[] = [];
    const r = await uploadSliced(new Blob([big], { type: 'image/jpeg' }), 'elephants.jpg', target(), {
      thumbnail: THUMB,
      onAck: (s) => void acks.push(s),
    });
    const slices = rec.slices();
    expect(slices.map((s) => [s.fields.blob_num, s.fields.total_blob_num])).toEqual([
      ['1', '4'],
      ['2', '4'],
      ['3', '4'],
      ['4', '4'],
    ]);
    expect(slices.map((s) => s.fields.file)).toEqual(
      [CHUNK_SIZE_BYTES, CHUNK_SIZE_BYTES, CHUNK_SIZE_BYTES, big.length - 3 * CHUNK_SIZE_BYTES].map(
        (n) => `<${n} bytes>`,
      ),
    );
    expect(slices[0].fields.thumbnail).toBeDefined();
    expect(slices[0].fields.uid).toBeUndefined();
    expect(slices.slice(1).every((s) => s.fields.uid === r.uid && s.fields.thumbnail === undefined)).toBe(true);
    expect(
      slices.every(
        (s) => s.fields.name === 'elephants.jpg' && s.fields.job === 'compress' && s.fields.user_token === proToken,
      ),
    ).toBe(true);
    expect(rec.maxInFlight()).toBe(1);
    expect(acks.map((a) => a.acked)).toEqual([[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]]);
    // The server reassembled exactly the original bytes.
    expect(r).toMatchObject({ filesize: big.length, w: 5640, h: 3172, sha256: sha(big) });
  });

  it('a failed slice reports the error; the retry resumes after the last acknowledged slice', async () => {
    rec = recordFetch({ failWhen: (r) => r.fields.blob_num === '3' });
    let state: SliceState | undefined;
    const err = await uploadSliced(new Blob([big]), 'elephants.jpg', target(), {
      thumbnail: THUMB,
      onAck: (s) => void (state = s),
    }).catch((e) => e);
    expect(err).toMatchObject({ key: 'upload:network' });
    expect(state).toMatchObject({ total: 4, acked: [1, 2] });
    expect(await sliceStatus(state!.uid!, target())).toEqual({ total: 4, received: [1, 2] });

    rec.restore();
    rec = recordFetch();
    const r = await uploadSliced(new Blob([big]), 'elephants.jpg', target(), { thumbnail: THUMB, state });
    expect(rec.log.map((l) => l.path)).toEqual([
      '/api/v2/upload_slice/status',
      '/api/v2/upload_slice',
      '/api/v2/upload_slice',
    ]);
    expect(rec.slices().map((s) => s.fields.blob_num)).toEqual(['3', '4']);
    expect(r).toMatchObject({ uid: state!.uid, filesize: big.length, sha256: sha(big) });
  });

  it('an abort (the page closing) stops between slices and the server keeps what it acknowledged', async () => {
    const ctrl = new AbortController();
    let state: SliceState | undefined;
    const err = await uploadSliced(new Blob([big]), 'e.jpg', target(), {
      signal: ctrl.signal,
      onAck: (s) => {
        state = s;
        if (s.acked.length === 1) ctrl.abort(new DOMException('closed', 'AbortError'));
      },
    }).catch((e) => e);
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(await sliceStatus(state!.uid!, target())).toEqual({ total: 4, received: [1] });
    rec = recordFetch();
    const r = await uploadSliced(new Blob([big]), 'e.jpg', target(), { state });
    expect(rec.slices().map((s) => s.fields.blob_num)).toEqual(['2', '3', '4']);
    expect(r.sha256).toBe(sha(big));
  });

  it('an upload the server no longer knows starts over from slice 1', async () => {
    rec = recordFetch();
    const r = await uploadSliced(new Blob([big]), 'e.jpg', target(), {
      state: { uid: 'no-such-upload', total: 4, acked: [1, 2] },
    });
    expect(rec.slices().map((s) => s.fields.blob_num)).toEqual(['1', '2', '3', '4']);
    expect(r.uid).not.toBe('no-such-upload');
  });

  it('the server refuses slices beyond the plan (guest: 5 MB) with upload:uploadFailed', async () => {
    const err = await uploadSliced(new Blob([big]), 'e.jpg', {
      apiBase: srv.url,
      token: guestToken,
      job: 'enlarge',
    }).catch((e) => e);
    expect(err).toMatchObject({ key: 'upload:uploadFailed', code: 10001 });
  });
});
