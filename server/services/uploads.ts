/**
 * Uploads (spec §5, §7): whole files, 5 MB slices with resume, uploads by URL, the 24-hour list,
 * delete, and the bytes behind download/src and thumbnail. Every uid belongs to one account.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHUNK_SIZE_BYTES, UPLOAD_LIST_LIMIT, UPLOADED_CACHE_EXPIRY_MS } from '../../src/domain/constants.js';
import type { UploadHistoryEntry } from '../../src/domain/work.js';
import { notFound, paramError } from '../errors.js';
import {
  clientThumbnail,
  extOf,
  IMAGE_TEXT,
  ImageRefused,
  sniffFormat,
  thumbnailOf,
  validateImage,
  type ImageFormat,
  type Thumbnail,
} from '../repositories/imageRepository.js';
import { fetchRemoteImage, RemoteRefused } from '../repositories/remoteImage.js';
import type { Upload } from '../repositories/schema.js';
import * as repo from '../repositories/uploadRepository.js';
import { checkUploadQuota } from './uploadQuota.js';
import { expiredError } from './retention.js';
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

/** Compress jobs may send bigger images than the level's resolution limit; this caps the decoder anyway. */
export const COMPRESS_MAX_PIXELS = 100_000_000;
const FILENAME_MAX = 120;
const URL_FETCH_TIMEOUT_MS = 20_000;
/** Compress uploads are not held to the level's side limit, only to this (and COMPRESS_MAX_PIXELS). */
const COMPRESS_MAX_SIDE = 30_000;
/** How long a concurrent copy of the last slice waits for the one request that assembles. */
const ASSEMBLY_WAIT_MS = 120_000;
const ASSEMBLY_POLL_MS = 50;

export const UPLOAD_TEXT = {
  fileTooLarge: 'Your file is too large',
  fileRequired: 'file is required',
  badJob: 'job is invalid',
  slicesNumbers: 'blob_num and total_blob_num must be integers with 1 ≤ blob_num ≤ total_blob_num',
  sliceTotalMismatch: 'total_blob_num does not match this upload',
  sliceTooLarge: 'A slice may be at most 5 MB',
  sliceNeedsUid: 'uid is required for every slice after the first',
  sliceEmpty: 'The slice is empty.',
  sliceRefused: 'The upload was refused; please send the file again.',
  expired: 'This image has expired and was deleted.',
} as const;

export interface UploadView {
  uid: string;
  filename: string;
  filesize: number;
  w: number;
  h: number;
  format: ImageFormat;
  job: string;
  /** URL of the 80×80 thumbnail; authorised by the user_token/guest_token cookie or a user_token param */
  thumbnail: string;
  sha256: string;
}

export interface SliceView extends Partial<UploadView> {
  uid: string;
  blob_num: number;
  total_blob_num: number;
  received: number[];
  done: boolean;
}

/** One row of upload/list: the spec's upload history entry (x, y = w, h of the working copy, after auto-orientation). */
export type UploadListEntry = UploadHistoryEntry;

/** Spec §5: special characters → '_'; no path parts; length-capped; extension matching the real format. */
export function sanitizeFilename(raw: string, format?: ImageFormat): string {
  const base = String(raw ?? '').split(/[\\/]/).pop() ?? '';
  let name = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._\- ()]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  const dot = name.lastIndexOf('.');
  let stem = dot > 0 ? name.slice(0, dot) : name;
  let ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (format) {
    const fits = format === 'jpeg' ? ext === 'jpg' || ext === 'jpeg' : ext === 'png';
    if (!fits) {
      if (ext && !/^[a-z0-9]{1,5}$/.test(ext)) stem = name;
      ext = extOf(format);
    }
  }
  stem = stem.replace(/\.+$/, '') || 'image';
  const tail = ext ? '.' + ext : '';
  stem = Array.from(stem).slice(0, FILENAME_MAX - tail.length).join('');
  name = stem + tail;
  return name;
}

const JOB_SHAPE = /^[a-z0-9_-]{0,40}$/;

const thumbUrl = (uid: string) => `/web_api/v1/thumbnail?uid=${encodeURIComponent(uid)}`;

