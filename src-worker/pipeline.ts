/**
 * One upload from dropped file to server uid: validate → decode (EXIF-oriented) → fit the plan →
 * thumbnail → stored in IndexedDB → uploaded whole or in slices, acknowledged slices stored as they
 * come so a reload or a retry resumes. Runs in the worker (or on the main thread as a fallback).
 */
import { limitsFor, type Level } from '../src/shared/domain/plans.js';
import type { UploadRefusalInfo } from '../src/shared/domain/uploadRefusals.js';
import type { WorkStatus } from '../src/shared/domain/work.js';
import {
  deleteUploadItem,
  markUploaded,
  findUploadByFingerprint,
  getUploadItem,
  putOriginal,
  putRefusedUpload,
  putUploadItem,
  type OriginalRecord,
  updateUploadItem,
  type UploadItemRecord,
} from '../src/db/index.js';
import { originalFits } from '../src/shared/domain/keptOnDevice.js';
import { canvasOps, decodeForFit, makeThumbnail } from './canvasOps.js';
import { fitToPlan, renameForMime } from './fitPlan.js';
import { UploadError, needsSlicing, sliceCount, uploadSliced, uploadWhole } from './uploader.js';
import { tooLargeToOpen, validateFile } from './validate.js';

/** What the UI hears about one upload (the bridge's UploadEvent). */
export interface UploadEvent {
  cid: string;
  status: WorkStatus;
  /** 0..1, the fraction of bytes the server acknowledged */
  progress?: number;
  uid?: string;
  filename?: string;
  filesize?: number;
  w?: number;
  h?: number;
  thumbnail?: string;
  /** i18n key of a failure the client judged (validation, fit, network) */
  error?: string;
  /** the browser would not store the picked file (storage full or refused): it does not survive a reload until uploaded */
  notKept?: boolean;
  /** the server refused the upload: its code, its text, the reason's code and the HTTP status (translated by src/shared/domain/uploadRefusals) */
  refusal?: UploadRefusalInfo;
}
export type Emit = (e: UploadEvent) => void;

export interface PrepareRequest {
  cid: string;
  file: File;
  level: Level;
  job: string;
  /** cids still queued or uploading on this page: their items are not taken over by a re-drop */
  busy: string[];
  /** kept on this device for on-device processing: stored as 'onDevice' (never resumed as an upload), announced ready */
  keep?: boolean;
}

/**
 * Stores a picked file before anything else happens to it (src/db OriginalRecord), within the share
 * of the browser's quota that originals may take (src/shared/domain/keptOnDevice.ts). False when it
 * is not stored: over the share, or the browser refused the write (quota, private mode).
 */
export async function keepOriginal(record: OriginalRecord): Promise<boolean> {
  const storage = (globalThis as { navigator?: { storage?: { estimate?: () => Promise<StorageEstimate> } } }).navigator
    ?.storage;
  const estimate = await storage?.estimate?.().catch(() => undefined);
  if (!originalFits(record.file.size, estimate)) return false;
  try {
    await putOriginal(record);
    return true;
  } catch {
    return false;
  }
}

export function fingerprintOf(file: File, job: string, level: Level): string {
  return [file.name, file.size, file.lastModified, job, level].join('|');
}

export type Prepared = { ok: true; bytes: number; sliced: boolean; resumed: boolean } | { ok: false };

export async function prepareUpload(req: PrepareRequest, emit: Emit): Promise<Prepared> {
  const { cid, file, level, job } = req;
  const fingerprint = fingerprintOf(file, job, level);
  // A work kept on the device is never a resumed upload (and never takes over another work's bytes).
  const earlier = req.keep ? undefined : await findUploadByFingerprint(fingerprint);
  if (earlier && !req.busy.includes(earlier.cid)) {
    // The same file again (a retry): keep its fitted bytes and acknowledged slices under the new cid.
    await putUploadItem({ ...earlier, cid, uploadStatus: 'ready', error: undefined, updatedAt: Date.now() });
    await deleteUploadItem(earlier.cid);
    emit(announce(cid, earlier));
    return { ok: true, bytes: earlier.bytes.size, sliced: needsSlicing(earlier.bytes.size), resumed: true };
  }

  // A refusal is stored before it is announced: the failed card outlives a reload that comes before
  // the works are saved (src/db RefusedUploadRecord).
  const refuse = async (
    status: 'uploadFailed' | 'imageTooLarge',
    filename: string,
    error: string,
  ): Promise<Prepared> => {
    await putRefusedUpload({ cid, filename, filesize: file.size, job, status, error, createdAt: Date.now() }).catch(
      () => undefined,
    );
    emit({ cid, status, filename, error });
    return { ok: false };
  };
  const valid = await validateFile(file);
  if (!valid.ok) return refuse('uploadFailed', valid.filename, valid.error);
  // A header that declares more pixels than we open is too large, not damaged (the decode would fail on it).
  if (await tooLargeToOpen(file)) return refuse('imageTooLarge', valid.filename, 'upload:sourceTooLarge');
  let bitmap: ImageBitmap;
  let srcW: number, srcH: number;
  try {
    ({ img: bitmap, w: srcW, h: srcH } = await decodeForFit(file, limitsFor(level), job));
  } catch {
    // A JPEG or PNG by its signature that does not decode: damaged or cut off, not a wrong type.
    return refuse('uploadFailed', valid.filename, 'upload:damagedImage');
  }
  const fit = await fitToPlan(
    { blob: file, mime: valid.mime, img: bitmap, w: srcW, h: srcH },
    limitsFor(level),
    job,
    canvasOps,
    (status) => emit({ cid, status, filename: valid.filename, filesize: file.size }),
  );
  if (!fit.ok) {
    bitmap.close();
    return refuse(fit.error === 'upload:imageTooLarge' ? 'imageTooLarge' : 'uploadFailed', valid.filename, fit.error);
  }
  const thumbnail = await makeThumbnail(fit.img);
  if ('close' in fit.img) fit.img.close();
  const now = Date.now();
  const item: UploadItemRecord = {
    cid,
    fingerprint,
    filename: renameForMime(valid.filename, fit.mime),
    filesize: fit.blob.size,
    w: fit.w,
    h: fit.h,
    thumbnail,
    mime: fit.mime,
    job,
    level,
    bytes: fit.blob,
    totalSlices: sliceCount(fit.blob.size),
    acked: [],
    uploadStatus: req.keep ? 'onDevice' : 'ready',
    createdAt: now,
    updatedAt: now,
  };
  await putUploadItem(item);
  emit(req.keep ? { ...announce(cid, item), status: 'ready', progress: undefined } : announce(cid, item));
  return { ok: true, bytes: fit.blob.size, sliced: needsSlicing(fit.blob.size), resumed: false };
}

