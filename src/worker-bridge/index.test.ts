// The upload manager on the main-thread fallback (node has no Worker): batch limits, per-file
// refusals, and resumePending() finishing an upload stored before a "reload", against the real server.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clearAll, getUploadItem, putUploadItem, type UploadItemRecord } from '../db/index.js';
import { startTestServer, type TestServer } from '../../tests/support/server.js';
import { recordFetch } from '../../tests/support/recordingFetch.js';
import { getUploadManager, type UploadEvent, type UploadManager } from './index.js';

const fixtures = path.resolve(import.meta.dirname, '../../tests/fixtures');
const jpeg = fs.readFileSync(path.join(fixtures, 'rocket.jpg'));
const file = (name: string, bytes: Uint8Array | string = jpeg, type = 'image/jpeg') =>
  new File([bytes as BlobPart], name, { type });

let srv: TestServer;
let proToken: string;
let manager: UploadManager;
const events: UploadEvent[] = [];

beforeAll(async () => {
  srv = await startTestServer();
  const pro = await srv.ctx.services.accounts.register({
    email: 'pro-bridge@example.com',
    password: 'abcd1234',
    confirm_password: 'abcd1234',
  });
  await srv.ctx.services.accounts.setPlan(pro.id, 'pro');
  proToken = await srv.ctx.services.tokens.userTokenFor(pro.id);
  await clearAll();
  // The token is read per upload: tests switch it between a guest and a pro account.
  manager = getUploadManager({ getToken: async () => current, apiBase: srv.url });
  manager.subscribe((e) => events.push(e));
});
afterAll(async () => {
  // The cancelled upload leaves a keep-alive socket of node's fetch open (72 s timeout): close it now.
  srv?.app.server.closeAllConnections();
  await srv?.stop();
});

let current = '';
const ctx = { level: 'guest' as const, job: 'enlarge', queued: 0, perTypeCount: 0 };

