// @vitest-environment jsdom
// The works store on fake IndexedDB: selection caps by level, tabs, persistence through src/db.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAll, loadWorks } from '../db/index.js';
import type { Work } from '../shared/domain/work.js';
import { useWorks } from './works.js';

const work = (cid: string, patch: Partial<Work> = {}): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w: 10,
  h: 10,
  status: 'ready',
  selected: false,
  workType: 'denoise',
  updatedAt: Date.now(),
  ...patch,
});

beforeEach(async () => {
  await clearAll();
  useWorks.setState({ works: [], progress: {}, loaded: false, tab: 'uploaded', successCount: 0 });
});

describe('works store', () => {
  it('add puts new works first and replaces a work with the same cid', () => {
    useWorks.getState().add([work('a')]);
    useWorks.getState().add([work('b'), work('a', { filename: 'again.jpg' })]);
    expect(useWorks.getState().works.map((w) => [w.cid, w.filename])).toEqual([
      ['b', 'b.jpg'],
      ['a', 'again.jpg'],
    ]);
  });

  it('a guest selects one work at a time; basic up to five', () => {
    useWorks.getState().add(['a', 'b', 'c', 'd', 'e', 'f'].map((c) => work(c)));
    const { toggleSelect } = useWorks.getState();
    expect(toggleSelect('a', 'guest')).toBe(true);
    expect(toggleSelect('b', 'guest')).toBe(false);
    useWorks.getState().clearSelection();
    useWorks.getState().selectAll('uploaded', 'basic');
    expect(useWorks.getState().works.filter((w) => w.selected)).toHaveLength(5);
  });

  it('opening the Processed tab resets the success counter (spec §2)', () => {
    useWorks.getState().bumpSuccess();
    useWorks.getState().bumpSuccess();
    expect(useWorks.getState().successCount).toBe(2);
    useWorks.getState().setTab('processed');
    expect(useWorks.getState().successCount).toBe(0);
    expect(localStorage.getItem('pixmill.successCount')).toBe('0');
  });

  it('persists changes to IndexedDB once loaded, and loads them back', async () => {
    await useWorks.getState().load();
    useWorks.getState().add([work('kept', { status: 'finished', transId: 't1' })]);
    await vi.waitFor(async () => expect((await loadWorks()).map((w) => w.cid)).toEqual(['kept']), { timeout: 3000 });
    useWorks.setState({ works: [], loaded: false });
    await useWorks.getState().load();
    expect(useWorks.getState().works).toEqual([
      expect.objectContaining({ cid: 'kept', transId: 't1', status: 'finished' }),
    ]);
  });

  it('remove drops works from the list and from IndexedDB', async () => {
    await useWorks.getState().load();
    useWorks.getState().add([work('x'), work('y')]);
    await vi.waitFor(async () => expect(await loadWorks()).toHaveLength(2), { timeout: 3000 });
    useWorks.getState().remove(['x']);
    expect(useWorks.getState().works.map((w) => w.cid)).toEqual(['y']);
    await vi.waitFor(async () => expect((await loadWorks()).map((w) => w.cid)).toEqual(['y']), { timeout: 3000 });
  });
});
