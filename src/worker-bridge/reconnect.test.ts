// An upload tried again the moment the network returns can meet a connection that does not carry yet:
// it waits for the network again instead of failing, and fails only after NETWORK_REPARKS such tries.
// The upload manager on the main-thread fallback against the real server; the token request is what
// fails while the connection is not back (each test gets a fresh manager: the manager is one per page).
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../tests/support/server.js';
import type { UploadEvent } from './index.js';
import { NETWORK_REPARKS } from './networkWait.js';

const jpeg = fs.readFileSync(path.resolve(import.meta.dirname, '../../tests/fixtures/rocket.jpg'));
const nav = globalThis as unknown as { navigator?: { onLine?: boolean } };
let srv: TestServer;
let token: string;
let connectionCarries = false;
const getToken = async () => {
  if (!connectionCarries) throw new TypeError('Failed to fetch');
  return token;
};

beforeAll(async () => {
  srv = await startTestServer();
  token = (await srv.ctx.services.tokens.createGuest()).token;
});
afterAll(async () => {
  Object.defineProperty(globalThis, 'navigator', { value: undefined, configurable: true, writable: true });
  await srv?.stop();
});

/** A fresh manager with one stored upload parked offline; the browser then says it is online again. */
async function parkedThenOnline(cid: string) {
  vi.resetModules();
  const { clearAll, putUploadItem } = await import('../db/index.js');
  const { getUploadManager } = await import('./index.js');
  await clearAll();
  Object.defineProperty(globalThis, 'navigator', { value: { onLine: false }, configurable: true, writable: true });
  const now = Date.now();
  await putUploadItem({
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
    createdAt: now,
    updatedAt: now,
  });
  const events: UploadEvent[] = [];
  const manager = getUploadManager({ getToken, apiBase: srv.url, forceMainThread: true });
  manager.subscribe((e) => events.push(e));
  await manager.resumePending();
  await expect.poll(() => manager.waitingForNetwork()).toEqual([cid]);
  nav.navigator!.onLine = true;
  const statuses = () => events.filter((e) => e.status !== 'uploading').map((e) => e.status);
  return { manager, statuses };
}

describe('an upload back from the park meets a connection that does not carry yet', () => {
  beforeEach(() => {
    connectionCarries = false;
  });

  it('waits for the network again, and goes up once the connection carries', async () => {
    const { manager, statuses } = await parkedThenOnline('reconnect-a');
    manager.retryNow();
    await expect.poll(() => manager.waitingForNetwork()).toEqual(['reconnect-a']);
    expect(statuses()).toEqual(['waitingForNetwork', 'waitingForNetwork']);
    connectionCarries = true;
    manager.retryNow();
    await expect.poll(statuses, { timeout: 30_000 }).toEqual(['waitingForNetwork', 'waitingForNetwork', 'ready']);
  });

  it(`fails with a network error after ${NETWORK_REPARKS} such tries`, async () => {
    const { manager, statuses } = await parkedThenOnline('reconnect-b');
    for (let i = 1; i <= NETWORK_REPARKS; i++) {
      manager.retryNow();
      await expect.poll(() => statuses().length).toBe(1 + i);
      expect(manager.waitingForNetwork()).toEqual(['reconnect-b']);
    }
    manager.retryNow();
    await expect.poll(() => statuses().at(-1)).toBe('uploadFailed');
    expect(statuses()).toEqual([...Array(1 + NETWORK_REPARKS).fill('waitingForNetwork'), 'uploadFailed']);
    expect(manager.waitingForNetwork()).toEqual([]);
  });
});
