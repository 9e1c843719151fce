/**
 * Local persistence (IndexedDB through Dexie; the only module that imports dexie): works, upload items
 * with their bytes and acknowledged slices, files refused while they were prepared, cached lists. Rules of spec §4: stale works go back to ready,
 * everything is dropped when the last update is over a day old, caches carry their own age.
 */
import Dexie, { type Table } from 'dexie';
import { LOCAL_STORAGE_EXPIRY_MS } from '../shared/domain/constants.js';
import type { Level } from '../shared/domain/plans.js';
import { UPLOAD_INTERRUPTED, type UploadStatus, type Work } from '../shared/domain/work.js';
import { DB_NAME } from './name.js';
import { asksServer, newestFirst } from '../shared/domain/tabs.js';

export type CacheKey = 'samples' | 'workflows' | 'uploadHistory';

/** An upload on its way: the fitted bytes stay here until the server has them all, for resume. */
export interface UploadItemRecord {
  cid: string;
  /** original name|size|lastModified|job|level: finds the item again when the same file is dropped again */
  fingerprint: string;
  filename: string;
  filesize: number;
  w: number;
  h: number;
  thumbnail: string;
  mime: string;
  job: string;
  level: Level;
  bytes: Blob;
  uid?: string;
  totalSlices: number;
  acked: number[];
  uploadStatus: UploadStatus;
  error?: string;
  /** the on-device result of a work kept on this device (uploadStatus 'onDevice') */
  result?: Blob;
  createdAt: number;
  updatedAt: number;
}

/**
 * A file refused while it was prepared (damaged or cut off, too large, not an image): nothing to upload
 * is kept, only why. The pipeline stores it before it announces the failure, so the failed card comes
 * back after a reload even when the page went away before the works were saved (they are saved in
 * batches, and a refused file has no upload item to show it again).
 */
export interface RefusedUploadRecord {
  cid: string;
  filename: string;
  /** bytes of the dropped file */
  filesize: number;
  job: string;
  status: Extract<Work['status'], 'uploadFailed' | 'imageTooLarge'>;
  /** i18n key of the reason (the work's uploadError) */
  error: string;
  createdAt: number;
}

/**
 * A picked file as it was picked, stored before anything else happens to it (issue 47): a reload, a
 * closed tab or a crash while it is prepared (resized, recompressed) prepares it again on the next
 * load. It goes in the same transaction that stores the prepared upload item or the refusal.
 */
export interface OriginalRecord {
  cid: string;
  file: Blob;
  filename: string;
  lastModified: number;
  job: string;
  level: Level;
  /** "Process on this device": prepared for the device, never uploaded */
  keep: boolean;
  createdAt: number;
}

interface CacheRecord {
  key: CacheKey;
  value: unknown;
  savedAt: number;
}

interface MetaRecord {
  key: 'lastUpdate' | 'onDeviceChoice';
  value: number;
}

class PixmillDb extends Dexie {
  works!: Table<Work, string>;
  uploads!: Table<UploadItemRecord, string>;
  refused!: Table<RefusedUploadRecord, string>;
  originals!: Table<OriginalRecord, string>;
  cache!: Table<CacheRecord, CacheKey>;
  meta!: Table<MetaRecord, string>;

  constructor() {
    super(DB_NAME);
    // Bump the version and add an upgrade when a stored shape changes.
    this.version(1).stores({
      works: 'cid, status, workType, updatedAt',
      uploads: 'cid, fingerprint, uploadStatus, updatedAt',
      cache: 'key',
      meta: 'key',
    });
    this.version(2).stores({ refused: 'cid' });
    this.version(3).stores({ originals: 'cid, createdAt' });
  }
}

let db: PixmillDb | undefined;
function getDb(): PixmillDb {
  db ??= new PixmillDb();
  return db;
}

async function touch(now: number): Promise<void> {
  await getDb().meta.put({ key: 'lastUpdate', value: now });
}

