// The stored-upload pipeline (IndexedDB on fake-indexeddb + the real server): a failed sliced upload
// keeps its acknowledged slices, and dropping the same file again resumes without decoding it again.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clearAll, getUploadItem, putUploadItem, type UploadItemRecord } from '../src/db/index.js';
import { startTestServer, type TestServer } from '../tests/support/server.js';
import { fingerprintOf, prepareUpload, runUpload, type UploadEvent } from './pipeline.js';
import { recordFetch } from '../tests/support/recordingFetch.js';
import { sliceCount } from './uploader.js';

const fixtures = path.resolve(import.meta.dirname, '../tests/fixtures');
const big = fs.readFileSync(path.join(fixtures, 'elephants-5640x3172.jpg'));
const small = fs.readFileSync(path.join(fixtures, 'rocket.jpg'));

let srv: TestServer;
let proToken: string;
beforeAll(async () => {
  srv = await startTestServer();
  const pro = await srv.ctx.services.accounts.register({
    email: 'pro-pipeline@example.com',
    password: 'abcd1234',
    confirm_password: 'abcd1234',
  });
  await srv.ctx.services.accounts.setPlan(pro.id, 'pro');
  proToken = await srv.ctx.services.tokens.userTokenFor(pro.id);
  await clearAll();
});
afterAll(() => srv?.stop());
let rec: ReturnType<typeof recordFetch> | undefined;
afterEach(() => rec?.restore());

function item(cid: string, file: File, job: string): UploadItemRecord {
  return {
    cid,
    fingerprint: fingerprintOf(file, job, 'pro'),
    filename: file.name,
    filesize: file.size,
    w: 0,
    h: 0,
    thumbnail: `data:image/jpeg;base64,${small.toString('base64')}`,
    mime: 'image/jpeg',
    job,
    level: 'pro',
    bytes: file,
    totalSlices: sliceCount(file.size),
    acked: [],
    uploadStatus: 'ready',
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
}

describe('runUpload + prepareUpload', () => {
  it('whole file: ready with the server uid, local bytes dropped', async () => {
    const file = new File([small], 'rocket.jpg', { type: 'image/jpeg', lastModified: 1 });
    await putUploadItem(item('small-1', file, 'enlarge'));
    const events: UploadEvent[] = [];
    expect(await runUpload('small-1', { apiBase: srv.url, token: proToken }, (e) => events.push(e))).toBe('done');
    expect(events.at(-1)).toMatchObject({
      cid: 'small-1',
      status: 'ready',
      progress: 1,
      w: 640,
      h: 427,
      filename: 'rocket.jpg',
    });
    expect(events.at(-1)?.uid).toBeTruthy();
    // the bytes are dropped; what the server answered stays (markUploaded)
    expect(await getUploadItem('small-1')).toMatchObject({
      uploadStatus: 'success',
      uid: expect.any(String),
      bytes: { size: 0 },
    });
  });

  it('a failed slice drops the file with the error; the same file again resumes from slice 3', async () => {
    const file = new File([big], 'elephants.jpg', { type: 'image/jpeg', lastModified: 42 });
    await putUploadItem(item('big-1', file, 'compress'));
    rec = recordFetch({ failWhen: (r) => r.fields.blob_num === '3' });
    const events: UploadEvent[] = [];
    expect(await runUpload('big-1', { apiBase: srv.url, token: proToken }, (e) => events.push(e))).toBe('failed');
    expect(events.at(-1)).toEqual({ cid: 'big-1', status: 'uploadFailed', error: 'upload:network' });
    expect(events.filter((e) => e.status === 'uploading').map((e) => e.progress)).toContain(0.5);
    const failed = await getUploadItem('big-1');
    expect(failed).toMatchObject({ uploadStatus: 'failed', acked: [1, 2], error: 'upload:network' });
    rec.restore();

    // Dropped again: found by fingerprint, no decode (node has no createImageBitmap), moved to the new cid.
    const again: UploadEvent[] = [];
    const prepared = await prepareUpload({ cid: 'big-2', file, level: 'pro', job: 'compress', busy: [] }, (e) =>
      again.push(e),
    );
    expect(prepared).toEqual({ ok: true, bytes: big.length, sliced: true, resumed: true });
    expect(again).toEqual([
      expect.objectContaining({ cid: 'big-2', status: 'uploading', progress: 0.5, filename: 'elephants.jpg' }),
    ]);
    expect(await getUploadItem('big-1')).toBeUndefined();

    rec = recordFetch();
    const done: UploadEvent[] = [];
    expect(await runUpload('big-2', { apiBase: srv.url, token: proToken }, (e) => done.push(e))).toBe('done');
    expect(rec.slices().map((s) => s.fields.blob_num)).toEqual(['3', '4']);
    expect(done.at(-1)).toMatchObject({
      cid: 'big-2',
      status: 'ready',
      uid: failed!.uid,
      filesize: big.length,
      w: 5640,
      h: 3172,
    });
  });

  it("a server refusal carries the server's code, text and reason's code to the UI (guest: compress files up to 5 MB)", async () => {
    const { token: guestToken } = await srv.ctx.services.tokens.createGuest();
    const file = new File([big], 'elephants.jpg', { type: 'image/jpeg', lastModified: 7 });
    await putUploadItem(item('refused-1', file, 'compress'));
    const events: UploadEvent[] = [];
    expect(await runUpload('refused-1', { apiBase: srv.url, token: guestToken }, (e) => events.push(e))).toBe('failed');
    expect(events.at(-1)).toEqual({
      cid: 'refused-1',
      status: 'uploadFailed',
      error: 'upload:uploadFailed',
      filename: 'elephants.jpg',
      refusal: { code: 10001, msg: 'Your file is too large', reason: 'fileTooLarge', status: 413 },
    });
  });
});