function announce(cid: string, item: UploadItemRecord): UploadEvent {
  const progress = item.acked.length / item.totalSlices;
  return {
    cid,
    status: 'uploading',
    progress,
    filename: item.filename,
    filesize: item.filesize,
    w: item.w,
    h: item.h,
    thumbnail: item.thumbnail,
  };
}

export interface UploadTargetBase {
  apiBase: string;
  token: string;
}

const controllers = new Map<string, AbortController>();

/** Aborts the upload of `cid` if it is running here. */
export function abortUpload(cid: string): void {
  controllers.get(cid)?.abort(new DOMException('Upload cancelled', 'AbortError'));
}

/** The browser says there is no network (node and old browsers: assumed online). */
const isOffline = (): boolean => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

/**
 * Uploads a stored item; resolves when it is done, failed, cancelled or parked offline (never throws).
 * `parkOnNetworkError`: a network failure parks it even though the browser says it is online (an upload
 * tried again the moment the network came back, before the connection really carries).
 */
export async function runUpload(
  cid: string,
  base: UploadTargetBase,
  emit: Emit,
  parkOnNetworkError = false,
): Promise<'done' | 'failed' | 'cancelled' | 'offline'> {
  const item = await getUploadItem(cid);
  if (!item) return 'cancelled';
  const ctrl = new AbortController();
  controllers.set(cid, ctrl);
  const target = { ...base, job: item.job };
  let lastPct = -1;
  const onProgress = (p: number) => {
    const pct = Math.floor(p);
    if (pct === lastPct) return;
    lastPct = pct;
    emit({ cid, status: 'uploading', progress: pct / 100 });
  };
  try {
    await updateUploadItem(cid, { uploadStatus: 'uploading' });
    const uploaded = needsSlicing(item.bytes.size)
      ? await uploadSliced(item.bytes, item.filename, target, {
          signal: ctrl.signal,
          thumbnail: item.thumbnail,
          state: { uid: item.uid, total: item.totalSlices, acked: item.acked },
          onAck: (s) => updateUploadItem(cid, { uid: s.uid, acked: s.acked }),
          onProgress,
        })
      : await uploadWhole(item.bytes, item.filename, target, {
          signal: ctrl.signal,
          thumbnail: item.thumbnail,
          onProgress,
          onceKey: cid,
        });
    // The server has the image now: the local bytes go, a record of the upload stays (markUploaded).
    const done = {
      uid: uploaded.uid,
      filename: uploaded.filename || item.filename,
      filesize: uploaded.filesize || item.filesize,
      w: uploaded.w || item.w,
      h: uploaded.h || item.h,
    };
    await markUploaded(cid, done);
    emit({ cid, status: 'ready', progress: 1, ...done, thumbnail: item.thumbnail });
    return 'done';
  } catch (e) {
    if (ctrl.signal.aborted) {
      await deleteUploadItem(cid);
      return 'cancelled';
    }
    const key = e instanceof UploadError ? e.key : 'upload:unknown';
    if (key === 'upload:network' && (isOffline() || parkOnNetworkError)) {
      // The connection went away mid-upload (or is not back yet): the item waits (acknowledged slices kept) for the network.
      await updateUploadItem(cid, { uploadStatus: 'ready' });
      emit({ cid, status: 'waitingForNetwork' });
      return 'offline';
    }
    // An answer with a code is the server's refusal: its reason travels to the dialog.
    const refusal: UploadRefusalInfo | undefined =
      e instanceof UploadError && e.code !== undefined
        ? {
            code: e.code,
            msg: e.serverMsg ?? '',
            ...(e.refusal?.reason ? { reason: e.refusal.reason } : {}),
            ...(e.refusal?.status ? { status: e.refusal.status } : {}),
          }
        : undefined;
    // Kept with its acknowledged slices: dropping the same file again resumes from there.
    await updateUploadItem(cid, { uploadStatus: 'failed', error: key });
    emit({ cid, status: 'uploadFailed', error: key, ...(refusal ? { refusal, filename: item.filename } : {}) });
    return 'failed';
  } finally {
    controllers.delete(cid);
  }
}