/** Upload items that can still finish: never for ones that succeeded or failed. */
const RESUMABLE: readonly UploadStatus[] = ['ready', 'uploading'];

/**
 * Spec §4 on load: works neither ready nor finished are reset to ready (after the server was asked
 * about the ones it holds a job for, see asksServer) — waiting, processing, failed,
 * refused or cut off while resizing alike. The one exception is an upload this device still holds and
 * resumes (bridge resumePending): it shows 'uploading' and ends in ready when the server has it. A
 * work neither the server nor this device holds (its preparation cut off) is never ready: it shows
 * failed, 'upload:interrupted', and asks for the file again.
 */
export async function loadWorks(now: number = Date.now()): Promise<Work[]> {
  const d = getDb();
  const last = await d.meta.get('lastUpdate');
  if (last && now - last.value > LOCAL_STORAGE_EXPIRY_MS) {
    await clearAll();
    return [];
  }
  const [works, uploads, refused, originalRows] = await Promise.all([
    d.works.toArray(),
    d.uploads.toArray(),
    d.refused.toArray(),
    d.originals.toArray(),
  ]);
  const resumable = new Set(uploads.filter((u) => RESUMABLE.includes(u.uploadStatus)).map((u) => u.cid));
  // Files picked and not yet prepared: prepared again on this load (src/worker-bridge resumePending).
  const preparing = new Map(originalRows.filter((o) => !refused.some((r) => r.cid === o.cid)).map((o) => [o.cid, o]));
  const local = new Map(uploads.filter((u) => u.uploadStatus === 'onDevice').map((u) => [u.cid, u]));
  const refusedBy = new Map(refused.map((r) => [r.cid, r]));
  // Uploads the server has (markUploaded): a work saved before its upload ended takes its uid from here.
  const uploaded = new Map(uploads.filter((u) => u.uploadStatus === 'success' && u.uid).map((u) => [u.cid, u]));
  const changed: Work[] = [];
  const out = works.map((saved) => {
    const u = saved.uid ? undefined : uploaded.get(saved.cid);
    const w = u ? withUpload(saved, u) : saved;
    const next = loadedWork(w);
    if (next === w && w !== saved) changed.push(w);
    return next;
  });
  function loadedWork(w: Work): Work {
    if (w.status === 'finished') return w;
    // A work the server was given (a trans_id) is asked about before the reset applies:
    // it shows as processing until the server answers (src/stores/processing.ts reconcileStored).
    if (asksServer(w)) {
      if (w.status === 'processing') return w;
      const next = { ...w, status: 'processing' as const, selected: false };
      changed.push(next);
      return next;
    }
    // A file refused while it was prepared stays failed with its reason, whatever its row last said
    // (a row saved while it was still resizing would otherwise turn ready and ask for the file again).
    const r = refusedBy.get(w.cid);
    if (r) {
      if (w.status === r.status && w.uploadError === r.error && !w.selected) return w;
      const next = { ...w, status: r.status, uploadError: r.error, selected: false };
      changed.push(next);
      return next;
    }
    // A work whose preparation was cut off (the page went away while the file was resized; nothing
    // of it stored: no upload item, never on the server) cannot be started: it says so and asks for
    // the file again (the card's "Choose the file again"), instead of a "Ready" card without a
    // thumbnail whose start fails. An upload this device holds resumes (below).
    // A picked file whose preparation a reload cut off is prepared again from its stored original.
    if (!w.uid && preparing.has(w.cid) && !resumable.has(w.cid) && !local.has(w.cid)) {
      if (w.status === 'resizing') return w;
      const next = { ...w, status: 'resizing' as const, selected: false };
      changed.push(next);
      return next;
    }
    if (
      !w.uid &&
      !w.sample &&
      !resumable.has(w.cid) &&
      !local.has(w.cid) &&
      !(w.status === 'uploadFailed' && w.uploadError)
    ) {
      if (w.status === 'imageTooLarge' && w.uploadError) return w;
      const next = { ...w, status: 'uploadFailed' as const, uploadError: UPLOAD_INTERRUPTED, selected: false };
      changed.push(next);
      return next;
    }
    // Started means started (issue 47): a work the user started goes on after a reload. One not sent yet
    // waits its turn again; one that was being sent asks the server's record first (startSent).
    const resumed = resumeStarted(w, local.has(w.cid));
    if (resumed) {
      if (resumed === w) return w;
      changed.push(resumed);
      return resumed;
    }
    if (w.status === 'ready') return w;
    // An upload that failed with a reason and never reached the server stays failed: reset
    // to ready it would only ask for the file again when started.
    if (
      (w.status === 'uploadFailed' || w.status === 'imageTooLarge') &&
      !w.uid &&
      !w.onDevice &&
      w.uploadError &&
      !resumable.has(w.cid)
    )
      return w;
    // Spec §4: back to ready; an upload this device resumes shows 'uploading' (on-device works have their bytes here: ready).
    const status: Work['status'] = !w.uid && !w.onDevice && resumable.has(w.cid) ? 'uploading' : 'ready';
    if (status === w.status) return w;
    const next = { ...w, status };
    changed.push(next);
    return next;
  }
  // An upload stored a moment before the page went away may have no work row yet (works are saved
  // in batches): the stored item is enough to show it again, in drop order, newest first. So is the
  // record of a file refused while it was prepared: it comes back failed, with its reason.
  const known = new Set(works.map((w) => w.cid));
  const orphans: Work[] = [
    ...[...uploaded.values()].filter((u) => !known.has(u.cid)).map((u) => withUpload(workOfItem(u), u)),
    ...uploads.filter((u) => RESUMABLE.includes(u.uploadStatus) && !known.has(u.cid)).map(workOfItem),
    ...[...preparing.values()]
      .filter((o) => !known.has(o.cid))
      .map((o): Work => ({
        cid: o.cid,
        filename: o.filename,
        filesize: o.file.size,
        w: 0,
        h: 0,
        status: 'resizing',
        selected: false,
        workType: o.job,
        ...(o.keep ? { onDevice: true } : {}),
        uploadStartTime: o.createdAt,
        updatedAt: o.createdAt,
      })),
    ...refused
      .filter((r) => !known.has(r.cid))
      .map((r): Work => ({
        cid: r.cid,
        filename: r.filename,
        filesize: r.filesize,
        w: 0,
        h: 0,
        status: r.status,
        uploadError: r.error,
        selected: false,
        workType: r.job,
        uploadStartTime: r.createdAt,
        updatedAt: r.createdAt,
      })),
  ].sort((a, b) => (b.uploadStartTime ?? 0) - (a.uploadStartTime ?? 0));
  if (changed.length || orphans.length) await d.works.bulkPut([...changed, ...orphans]);
  // Works processed on this device show their stored images (object URLs live as long as the page).
  const withImages = out.map((w) => {
    const u = w.onDevice ? local.get(w.cid) : undefined;
    if (!u) return w;
    const originImg = URL.createObjectURL(u.bytes);
    return u.result ? { ...w, originImg, targetImg: URL.createObjectURL(u.result) } : { ...w, originImg };
  });
  // Newest first, as the session showed them (the table's own order is by client id, which is random).
  return newestFirst([...orphans, ...withImages]);
}

