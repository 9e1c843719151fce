// Persistence rules of spec §4 on fake-indexeddb with an injected clock.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_STORAGE_EXPIRY_MS, UPLOADED_CACHE_EXPIRY_MS } from '../shared/domain/constants.js';
import { UPLOAD_INTERRUPTED, WORK_STATUSES, type Work, type WorkStatus } from '../shared/domain/work.js';
import {
  clearAll,
  deleteWorks,
  discardUpload,
  findUploadByFingerprint,
  getCached,
  getOnDeviceChoice,
  getUploadItem,
  loadWorks,
  markUploaded,
  pendingOriginals,
  putDeviceResult,
  putOriginal,
  putRefusedUpload,
  putUploadItem,
  putWorks,
  resumableUploads,
  setCached,
  setOnDeviceChoice,
  updateUploadItem,
  type OriginalRecord,
  type UploadItemRecord,
} from './index.js';

const T0 = Date.UTC(2026, 0, 1);
const work = (cid: string, status: WorkStatus, extra: Partial<Work> = {}): Work => ({
  cid,
  filename: `${cid}.jpg`,
  filesize: 1,
  w: 10,
  h: 10,
  status,
  selected: false,
  workType: 'enlarge',
  updatedAt: T0,
  ...extra,
});
const upload = (cid: string, extra: Partial<UploadItemRecord> = {}): UploadItemRecord => ({
  cid,
  fingerprint: `fp-${cid}`,
  filename: `${cid}.jpg`,
  filesize: 3,
  w: 1,
  h: 1,
  thumbnail: 'data:image/jpeg;base64,',
  mime: 'image/jpeg',
  job: 'enlarge',
  level: 'guest',
  bytes: new Blob([new Uint8Array([1, 2, 3])]),
  totalSlices: 1,
  acked: [],
  uploadStatus: 'ready',
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

beforeEach(() => clearAll());

describe('loadWorks', () => {
  it('puts works that are neither ready nor finished back to ready (they have a uid), started ones aside', async () => {
    const statuses: WorkStatus[] = ['ready', 'waiting', 'processing', 'finished', 'processFailed', 'uploading'];
    await putWorks(
      statuses.map((s, i) => work(`w${i}`, s, { uid: `u${i}` })),
      T0,
    );
    const loaded = await loadWorks(T0 + 1000);
    expect(Object.fromEntries(loaded.map((w) => [w.cid, w.status]))).toEqual({
      w0: 'ready',
      w1: 'waiting',
      w2: 'waiting',
      w3: 'finished',
      w4: 'ready',
      w5: 'ready',
    });
    // started works keep their uid: they go on without a new upload
    expect(loaded.find((w) => w.cid === 'w1')?.uid).toBe('u1');
    // and the reset is stored
    expect((await loadWorks(T0 + 2000)).every((w) => ['ready', 'finished', 'waiting'].includes(w.status))).toBe(true);
  });

  it('started means started (issue 47): a waiting work waits again; one that was being sent asks the server first', async () => {
    await putWorks(
      [
        work('queued', 'waiting', { uid: 'u1', selected: true }),
        work('sending', 'processing', { uid: 'u2', startTime: T0 }),
        work('sent', 'waiting', { uid: 'u3', startSent: true }),
        work('sample', 'processing', { sample: true }),
      ],
      T0,
    );
    const loaded = new Map((await loadWorks(T0 + 1000)).map((w) => [w.cid, w]));
    expect([...loaded.values()].map((w) => [w.cid, w.status, !!w.startSent, w.selected])).toEqual(
      expect.arrayContaining([
        ['queued', 'waiting', false, false],
        ['sending', 'waiting', true, false],
        ['sent', 'waiting', true, false],
        ['sample', 'waiting', false, false],
      ]),
    );
    // stored so: a second reload finds the same
    expect((await loadWorks(T0 + 2000)).find((w) => w.cid === 'sending')?.startSent).toBe(true);
  });

  it('every other status is reset to ready too (spec §4) when the server has the image', async () => {
    const others = WORK_STATUSES.filter(
      (s) => s !== 'ready' && s !== 'finished' && s !== 'waiting' && s !== 'processing',
    );
    await putWorks(
      others.map((s) => work(`n-${s}`, s, { uid: `u-${s}` })),
      T0,
    );
    const loaded = await loadWorks(T0 + 1000);
    expect(Object.fromEntries(loaded.map((w) => [w.cid, w.status]))).toEqual(
      Object.fromEntries(others.map((s) => [`n-${s}`, 'ready'])),
    );
  });

  it('a work neither the server nor this device holds is never ready: interrupted, the file asked for again', async () => {
    const others = WORK_STATUSES.filter((s) => s !== 'finished');
    await putWorks(
      others.map((s) => work(`n-${s}`, s, { selected: s === 'ready' })),
      T0,
    );
    const loaded = await loadWorks(T0 + 1000);
    expect(new Set(loaded.map((w) => w.status))).toEqual(new Set(['uploadFailed']));
    expect(loaded.every((w) => w.uploadError === UPLOAD_INTERRUPTED && !w.selected)).toBe(true);
    // stored so
    expect((await loadWorks(T0 + 2000)).every((w) => w.uploadError === UPLOAD_INTERRUPTED)).toBe(true);
  });

  it('a file cut off while it was resized (its row saved, no upload item yet) comes back interrupted, without a thumbnail and not ready', async () => {
    await putWorks([work('r', 'resizing', { w: 0, h: 0 })], T0);
    const [w] = await loadWorks(T0 + 1000);
    expect([w?.status, w?.uploadError, w?.thumbnail]).toEqual(['uploadFailed', UPLOAD_INTERRUPTED, undefined]);
  });

  it('only an upload this device resumes stays uploading (it ends in ready); the rest ask for the file again', async () => {
    await putWorks(
      [
        work('a', 'uploading'),
        work('b', 'resizing'),
        work('c', 'uploadFailed'),
        work('d', 'waitingForNetwork'),
        work('e', 'uploadFailed', { uploadError: 'upload:network' }),
      ],
      T0,
    );
    await putUploadItem(upload('a', { uploadStatus: 'uploading', totalSlices: 4, acked: [1, 2], uid: 'srv-a' }));
    await putUploadItem(upload('d', { uploadStatus: 'ready' }));
    await putUploadItem(upload('c', { uploadStatus: 'failed' }));
    await putUploadItem(upload('e', { uploadStatus: 'failed' }));
    const loaded = await loadWorks(T0 + 1000);
    expect(Object.fromEntries(loaded.map((w) => [w.cid, [w.status, w.uploadError]]))).toEqual({
      a: ['uploading', undefined],
      b: ['uploadFailed', UPLOAD_INTERRUPTED],
      c: ['uploadFailed', UPLOAD_INTERRUPTED],
      d: ['uploading', undefined],
      // a failed upload keeps its own reason
      e: ['uploadFailed', 'upload:network'],
    });
  });

  it('an upload stored offline without its work row (page gone before the batched save) comes back as a work', async () => {
    await putUploadItem(upload('a', { createdAt: T0 }));
    await putUploadItem(upload('b', { createdAt: T0 + 1, job: 'compress' }));
    const loaded = await loadWorks(T0 + 10);
    expect(loaded.map((w) => [w.cid, w.status, w.workType])).toEqual([
      ['b', 'uploading', 'compress'],
      ['a', 'uploading', 'enlarge'],
    ]);
    expect((await loadWorks(T0 + 20)).map((w) => w.cid).sort()).toEqual(['a', 'b']);
  });

  it('an upload that ended just before a reload (its work saved without the uid) comes back ready with the uid, never interrupted', async () => {
    // a: its row was saved while uploading; b: no row at all; c: saved 'waiting' (started) before the uid was saved
    await putWorks([work('a', 'uploading', { w: 0, h: 0 }), work('c', 'waiting', { selected: true })], T0);
    for (const cid of ['a', 'b', 'c']) {
      await putUploadItem(upload(cid, { createdAt: T0 + (cid === 'b' ? 1 : 0) }));
      await markUploaded(cid, { uid: `uid-${cid}`, filename: `${cid}.jpg`, filesize: 3, w: 40, h: 30 }, T0 + 2);
    }
    const loaded = await loadWorks(T0 + 10);
    expect(Object.fromEntries(loaded.map((w) => [w.cid, [w.status, w.uid, w.w, w.uploadError]]))).toEqual({
      a: ['ready', 'uid-a', 40, undefined],
      b: ['ready', 'uid-b', 40, undefined],
      c: ['waiting', 'uid-c', 40, undefined],
    });
    // the bytes are gone; nothing of it is resumed as an upload
    expect((await getUploadItem('a'))?.bytes.size).toBe(0);
    expect(await resumableUploads()).toEqual([]);
    // and the works were written back: a second load reads the same
    expect((await loadWorks(T0 + 20)).map((w) => [w.cid, w.status]).sort()).toEqual([
      ['a', 'ready'],
      ['b', 'ready'],
      ['c', 'waiting'],
    ]);
  });

  it('a file refused while it was prepared comes back failed with its reason, with no work row or a stale one', async () => {
    // no row: the page went away before the batched save; a stale row: saved while it was still resizing
    await putWorks([work('stale', 'resizing', { selected: true })], T0);
    await putRefusedUpload({
      cid: 'stale',
      filename: 'a.jpg',
      filesize: 9,
      job: 'denoise',
      status: 'uploadFailed',
      error: 'upload:damagedImage',
      createdAt: T0,
    });
    await putRefusedUpload({
      cid: 'norow',
      filename: 'b.jpg',
      filesize: 9,
      job: 'denoise',
      status: 'imageTooLarge',
      error: 'upload:imageTooLarge',
      createdAt: T0 + 1,
    });
    const loaded = await loadWorks(T0 + 10);
    expect(loaded.map((w) => [w.cid, w.status, w.uploadError, w.selected])).toEqual([
      ['norow', 'imageTooLarge', 'upload:imageTooLarge', false],
      ['stale', 'uploadFailed', 'upload:damagedImage', false],
    ]);
    // the same after a second reload, and deleting the cards removes the refusals with them
    expect((await loadWorks(T0 + 20)).map((w) => w.status)).toEqual(['imageTooLarge', 'uploadFailed']);
    await deleteWorks(['stale', 'norow'], T0 + 30);
    expect(await loadWorks(T0 + 40)).toEqual([]);
  });

  it('clears everything when the last update is more than a day old', async () => {
    await putWorks([work('x', 'ready', { uid: 'u' })], T0);
    await putUploadItem(upload('y', { uploadStatus: 'failed' }));
    await setCached('samples', { enlarge: [] }, T0);
    expect(await loadWorks(T0 + LOCAL_STORAGE_EXPIRY_MS)).toHaveLength(1);
    expect(await loadWorks(T0 + LOCAL_STORAGE_EXPIRY_MS + 1)).toEqual([]);
    expect(await getUploadItem('y')).toBeUndefined();
    expect(await getCached('samples', Number.MAX_SAFE_INTEGER, T0 + 1)).toBeUndefined();
    expect(await loadWorks(T0 + 2 * LOCAL_STORAGE_EXPIRY_MS)).toEqual([]);
  });

  it('every write moves the last update', async () => {
    await putWorks([work('x', 'ready', { uid: 'u' })], T0);
    await putWorks([work('x', 'ready', { uid: 'u' })], T0 + LOCAL_STORAGE_EXPIRY_MS);
    expect(await loadWorks(T0 + LOCAL_STORAGE_EXPIRY_MS + 10)).toHaveLength(1);
  });
});

describe('deleteWorks', () => {
  it('removes the works and their upload items', async () => {
    await putWorks([work('a', 'ready'), work('b', 'ready')], T0);
    await putUploadItem(upload('a'));
    await deleteWorks(['a'], T0);
    expect((await loadWorks(T0)).map((w) => w.cid)).toEqual(['b']);
    expect(await getUploadItem('a')).toBeUndefined();
  });
});

describe('caches', () => {
  it('the uploaded-works cache expires after 24 hours', async () => {
    await setCached('uploadHistory', [{ uid: 'u1' }], T0);
    expect(await getCached('uploadHistory', UPLOADED_CACHE_EXPIRY_MS, T0 + UPLOADED_CACHE_EXPIRY_MS)).toEqual([
      { uid: 'u1' },
    ]);
    expect(
      await getCached('uploadHistory', UPLOADED_CACHE_EXPIRY_MS, T0 + UPLOADED_CACHE_EXPIRY_MS + 1),
    ).toBeUndefined();
  });
  it('keys are separate and overwrite', async () => {
    await setCached('samples', 1, T0);
    await setCached('workflows', 2, T0);
    await setCached('workflows', 3, T0);
    expect([await getCached('samples', 1000, T0), await getCached('workflows', 1000, T0)]).toEqual([1, 3]);
  });
});

describe('upload items', () => {
  it('keeps bytes and acknowledged slices; lists the resumable ones in order', async () => {
    await putUploadItem(upload('b', { createdAt: T0 + 2, uploadStatus: 'uploading' }));
    await putUploadItem(upload('a', { createdAt: T0 + 1 }));
    await putUploadItem(upload('f', { uploadStatus: 'failed' }));
    await putUploadItem(upload('s', { uploadStatus: 'success' }));
    await updateUploadItem('b', { uid: 'srv', acked: [1, 2] }, T0 + 5);
    expect((await resumableUploads()).map((u) => u.cid)).toEqual(['a', 'b']);
    const b = await getUploadItem('b');
    expect(b).toMatchObject({ uid: 'srv', acked: [1, 2], updatedAt: T0 + 5 });
    expect(new Uint8Array(await b!.bytes.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect((await findUploadByFingerprint('fp-f'))?.cid).toBe('f');
    expect(await findUploadByFingerprint('fp-s')).toBeUndefined();
  });
});

describe('works kept on this device', () => {
  it('are never resumed as uploads, nor taken over by a re-drop of the same file', async () => {
    await putUploadItem(upload('local', { uploadStatus: 'onDevice' }));
    expect(await resumableUploads()).toEqual([]);
    expect(await findUploadByFingerprint('fp-local')).toBeUndefined();
  });

  it('a run a reload cut short runs again (its image is here), and finished ones come back with their stored result', async () => {
    await putWorks([work('run', 'processing', { onDevice: true }), work('done', 'finished', { onDevice: true })], T0);
    await putUploadItem(upload('run', { uploadStatus: 'onDevice' }));
    await putUploadItem(upload('done', { uploadStatus: 'onDevice' }));
    await putDeviceResult('done', new Blob([new Uint8Array([9, 9])], { type: 'image/png' }), T0);
    const loaded = await loadWorks(T0 + 1000);
    expect(loaded.find((w) => w.cid === 'run')?.status).toBe('waiting');
    const done = loaded.find((w) => w.cid === 'done')!;
    expect(done.status).toBe('finished');
    expect(done.targetImg).toMatch(/^blob:/);
    expect(done.originImg).toMatch(/^blob:/);
    expect((await getUploadItem('done'))?.result?.size).toBe(2);
  });

  it('the choice is remembered, also across the one-day expiry of works', async () => {
    expect(await getOnDeviceChoice()).toBe(false);
    await setOnDeviceChoice(true);
    await clearAll();
    expect(await getOnDeviceChoice()).toBe(true);
    await setOnDeviceChoice(false);
    expect(await getOnDeviceChoice()).toBe(false);
  });
});

describe('picked files stored before they are prepared (issue 47)', () => {
  const original = (cid: string, createdAt = T0): OriginalRecord => ({
    cid,
    file: new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'image/jpeg' }),
    filename: `${cid}.jpg`,
    lastModified: 1,
    job: 'enlarge',
    level: 'pro',
    keep: false,
    createdAt,
  });

  it('a file whose preparation a reload cut off comes back preparing, with or without its work row, in pick order', async () => {
    await putWorks([work('row', 'compressing', { w: 0, h: 0, uploadStartTime: T0 + 2 })], T0);
    await putOriginal(original('row', T0 + 2));
    await putOriginal(original('no-row', T0 + 1));
    const loaded = await loadWorks(T0 + 1000);
    expect(loaded.map((w) => [w.cid, w.status, w.filesize])).toEqual([
      ['row', 'resizing', 1],
      ['no-row', 'resizing', 4],
    ]);
    expect((await pendingOriginals()).map((o) => o.cid)).toEqual(['no-row', 'row']);
  });

  it('the prepared item (or the refusal) replaces the original in one step: never both, never prepared twice', async () => {
    await putOriginal(original('a'));
    await putOriginal(original('b'));
    await putUploadItem(upload('a'));
    await putRefusedUpload({
      cid: 'b',
      filename: 'b.jpg',
      filesize: 4,
      job: 'enlarge',
      status: 'uploadFailed',
      error: 'upload:damagedImage',
      createdAt: T0,
    });
    expect(await pendingOriginals()).toEqual([]);
    const loaded = await loadWorks(T0 + 1000);
    expect(loaded.map((w) => [w.cid, w.status]).sort()).toEqual([
      ['a', 'uploading'],
      ['b', 'uploadFailed'],
    ]);
  });

  it('a file taken back (or deleted) takes its original with it', async () => {
    await putWorks([work('x', 'resizing'), work('y', 'resizing')], T0);
    await putOriginal(original('x'));
    await putOriginal(original('y'));
    await discardUpload('x');
    await deleteWorks(['y']);
    expect(await pendingOriginals()).toEqual([]);
  });
});
