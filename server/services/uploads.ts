/**
 * Uploads (spec §5, §7): whole files, 5 MB slices with resume (uploadSlices.ts), uploads by URL, the 24-hour list,
 * delete, and the bytes behind download/src and thumbnail. Every uid belongs to one account.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { UploadView as UploadViewSchema } from '../../src/shared/schemas/uploads.js';
import { UPLOAD_LIST_LIMIT, UPLOADED_CACHE_EXPIRY_MS } from '../../src/shared/domain/constants.js';
import type { UploadHistoryEntry } from '../../src/shared/domain/work.js';
import { notFound, paramError, refused, uploadRefused } from '../errors.js';
import { megapixelsToPixels } from '../../src/shared/domain/plans.js';
import { ConcurrencyGate } from './gates.js';
import { currentAddressGroup } from '../clientAddress.js';
import { sanitizeFilename } from '../../src/shared/domain/filename.js';
import {
  clientThumbnail,
  extOf,
  ImageRefused,
  thumbnailOf,
  validateImage,
  type ImageFormat,
  type Thumbnail,
} from '../repositories/imageRepository.js';
import { fetchRemoteImage, RemoteRefused } from '../repositories/remoteImage.js';
import type { Upload } from '../repositories/schema.js';
import * as repo from '../repositories/uploadRepository.js';
import { checkUploadQuota, spendGuestBytes } from './uploadQuota.js';
import type { ServiceBase } from './base.js';
import { checkIdempotencyKey, idForKey } from './idempotency.js';
import type { Principal } from './tokens.js';
import { fileTooLarge, imageTooLarge } from './sizeRefusals.js';
import { SliceReceiver, type SliceInput, type SliceView } from './uploadSlices.js';

/** Compress jobs may send bigger images than the level's resolution limit; this caps the decoder anyway. */
const COMPRESS_MAX_PIXELS = 100_000_000;
const URL_FETCH_TIMEOUT_MS = 20_000;
/** Compress uploads are not held to the level's side limit, only to this (and COMPRESS_MAX_PIXELS). */
const COMPRESS_MAX_SIDE = 30_000;

/** An upload as the upload calls answer it (its schema: src/shared/schemas/uploads.ts). */
export type UploadView = Static<typeof UploadViewSchema>;

/** One row of upload/list: the spec's upload history entry (x, y = w, h of the working copy, after auto-orientation). */
export type UploadListEntry = UploadHistoryEntry;

/** Spec §5's filename rule, shared with the worker. */
export { sanitizeFilename };

/** upload_url: at most 2 fetches at once per account, 16 per API process. */
export const URL_FETCHES = new ConcurrencyGate(2, 16);
/**
 * upload_url per client address group (clientAddress.ts): a script taking a new guest token per call
 * gets 4 of the process's 16 fetches, never all of them (8 guests × 2 once held every one).
 */
export const URL_FETCHES_PER_ADDRESS = new ConcurrencyGate(4, Infinity);

const JOB_SHAPE = /^[a-z0-9_-]{0,40}$/;

const thumbUrl = (uid: string) => `/web_api/v1/thumbnail?uid=${encodeURIComponent(uid)}`;

/** An image or remote fetch refused: its own refusal, naming the plan's limit when it is a size (`limits`). */
function refusal(e: unknown, limits?: { maxBytes?: number; maxPixels: number; maxSide: number }): never {
  if (e instanceof ImageRefused && e.refusal === 'imageTooLarge' && limits) throw imageTooLarge(limits);
  if (e instanceof RemoteRefused && e.reason === 'fileTooLarge' && limits?.maxBytes !== undefined)
    throw fileTooLarge(limits.maxBytes);
  if (e instanceof ImageRefused) throw uploadRefused(e.refusal);
  if (e instanceof RemoteRefused) throw paramError(e.reason, { field: 'url' });
  throw e;
}

export class UploadService {
  private readonly slices: SliceReceiver;

  constructor(private readonly deps: ServiceBase) {
    this.slices = new SliceReceiver(deps, this);
  }

  /** Byte, pixel and side limits of spec §6 for this caller and job. */
  limitsFor(p: Principal, job: string): { maxBytes: number; maxPixels: number; maxSide: number } {
    return job === 'compress'
      ? { maxBytes: p.limits.compressMaxBytes, maxPixels: COMPRESS_MAX_PIXELS, maxSide: COMPRESS_MAX_SIDE }
      : {
          maxBytes: p.limits.maxFileBytes,
          maxPixels: megapixelsToPixels(p.limits.maxMegapixels),
          maxSide: p.limits.maxSidePx,
        };
  }

