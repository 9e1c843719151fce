// A file refused while it is prepared (here a JPEG cut off after 2 KB) is stored with its reason before
// the UI hears of it, so the failed card survives a reload that comes before the works are saved.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearAll, discardUpload, loadWorks } from '../src/db/index.js';
import { prepareUpload, type UploadEvent } from './pipeline.js';

const rocket = fs.readFileSync(path.resolve(import.meta.dirname, '../tests/fixtures/rocket.jpg'));
const cutOff = () => new File([rocket.subarray(0, 2048)], 'cut-off.jpg', { type: 'image/jpeg', lastModified: 1 });

beforeEach(() => clearAll());

describe('prepareUpload of a file it refuses', () => {
  it('stores the refusal before it announces it: a reload at that moment loads the failed work with its reason', async () => {
    const events: UploadEvent[] = [];
    // The page goes away the moment the UI hears of the failure: nothing after the announcement runs.
    const pageGone = new Error('page gone');
    const run = prepareUpload({ cid: 'c1', file: cutOff(), level: 'guest', job: 'denoise', busy: [] }, (e) => {
      events.push(e);
      if (e.status === 'uploadFailed') throw pageGone;
    });
    await expect(run).rejects.toBe(pageGone);
    expect(events.at(-1)).toMatchObject({ cid: 'c1', status: 'uploadFailed', error: 'upload:damagedImage' });
    expect(await loadWorks()).toEqual([
      expect.objectContaining({
        cid: 'c1',
        filename: 'cut-off.jpg',
        filesize: 2048,
        status: 'uploadFailed',
        uploadError: 'upload:damagedImage',
        workType: 'denoise',
        selected: false,
      }),
    ]);
  });

  it('a refusal taken back (cancelled while it was prepared) is gone', async () => {
    await prepareUpload({ cid: 'c2', file: cutOff(), level: 'guest', job: 'denoise', busy: [] }, () => undefined);
    await discardUpload('c2');
    expect(await loadWorks()).toEqual([]);
  });
});