/** The card of a stored upload item that has no work row (saved in batches, the page went away first). */
function workOfItem(u: UploadItemRecord): Work {
  return {
    cid: u.cid,
    filename: u.filename,
    filesize: u.filesize,
    w: u.w,
    h: u.h,
    thumbnail: u.thumbnail,
    status: 'uploading',
    selected: false,
    workType: u.job,
    uploadStartTime: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/** A work whose upload the server has (markUploaded): its uid and size, ready unless it was started. */
function withUpload(w: Work, u: UploadItemRecord): Work {
  const started = w.status === 'waiting' || w.status === 'processing';
  return {
    ...w,
    uid: u.uid,
    filename: u.filename,
    filesize: u.filesize,
    w: u.w,
    h: u.h,
    thumbnail: w.thumbnail || u.thumbnail,
    status: started ? w.status : 'ready',
    uploadError: undefined,
  };
}

/**
 * A started work on load: 'waiting' again when it can go on (a sample, an upload the server holds, an
 * on-device work whose image this device holds); undefined when it was not started or cannot go on (its
 * image is gone: the spec's reset applies, and a work with no image left anywhere says it was
 * interrupted and asks for the file again). A work the server took (a trans_id) is asked about
 * instead (asksServer), before this.
 */
function resumeStarted(w: Work, holdsImage: boolean): Work | undefined {
  if (w.status !== 'waiting' && w.status !== 'processing') return undefined;
  if (w.transId && !w.sample && !w.onDevice) return undefined;
  const canGoOn = w.sample || (w.onDevice ? holdsImage : !!w.uid);
  if (!canGoOn) return undefined;
  // 'processing' without a trans_id: the start was on its way to the server (or ran on this device).
  const startSent = !w.sample && !w.onDevice && (w.startSent === true || w.status === 'processing');
  if (w.status === 'waiting' && !!w.startSent === startSent && !w.selected) return w;
  return { ...w, status: 'waiting', selected: false, startSent };
}

export async function putWorks(works: Work[], now: number = Date.now()): Promise<void> {
  await getDb().transaction('rw', getDb().works, getDb().meta, async () => {
    await getDb().works.bulkPut(works);
    await touch(now);
  });
}

export async function deleteWorks(cids: string[], now: number = Date.now()): Promise<void> {
  const d = getDb();
  await d.transaction('rw', [d.works, d.uploads, d.refused, d.originals, d.meta], async () => {
    await d.works.bulkDelete(cids);
    await d.uploads.bulkDelete(cids);
    await d.refused.bulkDelete(cids);
    await d.originals.bulkDelete(cids);
    await touch(now);
  });
}

/** A cached list younger than `maxAgeMs` (e.g. UPLOADED_CACHE_EXPIRY_MS for upload history). */
export async function getCached<T>(key: CacheKey, maxAgeMs: number, now: number = Date.now()): Promise<T | undefined> {
  const rec = await getDb().cache.get(key);
  if (!rec || now - rec.savedAt > maxAgeMs) return undefined;
  return rec.value as T;
}

export async function setCached(key: CacheKey, value: unknown, now: number = Date.now()): Promise<void> {
  await getDb().cache.put({ key, value, savedAt: now });
  await touch(now);
}

// ——— upload items (used by the upload pipeline) ———

/** Stores a prepared upload; the picked file's original goes in the same transaction (never both, never neither). */
export async function putUploadItem(item: UploadItemRecord): Promise<void> {
  const d = getDb();
  await d.transaction('rw', [d.uploads, d.originals, d.meta], async () => {
    await d.uploads.put(item);
    await d.originals.delete(item.cid);
    await touch(item.updatedAt);
  });
}

/** Stores a picked file before it is prepared (OriginalRecord); rejects when the browser refuses (quota). */
export async function putOriginal(record: OriginalRecord): Promise<void> {
  await getDb().originals.put(record);
  await touch(record.createdAt);
}

/** Picked files whose preparation has not ended (a reload cut it off), oldest first. */
export async function pendingOriginals(): Promise<OriginalRecord[]> {
  const d = getDb();
  const [originals, refused] = await Promise.all([d.originals.orderBy('createdAt').toArray(), d.refused.toArray()]);
  return originals.filter((o) => !refused.some((r) => r.cid === o.cid));
}

export async function updateUploadItem(
  cid: string,
  changes: Partial<Omit<UploadItemRecord, 'cid'>>,
  now: number = Date.now(),
): Promise<void> {
  await getDb().uploads.update(cid, { ...changes, updatedAt: now });
  await touch(now);
}

export async function getUploadItem(cid: string): Promise<UploadItemRecord | undefined> {
  return getDb().uploads.get(cid);
}

export async function deleteUploadItem(cid: string): Promise<void> {
  await getDb().uploads.delete(cid);
}

/**
 * The server has the upload: its bytes are dropped and a small record of it (uploadStatus 'success',
 * the server's uid, size and thumbnail) is kept until the work goes. A reload a moment after the upload
 * ended, before the works list was saved with the uid (it is saved in batches), finds the work's uid
 * here on load instead of calling the upload interrupted (src/db loadWorks).
 */
export async function markUploaded(
  cid: string,
  done: { uid: string; filename: string; filesize: number; w: number; h: number },
  now: number = Date.now(),
): Promise<void> {
  await getDb().uploads.update(cid, {
    ...done,
    uploadStatus: 'success',
    bytes: new Blob([]),
    acked: [],
    updatedAt: now,
  });
  await touch(now);
}

/** A file the user took back (cancelled while it was prepared or uploaded): its item or refusal goes. */
export async function discardUpload(cid: string): Promise<void> {
  await getDb().transaction('rw', [getDb().uploads, getDb().refused, getDb().originals], async () => {
    await getDb().uploads.delete(cid);
    await getDb().refused.delete(cid);
    await getDb().originals.delete(cid);
  });
}

/** The newest unfinished or failed upload of the same file, to resume instead of starting over. */
export async function findUploadByFingerprint(fingerprint: string): Promise<UploadItemRecord | undefined> {
  const items = await getDb().uploads.where('fingerprint').equals(fingerprint).toArray();
  return items
    .filter((i) => i.uploadStatus !== 'success' && i.uploadStatus !== 'onDevice')
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
}

/** Stored by the pipeline before it announces a file it refused while preparing (see RefusedUploadRecord). */
export async function putRefusedUpload(record: RefusedUploadRecord): Promise<void> {
  const d = getDb();
  await d.transaction('rw', [d.refused, d.originals, d.meta], async () => {
    await d.refused.put(record);
    await d.originals.delete(record.cid);
    await touch(record.createdAt);
  });
}

/** Keeps the result of a work processed on this device beside its source bytes. */
export async function putDeviceResult(cid: string, result: Blob, now: number = Date.now()): Promise<void> {
  await getDb().uploads.update(cid, { result, updatedAt: now });
  await touch(now);
}

/** "Process on this device" (remembered across visits; the one-day expiry of works keeps it). */
export async function getOnDeviceChoice(): Promise<boolean> {
  return (await getDb().meta.get('onDeviceChoice'))?.value === 1;
}

export async function setOnDeviceChoice(on: boolean): Promise<void> {
  await getDb().meta.put({ key: 'onDeviceChoice', value: on ? 1 : 0 });
}

/** Uploads interrupted by a reload (they were queued or in flight). */
export async function resumableUploads(): Promise<UploadItemRecord[]> {
  const items = await getDb()
    .uploads.where('uploadStatus')
    .anyOf(RESUMABLE as UploadStatus[])
    .toArray();
  return items.sort((a, b) => a.createdAt - b.createdAt);
}

/** Drops every table (spec §4 one-day expiry; tests). */
export async function clearAll(): Promise<void> {
  const d = getDb();
  await d.transaction('rw', [d.works, d.uploads, d.refused, d.originals, d.cache, d.meta], async () => {
    await Promise.all([
      d.works.clear(),
      d.uploads.clear(),
      d.refused.clear(),
      d.originals.clear(),
      d.cache.clear(),
      d.meta.delete('lastUpdate'),
    ]);
  });
}