  /** The upload's `job` field (also for the slice receiver). */
  checkJob(job: string | undefined): string {
    const j = (job ?? '').trim();
    if (!JOB_SHAPE.test(j)) throw uploadRefused('badJob');
    return j;
  }

  /**
   * POST /web_api/v1/upload. With an Idempotency-Key (the web app sends its card's id: a reload while the
   * answer was on its way sends the file again) the upload's uid is derived from the account and the key,
   * so a repeat — in sequence or racing — is answered the first's upload and stores nothing twice; the
   * key with other bytes is refused (422 idempotencyKeyReused).
   */
  async uploadWhole(
    p: Principal,
    input: {
      file?: Buffer;
      filename: string;
      thumbnail?: Buffer;
      job?: string;
      sourceUrl?: string;
      idempotencyKey?: string;
    },
  ): Promise<UploadView> {
    const job = this.checkJob(input.job);
    if (!input.file) throw uploadRefused('fileRequired');
    const key = input.idempotencyKey;
    if (key !== undefined) checkIdempotencyKey(key);
    const uid = key === undefined ? randomUUID() : idForKey(p.accountId, key, 'upload');
    const repeat = () => (key === undefined ? undefined : this.repeatOf(p, uid, input.file!));
    const first = await repeat();
    if (first) return first;
    const limits = this.limitsFor(p, job);
    if (input.file.length > limits.maxBytes) throw fileTooLarge(limits.maxBytes, input.file.length);
    const size = input.file.length;
    // Checked before the costly decode, and again under the account lock with the insert.
    await checkUploadQuota(this.deps.db, p, { newUpload: true, bytes: size });
    await spendGuestBytes(this.deps.db, p, size, this.deps.config.guestBytesPerHour);
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
      // Two requests with one key: the other's upload won the insert.
      const winner = await repeat();
      if (winner) return winner;
      throw e;
    }
    return this.view(await this.owned(p.accountId, uid));
  }

  /** The upload a key already made, answered again; refused when this request sends other bytes. */
  private async repeatOf(p: Principal, uid: string, file: Buffer): Promise<UploadView | undefined> {
    const row = await repo.findOwnedUpload(this.deps.db, p.accountId, uid, { withDeleted: true });
    if (!row) return undefined;
    const same = row.sha256 === createHash('sha256').update(file).digest('hex');
    if (!same || row.deleted_at !== null || row.status !== 'ready') throw refused({ reason: 'idempotencyKeyReused' });
    return this.view(row);
  }

  /** Validates the bytes and writes original, working copy and thumbnail blobs (whole uploads and assembled slices). */
  async store(
    original: Buffer,
    limits: { maxPixels: number; maxSide: number },
    thumb: Thumbnail | null,
    thumbKey?: string | null,
  ) {
    const image = await validateImage(original, limits.maxPixels, limits.maxSide).catch((e: unknown) =>
      refusal(e, limits),
    );
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
    return {
      format: image.format,
      w: image.w,
      h: image.h,
      filesize: original.length,
      original_key: originalKey,
      blob_key: blobKey,
      thumb_key: thumbKey,
      sha256,
    };
  }

  /** POST /api/v2/upload_slice (server/services/uploadSlices.ts). */
  receiveSlice(p: Principal, input: SliceInput): Promise<SliceView> {
    return this.slices.receive(p, input);
  }

  /** POST /api/v2/upload_slice/status. */
  sliceStatus(p: Principal, uid: string) {
    return this.slices.status(p, uid);
  }

  /** Unfinished sliced uploads older than a day are dropped; run by retention. */
  dropUnfinished(now = Date.now()): Promise<number> {
    return this.slices.dropUnfinished(now);
  }

  /** POST /api/job_utils/upload_url: fetched server-side, then validated like any upload. */
  async uploadFromUrl(p: Principal, url: string, type: string | undefined): Promise<UploadView> {
    const job = this.checkJob(type);
    await checkUploadQuota(this.deps.db, p, { newUpload: true, bytes: 0 });
    const limits = this.limitsFor(p, job);
    const { maxBytes } = limits;
    // Outbound fetches are limited per caller and per process: nobody turns the server
    // into a pool of parallel downloaders.
    // A host that accepts and never answers is given up after URL_FIRST_BYTE_MS, not the whole fetch time.
    const fetch = () =>
      fetchRemoteImage(url.trim(), {
        maxBytes,
        timeoutMs: URL_FETCH_TIMEOUT_MS,
        firstByteMs: this.deps.config.urlFirstByteMs,
        allowPrivate: this.deps.config.allowPrivateUrls,
      }).catch((e: unknown) => refusal(e, limits));
    const address = currentAddressGroup();
    const remote = await (address
      ? URL_FETCHES_PER_ADDRESS.run(address, () => URL_FETCHES.run(String(p.accountId), fetch))
      : URL_FETCHES.run(String(p.accountId), fetch));
    return this.uploadWhole(p, { file: remote.data, filename: remote.name, job, sourceUrl: url.slice(0, 2000) });
  }

  /** POST /web_api/v1/upload/list: ready uploads of the last 24 hours, newest first. */
  async list(p: Principal, limit = UPLOAD_LIST_LIMIT): Promise<UploadListEntry[]> {
    const rows = await repo.listReady(this.deps.db, p.accountId, Date.now() - UPLOADED_CACHE_EXPIRY_MS, limit);
    return rows.map((r) => ({
      uid: r.uid,
      name: r.filename,
      file_size: r.filesize,
      thumbnail: thumbUrl(r.uid),
      w: r.w,
      h: r.h,
      x: r.w,
      y: r.h,
    }));
  }

  /**
   * POST /web_api/v1/upload/delete. All ids must be the caller's, else nothing is deleted.
   * Blobs go at once unless a work still refers to the upload (its preview "before" image); those go with retention.
   */
  async remove(p: Principal, uids: string[]): Promise<{ deleted: number }> {
    if (uids.length === 0) throw paramError('fieldRequired', { field: 'uid' });
    const db = this.deps.db;
    const rows = await repo.liveOwned(db, p.accountId, uids);
    if (rows.length !== new Set(uids).size) throw refused({ reason: 'uploadNotFound', field: 'uid' }, 200);
    await repo.markDeleted(db, uids, Date.now(), p.accountId);
    const used = await repo.usedByWorks(db, uids);
    for (const r of rows)
      if (!used.has(r.uid)) await this.removeBlobs([...this.blobsOf(r), ...(await this.slices.chunkKeys(r))]);
    return { deleted: rows.length };
  }

  /** The blobs of a stored upload: working copy, original and thumbnail. */
  blobsOf(r: Upload): (string | null)[] {
    return [r.blob_key, r.original_key, r.thumb_key];
  }

  /** The caller's ready upload (an expired one answers so); not found also for another account's uid. For jobs and downloads. */
  async readyUpload(accountId: number, uid: string): Promise<Upload & { blob_key: string }> {
    const row =
      uid && uid.length <= 64
        ? await repo.findOwnedUpload(this.deps.db, accountId, uid, { statuses: ['ready'], withDeleted: true })
        : undefined;
    if (row?.expired_at) throw uploadRefused('expired', 410);
    if (!row || row.deleted_at !== null || !row.blob_key) throw notFound('uploadNotFound');
    return row as Upload & { blob_key: string };
  }

  /** GET /web_api/v1/download/src: the working copy. */
  async source(p: Principal, uid: string): Promise<{ key: string; format: ImageFormat; filename: string }> {
    const row = await this.readyUpload(p.accountId, uid);
    return { key: row.blob_key, format: row.format, filename: row.filename };
  }

  /** GET /web_api/v1/thumbnail. */
  async thumbnail(p: Principal, uid: string): Promise<{ key: string; format: ImageFormat }> {
    const row = await this.owned(p.accountId, uid);
    if (!row.thumb_key) throw notFound('uploadNotFound');
    return { key: row.thumb_key, format: row.thumb_key.endsWith('.png') ? 'png' : 'jpeg' };
  }

  view(r: Upload): UploadView {
    return {
      uid: r.uid,
      filename: r.filename,
      filesize: r.filesize,
      w: r.w,
      h: r.h,
      format: r.format,
      job: r.job,
      thumbnail: thumbUrl(r.uid),
      sha256: r.sha256 ?? '',
    };
  }

  /** The caller's upload (ready, or any status with includeReceiving); not found for another account's uid. */
  async owned(accountId: number, uid: string, includeReceiving = false): Promise<Upload> {
    const row =
      uid && uid.length <= 64
        ? await repo.findOwnedUpload(this.deps.db, accountId, uid, includeReceiving ? {} : { statuses: ['ready'] })
        : undefined;
    if (!row) throw notFound('uploadNotFound');
    return row;
  }

  async removeBlobs(keys: (string | null | undefined)[]): Promise<void> {
    for (const k of new Set(keys)) if (k) await this.deps.blobs.remove(k).catch(() => undefined);
  }
}