/** Key of a slice stored before migration 005, when slice blobs were addressed by uid and slice number. */
function legacyChunkKey(uid: string, blobNum: number): string {
  const h = createHash('sha256').update(`${uid}:${blobNum}`).digest('hex');
  return `chunks/${h.slice(0, 2)}/${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function refusal(e: unknown): never {
  if (e instanceof ImageRefused || e instanceof RemoteRefused) throw paramError(e.message);
  throw e;
}

export class UploadService {
  constructor(private readonly deps: Deps) {}

  /** Byte, pixel and side limits of spec §6 for this caller and job. */
  limitsFor(p: Principal, job: string): { maxBytes: number; maxPixels: number; maxSide: number } {
    return job === 'compress'
      ? { maxBytes: p.limits.compressMaxBytes, maxPixels: COMPRESS_MAX_PIXELS, maxSide: COMPRESS_MAX_SIDE }
      : { maxBytes: p.limits.maxFileBytes, maxPixels: Math.floor(p.limits.maxMegapixels * 1e6), maxSide: p.limits.maxSidePx };
  }

  private checkJob(job: string | undefined): string {
    const j = (job ?? '').trim();
    if (!JOB_SHAPE.test(j)) throw paramError(UPLOAD_TEXT.badJob);
    return j;
  }

  /** POST /web_api/v1/upload. */
  async uploadWhole(p: Principal, input: { file?: Buffer; filename: string; thumbnail?: Buffer; job?: string; sourceUrl?: string }): Promise<UploadView> {
    const job = this.checkJob(input.job);
    if (!input.file) throw paramError(UPLOAD_TEXT.fileRequired);
    const limits = this.limitsFor(p, job);
    if (input.file.length > limits.maxBytes) throw paramError(UPLOAD_TEXT.fileTooLarge);
    const size = input.file.length;
    // Checked before the costly decode, and again under the account lock with the insert.
    await checkUploadQuota(this.deps.db, p, { newUpload: true, bytes: size });
    const uid = randomUUID();
    const stored = await this.store(input.file, limits, await clientThumbnail(input.thumbnail));
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await checkUploadQuota(trx, p, { newUpload: true, bytes: size, lock: true });
        await repo.insertUpload(trx, {
          uid,
          account_id: p.accountId,
          filename: sanitizeFilename(input.filename, stored.format),
          filesize: size,
          w: stored.w,
          h: stored.h,
          format: stored.format,
          job,
          blob_key: stored.blob_key,
          original_key: stored.original_key,
          sha256: stored.sha256,
          thumb_key: stored.thumb_key,
          status: 'ready',
          total_blob_num: 1,
          received_bytes: size,
          source_url: input.sourceUrl ?? null,
          created_at: Date.now(),
          deleted_at: null,
        });
      });
    } catch (e) {
      await this.removeBlobs([stored.blob_key, stored.original_key, stored.thumb_key]);
      throw e;
    }
    return this.view(await this.owned(p.accountId, uid));
  }

  /** Validates the bytes and writes original, working copy and thumbnail blobs. */
  private async store(original: Buffer, limits: { maxPixels: number; maxSide: number }, thumb: Thumbnail | null, thumbKey?: string | null) {
    const image = await validateImage(original, limits.maxPixels, limits.maxSide).catch(refusal);
    const blobs = this.deps.blobs;
    const ext = extOf(image.format);
    const originalKey = blobs.newKey('originals', ext);
    const blobKey = image.workingIsOriginal ? originalKey : blobs.newKey('uploads', ext);
    const written: string[] = [];
    try {
      await blobs.write(originalKey, original);
      written.push(originalKey);
      if (blobKey !== originalKey) {
        await blobs.write(blobKey, image.working);
        written.push(blobKey);
      }
      if (!thumbKey) {
        const t = thumb ?? (await thumbnailOf(image));
        thumbKey = blobs.newKey('thumbs', extOf(t.format));
        await blobs.write(thumbKey, t.data);
        written.push(thumbKey);
      }
    } catch (e) {
      await this.removeBlobs(written);
      refusal(e);
    }
    const sha256 = createHash('sha256').update(original).digest('hex');
    return { format: image.format, w: image.w, h: image.h, filesize: original.length, original_key: originalKey, blob_key: blobKey, thumb_key: thumbKey, sha256 };
  }

  /**
   * POST /api/v2/upload_slice: one slice of at most 5 MB; the last one completes the upload.
   * Safe to repeat and to send concurrently: each copy of a slice is written to a key of its own and
   * recorded once; exactly one request assembles (a DB claim), and every copy of the last slice
   * answers with the finished upload.
   */
  async receiveSlice(
    p: Principal,
    input: { uid?: string; blobNum: unknown; totalBlobNum: unknown; name?: string; chunk?: Buffer; thumbnail?: Buffer; job?: string },
  ): Promise<SliceView> {
    const blobNum = Number(input.blobNum);
    const total = Number(input.totalBlobNum);
    if (!Number.isInteger(blobNum) || !Number.isInteger(total) || blobNum < 1 || total < 1 || blobNum > total || String(input.blobNum ?? '').trim() === '')
      throw paramError(UPLOAD_TEXT.slicesNumbers);
    const chunk = input.chunk;
    if (!chunk) throw paramError(UPLOAD_TEXT.fileRequired);
    if (chunk.length === 0) throw paramError(UPLOAD_TEXT.sliceEmpty);
    if (chunk.length > CHUNK_SIZE_BYTES) throw paramError(UPLOAD_TEXT.sliceTooLarge);

    let row: Upload;
    if (!input.uid) {
      if (blobNum !== 1) throw paramError(UPLOAD_TEXT.sliceNeedsUid);
      row = await this.startSliced(p, input.name ?? '', this.checkJob(input.job), total, chunk, input.thumbnail);
    } else {
      row = await this.owned(p.accountId, String(input.uid), true);
      if (row.total_blob_num !== total) throw paramError(UPLOAD_TEXT.sliceTotalMismatch);
    }
    const uid = row.uid;
    if (row.status === 'receiving') await this.keepSlice(p, row, blobNum, chunk);
    const received = (await repo.chunksOf(this.deps.db, uid)).map((c) => c.blob_num);
    if (row.status === 'receiving' && received.length === total) await this.assemble(p, uid);
    const fresh = await this.settled(p.accountId, uid);
    const done = fresh.status === 'ready';
    return { ...(done ? this.view(fresh) : {}), uid, blob_num: blobNum, total_blob_num: total, received, done };
  }

  /** The first slice: checks the declared size and the magic bytes, then creates the upload (status receiving). */
  private async startSliced(p: Principal, name: string, job: string, total: number, chunk: Buffer, thumbnail: Buffer | undefined): Promise<Upload> {
    const { maxBytes } = this.limitsFor(p, job);
    if (total > Math.ceil(maxBytes / CHUNK_SIZE_BYTES)) throw paramError(UPLOAD_TEXT.fileTooLarge);
    const format = sniffFormat(chunk);
    if (!format) throw paramError(IMAGE_TEXT.unsupported);
    await checkUploadQuota(this.deps.db, p, { newUpload: true, bytes: chunk.length });
    const thumb = await clientThumbnail(thumbnail);
    let thumbKey: string | null = null;
    if (thumb) {
      thumbKey = this.deps.blobs.newKey('thumbs', extOf(thumb.format));
      await this.deps.blobs.write(thumbKey, thumb.data);
    }
    const uid = randomUUID();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await checkUploadQuota(trx, p, { newUpload: true, bytes: chunk.length, lock: true });
        await repo.insertUpload(trx, {
          uid,
          account_id: p.accountId,
          filename: sanitizeFilename(name, format),
          filesize: 0,
          w: 0,
          h: 0,
          format,
          job,
          blob_key: null,
          original_key: null,
          sha256: null,
          thumb_key: thumbKey,
          status: 'receiving',
          total_blob_num: total,
          received_bytes: 0,
          source_url: null,
          created_at: Date.now(),
          deleted_at: null,
        });
      });
    } catch (e) {
      await this.removeBlobs([thumbKey]);
      throw e;
    }
    return this.owned(p.accountId, uid, true);
  }

  /** Stores one slice unless already held; the byte limit and the storage quota count it. */
  private async keepSlice(p: Principal, row: Upload, blobNum: number, chunk: Buffer): Promise<void> {
    const db = this.deps.db;
    if (await repo.findChunk(db, row.uid, blobNum)) return;
    if (row.received_bytes + chunk.length > this.limitsFor(p, row.job).maxBytes) {
      await this.abandon(row);
      throw paramError(UPLOAD_TEXT.fileTooLarge);
    }
    const key = this.deps.blobs.newKey('chunks');
    await this.deps.blobs.write(key, chunk);
    let kept = false;
    try {
      kept = await db.transaction().execute(async (trx) => {
        await checkUploadQuota(trx, p, { newUpload: false, bytes: chunk.length, lock: true });
        return repo.insertChunk(trx, row.uid, blobNum, chunk.length, key, Date.now());
      });
    } finally {
      // A concurrent copy of this slice was recorded first (or the quota refused): this copy is not needed.
      if (!kept) await this.removeBlobs([key]);
    }
  }

  /** Reassembles the slices in order and validates the whole like a single upload; only the request that claims it does. */
  private async assemble(p: Principal, uid: string): Promise<void> {
    const db = this.deps.db;
    if (!(await repo.claimAssembly(db, uid))) return;
    const row = await this.owned(p.accountId, uid, true);
    try {
      const parts: Buffer[] = [];
      for (const key of await this.chunkKeys(row)) parts.push(await this.deps.blobs.read(key));
      const original = Buffer.concat(parts);
      const limits = this.limitsFor(p, row.job);
      if (original.length > limits.maxBytes) throw paramError(UPLOAD_TEXT.fileTooLarge);
      const stored = await this.store(original, limits, null, row.thumb_key);
      await repo.markReady(db, uid, stored);
      await this.removeBlobs(await this.chunkKeys(row));
    } catch (e) {
      await this.abandon(row);
      throw e;
    }
  }

  /** The upload once no request is assembling it (waits for the one that is); a dropped upload is a refusal. */
  private async settled(accountId: number, uid: string): Promise<Upload> {
    const until = Date.now() + ASSEMBLY_WAIT_MS;
    for (;;) {
      const row = await repo.findOwnedUpload(this.deps.db, accountId, uid, { withDeleted: true });
      if (!row || row.deleted_at !== null) throw paramError(UPLOAD_TEXT.sliceRefused);
      if (row.status !== 'assembling' || Date.now() > until) return row;
      await sleep(ASSEMBLY_POLL_MS);
    }
  }

  private async chunkKeys(row: Upload): Promise<string[]> {
    return (await repo.chunksOf(this.deps.db, row.uid)).map((c) => c.blob_key ?? legacyChunkKey(row.uid, c.blob_num));
  }

  /** A refused sliced upload is dropped whole (spec: a failed chunk drops that file from the queue). */
  private async abandon(row: Upload): Promise<void> {
    await repo.markDeleted(this.deps.db, [row.uid], Date.now());
    await this.removeBlobs([row.thumb_key, ...(await this.chunkKeys(row))]);
  }

  /** Sliced uploads never finished within a day (or stuck by a crash mid-assembly) are dropped; run by retention. */
  async dropUnfinished(now = Date.now()): Promise<number> {
    let dropped = 0;
    for (;;) {
      const stale = await repo.unfinishedBefore(this.deps.db, now - UPLOADED_CACHE_EXPIRY_MS, 100);
      for (const row of stale) await this.abandon(row);
      dropped += stale.length;
      if (stale.length < 100) return dropped;
    }
  }

  /** POST /api/v2/upload_slice/status: which slices the server holds, to resume after the last one. */
  async sliceStatus(p: Principal, uid: string | undefined): Promise<{ uid: string; total_blob_num: number; received: number[]; done: boolean; status: string }> {
    const row = await this.owned(p.accountId, String(uid ?? ''), true);
    const received = (await repo.chunksOf(this.deps.db, row.uid)).map((c) => c.blob_num);
    return { uid: row.uid, total_blob_num: row.total_blob_num, received, done: row.status === 'ready', status: row.status };
  }

  /** POST /api/job_utils/upload_url: fetched server-side, then validated like any upload. */
  async uploadFromUrl(p: Principal, url: string | undefined, type: string | undefined): Promise<UploadView> {
    const job = this.checkJob(type);
    if (!url || typeof url !== 'string') throw paramError('url is required');
    await checkUploadQuota(this.deps.db, p, { newUpload: true, bytes: 0 });
    const { maxBytes } = this.limitsFor(p, job);
    const remote = await fetchRemoteImage(url.trim(), {
      maxBytes,
      timeoutMs: URL_FETCH_TIMEOUT_MS,
      allowPrivate: this.deps.config.allowPrivateUrls,
    }).catch(refusal);
    return this.uploadWhole(p, { file: remote.data, filename: remote.name, job, sourceUrl: url.slice(0, 2000) });
  }

  /** POST /web_api/v1/upload/list: ready uploads of the last 24 hours, newest first. */
  async list(p: Principal, limitRaw: unknown): Promise<UploadListEntry[]> {
    const limit = limitRaw === undefined || limitRaw === '' ? UPLOAD_LIST_LIMIT : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > UPLOAD_LIST_LIMIT) throw paramError(`limit must be an integer from 1 to ${UPLOAD_LIST_LIMIT}`);
    const rows = await repo.listReady(this.deps.db, p.accountId, Date.now() - UPLOADED_CACHE_EXPIRY_MS, limit);
    return rows.map((r) => ({ uid: r.uid, name: r.filename, file_size: r.filesize, thumbnail: thumbUrl(r.uid), w: r.w, h: r.h, x: r.w, y: r.h }));
  }

  /**
   * POST /web_api/v1/upload/delete. All ids must be the caller's, else nothing is deleted.
   * Blobs go at once unless a work still refers to the upload (its preview "before" image); those go with retention.
   */
  async remove(p: Principal, uids: string[]): Promise<{ deleted: number }> {
    if (uids.length === 0) throw paramError();
    const db = this.deps.db;
    const rows = await repo.liveOwned(db, p.accountId, uids);
    if (rows.length !== new Set(uids).size) throw paramError();
    await repo.markDeleted(db, uids, Date.now(), p.accountId);
    const used = await repo.usedByWorks(db, uids);
    for (const r of rows) if (!used.has(r.uid)) await this.removeBlobs([...this.blobsOf(r), ...(await this.chunkKeys(r))]);
    return { deleted: rows.length };
  }

  /** The blobs of a stored upload: working copy, original and thumbnail. */
  blobsOf(r: Upload): (string | null)[] {
    return [r.blob_key, r.original_key, r.thumb_key];
  }

  /** The caller's ready upload (an expired one answers so); not found also for another account's uid. For jobs and downloads. */
  async readyUpload(accountId: number, uid: string): Promise<Upload & { blob_key: string }> {
    const row = uid && uid.length <= 64 ? await repo.findOwnedUpload(this.deps.db, accountId, uid, { statuses: ['ready'], withDeleted: true }) : undefined;
    if (row?.expired_at) throw expiredError(UPLOAD_TEXT.expired);
    if (!row || row.deleted_at !== null || !row.blob_key) throw notFound('upload not found');
    return row as Upload & { blob_key: string };
  }

  /** GET /web_api/v1/download/src: the working copy. */
  async source(p: Principal, uid: string | undefined): Promise<{ key: string; format: ImageFormat; filename: string }> {
    const row = await this.readyUpload(p.accountId, String(uid ?? ''));
    return { key: row.blob_key, format: row.format, filename: row.filename };
  }

  /** GET /web_api/v1/thumbnail. */
  async thumbnail(p: Principal, uid: string | undefined): Promise<{ key: string; format: ImageFormat }> {
    const row = await this.owned(p.accountId, String(uid ?? ''));
    if (!row.thumb_key) throw notFound('upload not found');
    return { key: row.thumb_key, format: row.thumb_key.endsWith('.png') ? 'png' : 'jpeg' };
  }

  view(r: Upload): UploadView {
    return { uid: r.uid, filename: r.filename, filesize: r.filesize, w: r.w, h: r.h, format: r.format, job: r.job, thumbnail: thumbUrl(r.uid), sha256: r.sha256 ?? '' };
  }

  private async owned(accountId: number, uid: string, includeReceiving = false): Promise<Upload> {
    const row = uid && uid.length <= 64 ? await repo.findOwnedUpload(this.deps.db, accountId, uid, includeReceiving ? {} : { statuses: ['ready'] }) : undefined;
    if (!row) throw notFound('upload not found');
    return row;
  }

  async removeBlobs(keys: (string | null | undefined)[]): Promise<void> {
    for (const k of new Set(keys)) if (k) await this.deps.blobs.remove(k).catch(() => undefined);
  }
}
