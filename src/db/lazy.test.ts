// The lazy door on fake-indexeddb: reads before any write must not create the database; a write
// creates it and later reads see what was written.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Work } from '../shared/domain/work.js';
import { getCached, loadWorks, localDatabaseExists, putWorks, resumableUploads, setCached } from './lazy.js';
import { DB_NAME } from './name.js';

const T0 = Date.UTC(2026, 0, 1);
const work: Work = {
  cid: 'a1',
  filename: 'a1.jpg',
  filesize: 1,
  w: 10,
  h: 10,
  status: 'ready',
  selected: false,
  workType: 'enlarge',
  updatedAt: T0,
};
const names = async () => (await indexedDB.databases()).map((d) => d.name);

describe('db/lazy', () => {
  it('answers "nothing stored" without creating the database, then reads what a write stored', async () => {
    expect(await localDatabaseExists()).toBe(false);
    expect(await loadWorks(T0)).toEqual([]);
    expect(await resumableUploads()).toEqual([]);
    expect(await getCached('uploadHistory', 1000, T0)).toBeUndefined();
    await putWorks([], T0);
    await setCached('uploadHistory', [], T0);
    expect(await names()).not.toContain(DB_NAME);

    await putWorks([work], T0);
    expect(await names()).toContain(DB_NAME);
    expect(await localDatabaseExists()).toBe(true);
    expect((await loadWorks(T0 + 1)).map((w) => w.cid)).toEqual(['a1']);
    await setCached('uploadHistory', [1, 2], T0);
    expect(await getCached('uploadHistory', 1000, T0 + 1)).toEqual([1, 2]);
  });
});