describe('UploadManager.add', () => {
  it('falls back to the main thread where no worker can start', async () => {
    expect(await manager.runtime()).toBe('main');
  });

  it('a guest dropping several keeps the first and names the rest; other batch refusals refuse every file', async () => {
    const r = await manager.add([file('a.jpg'), file('b.jpg'), file('c.jpg')], ctx);
    expect(r.accepted.map((a) => a.filename)).toEqual(['a.jpg']);
    expect(r.rejected).toEqual([
      { filename: 'b.jpg', error: 'upload:firstKept' },
      { filename: 'c.jpg', error: 'upload:firstKept' },
    ]);
    expect(r.error).toBe('upload:onlyPaidMultiple');
    manager.cancel(r.accepted[0]!.cid);
    // With no room for even one (the guest's compress allowance used up) nothing is kept.
    const none = await manager.add([file('a.jpg'), file('b.jpg')], { ...ctx, job: 'compress', perTypeCount: 5 });
    expect(none.accepted).toEqual([]);
    expect(none.error).toBe('upload:onlyPaidMultiple');
    const many = Array.from({ length: 21 }, (_, i) => file(`${i}.jpg`));
    expect((await manager.add(many, { ...ctx, level: 'pro' })).error).toBe('upload:tooManyFiles');
    expect((await manager.add([file('a.jpg')], { ...ctx, queued: 5 })).error).toBe('upload:queueFull');
  });

  it('refuses bad files one by one with the validation keys', async () => {
    const r = await manager.add(
      [file('x.txt', 'hello', 'text/plain'), file('y.gif', 'GIF89a', 'image/gif'), file('z.png', 'nope', 'image/png')],
      { ...ctx, level: 'pro' },
    );
    expect(r).toEqual({
      accepted: [],
      rejected: [
        { filename: 'x.txt', error: 'upload:onlyJpgPng' },
        { filename: 'y.gif', error: 'upload:unsupportedFormat' },
        { filename: 'z.png', error: 'upload:invalidFileType' },
      ],
    });
  });

  it('a picked file the browser would not keep (its quota share is used) is taken, and its card is told (issue 47)', async () => {
    const kept = await manager.add([file('kept.jpg')], { ...ctx, level: 'pro' });
    const cid = kept.accepted[0]!.cid;
    manager.cancel(cid);
    // The browser's estimate leaves no room: the file is still taken, and its card is told.
    vi.stubGlobal('navigator', { storage: { estimate: async () => ({ usage: 99, quota: 100 }) } });
    try {
      const full = await manager.add([file('full.jpg')], { ...ctx, level: 'pro' });
      const fullCid = full.accepted[0]!.cid;
      expect(events.some((e) => e.cid === fullCid && e.notKept)).toBe(true);
      expect(events.some((e) => e.cid === cid && e.notKept)).toBe(false);
      manager.cancel(fullCid);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('compress above the plan limit is refused with fileTooLarge before any work', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(jpeg.subarray(0, 16));
    const r = await manager.add([file('big file.jpg', big)], { ...ctx, job: 'compress' });
    expect(r).toEqual({ accepted: [], rejected: [{ filename: 'big file.jpg', error: 'upload:fileTooLarge' }] });
  });
});

function stored(cid: string, bytes: Buffer, extra: Partial<UploadItemRecord>): UploadItemRecord {
  const now = Date.now();
  return {
    cid,
    fingerprint: `fp-${cid}`,
    filename: 'rocket.jpg',
    filesize: bytes.length,
    w: 640,
    h: 427,
    thumbnail: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    mime: 'image/jpeg',
    job: 'enlarge',
    level: 'pro',
    bytes: new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }),
    totalSlices: 1,
    acked: [],
    uploadStatus: 'uploading',
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}

describe('UploadManager.resumePending + cancel', () => {
  it('uploads what a reload interrupted; a cancelled upload stops between slices and says nothing more', async () => {
    current = proToken;
    const big = fs.readFileSync(path.join(fixtures, 'elephants-5640x3172.jpg'));
    await putUploadItem(stored('before-reload', jpeg, {}));
    for (const n of [1, 2, 3]) await putUploadItem(stored(`queued-${n}`, jpeg, { uploadStatus: 'ready' }));
    await putUploadItem(
      stored('to-cancel', big, {
        filename: 'elephants.jpg',
        w: 5640,
        h: 3172,
        job: 'compress',
        totalSlices: 4,
        uploadStatus: 'ready',
      }),
    );
    const rec = recordFetch();
    await manager.resumePending();

    // The whole-file lane finishes the small one.
    await expect
      .poll(() => events.find((e) => e.cid === 'before-reload' && e.status === 'ready'), { timeout: 30_000 })
      .toBeTruthy();
    const mine = events.filter((e) => e.cid === 'before-reload');
    expect(mine[0]).toMatchObject({ status: 'uploading', filename: 'rocket.jpg', w: 640, h: 427 });
    expect(mine.at(-1)).toMatchObject({ status: 'ready', w: 640, h: 427, progress: 1 });
    expect(mine.at(-1)!.uid).toBeTruthy();
    // the bytes are dropped; what the server answered stays (markUploaded)
    expect(await getUploadItem('before-reload')).toMatchObject({
      uploadStatus: 'success',
      uid: expect.any(String),
      bytes: { size: 0 },
    });
    // Spec §9: two whole files in flight at most (four were waiting).
    await expect
      .poll(() => events.filter((e) => e.cid.startsWith('queued-') && e.status === 'ready').length, { timeout: 30_000 })
      .toBe(3);
    expect(rec.maxInFlightFor('/web_api/v1/upload')).toBe(2);

    // The slice lane: cancel once the first slice is acknowledged.
    const big$ = () => events.filter((e) => e.cid === 'to-cancel');
    await expect.poll(() => big$().some((e) => (e.progress ?? 0) >= 0.25), { timeout: 60_000 }).toBe(true);
    manager.cancel('to-cancel');
    const heard = big$().length;
    await expect.poll(() => getUploadItem('to-cancel'), { timeout: 30_000 }).toBeUndefined();
    expect(big$().length).toBe(heard);
    expect(big$().some((e) => e.status === 'ready')).toBe(false);
    expect(rec.maxInFlightFor('/api/v2/upload_slice')).toBe(1);
    rec.restore();
  });
});
