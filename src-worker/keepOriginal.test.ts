// A picked file is stored before it is prepared, within its share of the browser's quota (issue 47
// point 4); one that is not kept is said so on its card (the bridge's notKept event).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAll, pendingOriginals } from '../src/db/index.js';
import { ORIGINALS_QUOTA_SHARE } from '../src/shared/domain/keptOnDevice.js';
import { keepOriginal } from './pipeline.js';

const MB = 1024 * 1024;
const record = (cid: string, bytes: number) => ({
  cid,
  file: new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }),
  filename: `${cid}.jpg`,
  lastModified: 1,
  job: 'denoise',
  level: 'pro' as const,
  keep: false,
  createdAt: Date.now(),
});

/** What the browser's StorageManager reports (node has none: the estimate a browser would give). */
function browserReports(estimate: { usage: number; quota: number } | 'refuses') {
  vi.stubGlobal('navigator', {
    storage: {
      estimate: () => (estimate === 'refuses' ? Promise.reject(new Error('no estimate')) : Promise.resolve(estimate)),
    },
  });
}

beforeEach(() => clearAll());
afterEach(() => vi.unstubAllGlobals());

describe('keepOriginal', () => {
  it('stores the picked file while the usage with it stays under the share of the quota', async () => {
    browserReports({ usage: 0, quota: 100 * MB });
    expect(await keepOriginal(record('fits', 2 * MB))).toBe(true);
    expect((await pendingOriginals()).map((o) => [o.cid, o.file.size])).toEqual([['fits', 2 * MB]]);
  });

  it('keeps nothing over the share: the caller is told, and nothing is stored', async () => {
    browserReports({ usage: 100 * MB * ORIGINALS_QUOTA_SHARE - MB, quota: 100 * MB });
    expect(await keepOriginal(record('over', 2 * MB))).toBe(false);
    expect(await pendingOriginals()).toEqual([]);
  });

  it('without an estimate the browser decides (here it stores)', async () => {
    browserReports('refuses');
    expect(await keepOriginal(record('unknown', MB))).toBe(true);
  });
});
