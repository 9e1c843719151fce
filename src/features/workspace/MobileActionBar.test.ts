import { describe, expect, it } from 'vitest';
import type { Work } from '../../shared/domain/work.js';
import { barDownloadTarget } from './MobileActionBar.js';

const w = (cid: string, extra: Partial<Work> = {}): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w: 1,
  h: 1,
  status: 'finished',
  selected: false,
  workType: 'denoise',
  updatedAt: 0,
  ...extra,
});

describe('barDownloadTarget (the phone bar on Processed)', () => {
  it('several results chosen for download: all of them, as Download selected does', () => {
    const t = barDownloadTarget([w('a', { checked: true }), w('b'), w('c', { checked: true })]);
    expect(t && 'chosen' in t ? t.chosen.map((x) => x.cid) : t).toEqual(['a', 'c']);
  });
  it('one chosen: that one, even when it is not the newest', () => {
    expect(barDownloadTarget([w('old', { checked: true, endTime: 1 }), w('new', { endTime: 2 })])).toEqual({
      one: expect.objectContaining({ cid: 'old' }),
    });
  });
  it('none chosen: the newest result; nothing finished: nothing', () => {
    expect(
      barDownloadTarget([
        w('old', { endTime: 1 }),
        w('new', { endTime: 2 }),
        w('fail', { status: 'processFailed', endTime: 3 }),
      ]),
    ).toEqual({ one: expect.objectContaining({ cid: 'new' }) });
    expect(barDownloadTarget([w('r', { status: 'ready' })])).toBeUndefined();
  });
});
