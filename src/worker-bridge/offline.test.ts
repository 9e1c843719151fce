// The offline queue of the upload manager, on the main-thread fallback against the real
// server: stored items wait while the browser says it is offline, then upload in drop order.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearAll, getUploadItem, putUploadItem, type UploadItemRecord } from '../db/index.js';
import { startTestServer, type TestServer } from '../../tests/support/server.js';
import { getUploadManager, type UploadEvent } from './index.js';

const jpeg = fs.readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/rocket.jpg'));
const nav = globalThis as unknown as { navigator?: { onLine?: boolean } };
let srv: TestServer;
let token: string;

function item(cid: string, createdAt: number): UploadItemRecord {
  return {
    cid,
    fingerprint: `fp-${cid}`,
    filename: `${cid}.jpg`,
    filesize: jpeg.length,
    w: 640,
    h: 427,
    thumbnail: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
    mime: 'image/jpeg',
    job: 'enlarge',
    level: 'guest',
    bytes: new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }),
    totalSlices: 1,
    acked: [],
    uploadStatus: 'ready',
    createdAt,
    updatedAt: createdAt,
  };
}

beforeAll(async () => {
  srv = await startTestServer();
  token = (await srv.ctx.services.tokens.createGuest()).token;
  await clearAll();
});
afterAll(async () => {
  Object.defineProperty(globalThis, 'navigator', { value: undefined, configurable: true, writable: true });
  await srv?.stop();
});

describe('offline queue', () => {
  it('parks stored uploads while offline and sends them in drop order when the network returns', async () => {
    Object.defineProperty(globalThis, 'navigator', { value: { onLine: false }, configurable: true, writable: true });
    const now = Date.now();
    await putUploadItem(item('first', now));
    await putUploadItem(item('second', now + 1));
    const events: UploadEvent[] = [];
    const manager = getUploadManager({ getToken: async () => token, apiBase: srv.url, forceMainThread: true });
    manager.subscribe((e) => events.push(e));
    await manager.resumePending();

    await expect.poll(() => manager.waitingForNetwork()).toEqual(['first', 'second']);
    expect(events.filter((e) => e.status === 'waitingForNetwork').map((e) => e.cid)).toEqual(['first', 'second']);
    // Nothing left the device; the bytes stay stored and resumable.
    expect((await getUploadItem('first'))?.uploadStatus).toBe('ready');

    nav.navigator!.onLine = true;
    const mark = events.length;
    manager.retryNow();
    await expect
      .poll(
        () =>
          events
            .filter((e) => e.status === 'ready')
            .map((e) => e.cid)
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(['first', 'second']);
    // They start in drop order (two whole files may then run side by side).
    expect(events.slice(mark).find((e) => e.status === 'uploading')?.cid).toBe('first');
    expect(manager.waitingForNetwork()).toEqual([]);
    // the bytes are dropped; what the server answered stays (markUploaded)
    expect(await getUploadItem('first')).toMatchObject({
      uploadStatus: 'success',
      uid: expect.any(String),
      bytes: { size: 0 },
    });
  });
});
