/**
 * Uploads (spec §5, §7): whole files, 5 MB slices with resume, uploads by URL, the 24-hour list,
 * delete, and the bytes behind download/src and thumbnail. Every uid belongs to one account.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { CHUNK_SIZE_BYTES, UPLOAD_LIST_LIMIT, UPLOADED_CACHE_EXPIRY_MS } from '../../src/domain/constants.js';
import type { UploadHistoryEntry } from '../../src/domain/work.js';
import { megapixelsToPixels } from '../../src/domain/plans.js';
import { sanitizeFilename } from '../../src/domain/filename.js';
import { UPLOAD_REFUSAL } from '../../src/domain/uploadRefusals.js';
import { notFound, paramError } from '../http/envelope.js';
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
import type { Deps } from './index.js';
import type { Principal } from './tokens.js';

/** Compress jobs may send bigger images than the level's resolution limit; this caps the decoder anyway. */
export const COMPRESS_MAX_PIXELS = 100_000_000;
const URL_FETCH_TIMEOUT_MS = 20_000;

/** Refusal texts: the domain table the client translates (src/domain/uploadRefusals.ts). */
export const UPLOAD_TEXT = UPLOAD_REFUSAL;

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

/** Spec §5's filename rule, shared with the worker. */
export { sanitizeFilename };

const JOB_SHAPE = /^[a-z0-9_-]{0,40}$/;

const thumbUrl = (uid: string) => `/web_api/v1/thumbnail?uid=${encodeURIComponent(uid)}`;

/** Chunk blobs are addressed by uid and slice number, so a retried slice lands on the same key. */
function chunkKey(uid: string, blobNum: number): string {
  const h = createHash('sha256').update(`${uid}:${blobNum}`).digest('hex');
  return `chunks/${h.slice(0, 2)}/${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function refusal(e: unknown): never {
  if (e instanceof ImageRefused || e instanceof RemoteRefused) throw paramError(e.message);
  throw e;
}

export class UploadService {
  constructor(private readonly deps: Deps) {}

  /** Byte and pixel limits of spec §6 for this caller and job. */
  limitsFor(p: Principal, job: string): { maxBytes: number; maxPixels: number } {
    return job === 'compress'
      ? { maxBytes: p.limits.compressMaxBytes, maxPixels: COMPRESS_MAX_PIXELS }
      : { maxBytes: p.limits.maxFileBytes, maxPixels: megapixelsToPixels(p.limits.maxMegapixels) };
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
    const { maxBytes, maxPixels } = this.limitsFor(p, job);
    if (input.file.length > maxBytes) throw paramError(UPLOAD_TEXT.fileTooLarge);
    const uid = randomUUID();
    const now = Date.now();
    const stored = await this.store(uid, input.file, maxPixels, await clientThumbnail(input.thumbnail));
    try {
      await this.deps.db
        .insertInto('uploads')
        .values({
          uid,
          account_id: p.accountId,
          filename: sanitizeFilename(input.filename, stored.format),
          filesize: input.file.length,
          w: stored.w,
          h: stored.h,
          format: stored.format,
          job,
          blob_key: stored.blobKey,
          original_key: stored.originalKey,
          sha256: stored.sha256,
          thumb_key: stored.thumbKey,
          status: 'ready',
          total_blob_num: 1,
          received_bytes: input.file.length,
          source_url: input.sourceUrl ?? null,
          created_at: now,
          deleted_at: null,
        })
        .execute();
    } catch (e) {
      await this.removeBlobs([stored.blobKey, stored.originalKey, stored.thumbKey]);
      throw e;
    }
    return this.view(await this.owned(p.accountId, uid));
  }

  /** Validates the bytes and writes original, working copy and thumbnail blobs. */
  private async store(uid: string, original: Buffer, maxPixels: number, thumb: Thumbnail | null, thumbKey?: string | null) {
    const image = await validateImage(original, maxPixels).catch(refusal);
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
    return { format: image.format, w: image.w, h: image.h, originalKey, blobKey, thumbKey, sha256 };
  }

  /** POST /api/v2/upload_slice: one slice of at most 5 MB; the last one completes the upload. */
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
    const db = this.deps.db;

    let row: Upload;
    if (!input.uid) {
      if (blobNum !== 1) throw paramError(UPLOAD_TEXT.sliceNeedsUid);
      const job = this.checkJob(input.job);
      const { maxBytes } = this.limitsFor(p, job);
      if (total > Math.ceil(maxBytes / CHUNK_SIZE_BYTES)) throw paramError(UPLOAD_TEXT.fileTooLarge);
      const format = sniffFormat(chunk);
      if (!format) throw paramError(IMAGE_TEXT.unsupported);
      const thumb = await clientThumbnail(input.thumbnail);
      let thumbKey: string | null = null;
      if (thumb) {
        thumbKey = this.deps.blobs.newKey('thumbs', extOf(thumb.format));
        await this.deps.blobs.write(thumbKey, thumb.data);
      }
      await this.sweepStale();
      const uid = randomUUID();
      await db
        .insertInto('uploads')
        .values({
          uid,
          account_id: p.accountId,
          filename: sanitizeFilename(input.name ?? '', format),
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
        })
        .execute();
      row = await this.owned(p.accountId, uid, true);
    } else {
      row = await this.owned(p.accountId, String(input.uid), true);
      if (row.total_blob_num !== total) throw paramError(UPLOAD_TEXT.sliceTotalMismatch);
    }
    const uid = row.uid;

    if (row.status === 'receiving') {
      const seen = await db.selectFrom('upload_chunks').select('blob_num').where('uid', '=', uid).where('blob_num', '=', blobNum).executeTakeFirst();
      if (!seen) {
        const { maxBytes } = this.limitsFor(p, row.job);
        if (row.received_bytes + chunk.length > maxBytes) {
          await this.abandon(row);
          throw paramError(UPLOAD_TEXT.fileTooLarge);
        }
        await this.deps.blobs.write(chunkKey(uid, blobNum), chunk);
        const ins = await db
          .insertInto('upload_chunks')
          .values({ uid, blob_num: blobNum, size: chunk.length, created_at: Date.now() })
          .onConflict((oc) => oc.columns(['uid', 'blob_num']).doNothing())
          .executeTakeFirst();
        if (Number(ins.numInsertedOrUpdatedRows ?? 0n) > 0)
          await db.updateTable('uploads').set({ received_bytes: sql`received_bytes + ${chunk.length}` }).where('uid', '=', uid).execute();
      }
    }
    const received = await this.receivedOf(uid);
    if (row.status === 'receiving' && received.length === total) await this.assemble(p, uid);
    const fresh = await this.owned(p.accountId, uid, true);
    const done = fresh.status === 'ready';
    return { ...(done ? this.view(fresh) : {}), uid, blob_num: blobNum, total_blob_num: total, received, done };
  }

  /** Reassembles the slices in order and validates the whole like a single upload. */
  private async assemble(p: Principal, uid: string): Promise<void> {
    const db = this.deps.db;
    // Only one request may assemble, even if the last slice arrives twice at once.
    const claim = await db.updateTable('uploads').set({ status: 'assembling' }).where('uid', '=', uid).where('status', '=', 'receiving').executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) return;
    const row = await this.owned(p.accountId, uid, true);
    try {
      const parts: Buffer[] = [];
      for (let n = 1; n <= row.total_blob_num; n++) parts.push(await this.deps.blobs.read(chunkKey(uid, n)));
      const original = Buffer.concat(parts);
      const { maxBytes, maxPixels } = this.limitsFor(p, row.job);
      if (original.length > maxBytes) throw paramError(UPLOAD_TEXT.fileTooLarge);
      const stored = await this.store(uid, original, maxPixels, null, row.thumb_key);
      await db
        .updateTable('uploads')
        .set({
          status: 'ready',
          filesize: original.length,
          w: stored.w,
          h: stored.h,
          format: stored.format,
          blob_key: stored.blobKey,
          original_key: stored.originalKey,
          sha256: stored.sha256,
          thumb_key: stored.thumbKey,
        })
        .where('uid', '=', uid)
        .execute();
      await this.removeBlobs(Array.from({ length: row.total_blob_num }, (_, i) => chunkKey(uid, i + 1)));
    } catch (e) {
      await this.abandon(row);
      throw e;
    }
  }

  /** A refused sliced upload is dropped whole (spec: a failed chunk drops that file from the queue). */
  private async abandon(row: Upload): Promise<void> {
    await this.deps.db.updateTable('uploads').set({ deleted_at: Date.now() }).where('uid', '=', row.uid).execute();
    await this.removeBlobs([row.thumb_key, ...Array.from({ length: row.total_blob_num }, (_, i) => chunkKey(row.uid, i + 1))]);
  }

  /** Sliced uploads never finished within a day (or stuck by a crash mid-assembly) are dropped, a few at a time. */
  private async sweepStale(): Promise<void> {
    const stale = await this.deps.db
      .selectFrom('uploads')
      .selectAll()
      .where('status', 'in', ['receiving', 'assembling'])
      .where('deleted_at', 'is', null)
      .where('created_at', '<', Date.now() - UPLOADED_CACHE_EXPIRY_MS)
      .limit(20)
      .execute();
    for (const row of stale) await this.abandon(row);
  }

  private async receivedOf(uid: string): Promise<number[]> {
    const rows = await this.deps.db.selectFrom('upload_chunks').select('blob_num').where('uid', '=', uid).orderBy('blob_num').execute();
    return rows.map((r) => r.blob_num);
  }

  /** POST /api/v2/upload_slice/status: which slices the server holds, to resume after the last one. */
  async sliceStatus(p: Principal, uid: string | undefined): Promise<{ uid: string; total_blob_num: number; received: number[]; done: boolean; status: string }> {
    const row = await this.owned(p.accountId, String(uid ?? ''), true);
    return { uid: row.uid, total_blob_num: row.total_blob_num, received: await this.receivedOf(row.uid), done: row.status === 'ready', status: row.status };
  }

  /** POST /api/job_utils/upload_url: fetched server-side, then validated like any upload. */
  async uploadFromUrl(p: Principal, url: string | undefined, type: string | undefined): Promise<UploadView> {
    const job = this.checkJob(type);
    if (!url || typeof url !== 'string') throw paramError('url is required');
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
    const rows = await this.deps.db
      .selectFrom('uploads')
      .selectAll()
      .where('account_id', '=', p.accountId)
      .where('status', '=', 'ready')
      .where('deleted_at', 'is', null)
      .where('created_at', '>=', Date.now() - UPLOADED_CACHE_EXPIRY_MS)
      .orderBy('created_at', 'desc')
      .orderBy('uid')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ uid: r.uid, name: r.filename, file_size: r.filesize, thumbnail: thumbUrl(r.uid), w: r.w, h: r.h, x: r.w, y: r.h }));
  }

  /**
   * POST /web_api/v1/upload/delete. All ids must be the caller's, else nothing is deleted.
   * Blobs go at once unless a work still refers to the upload (its preview "before" image).
   */
  async remove(p: Principal, uids: string[]): Promise<{ deleted: number }> {
    if (uids.length === 0) throw paramError();
    const db = this.deps.db;
    const rows = await db.selectFrom('uploads').selectAll().where('uid', 'in', uids).where('account_id', '=', p.accountId).where('deleted_at', 'is', null).execute();
    if (rows.length !== new Set(uids).size) throw paramError();
    await db.updateTable('uploads').set({ deleted_at: Date.now() }).where('uid', 'in', uids).where('account_id', '=', p.accountId).execute();
    const used = new Set((await db.selectFrom('jobs').select('uid').where('uid', 'in', uids).execute()).map((r) => r.uid));
    for (const r of rows) {
      if (used.has(r.uid)) continue;
      await this.removeBlobs([r.blob_key, r.original_key, r.thumb_key, ...Array.from({ length: r.total_blob_num }, (_, i) => chunkKey(r.uid, i + 1))]);
    }
    return { deleted: rows.length };
  }

  /** The caller's ready upload, or a not-found answer (also for another account's uid). For jobs and downloads. */
  async readyUpload(accountId: number, uid: string): Promise<Upload> {
    const row = await this.owned(accountId, uid);
    if (row.status !== 'ready' || !row.blob_key) throw notFound('upload not found');
    return row;
  }

  /** GET /web_api/v1/download/src: the working copy. */
  async source(p: Principal, uid: string | undefined): Promise<{ key: string; format: ImageFormat; filename: string }> {
    const row = await this.readyUpload(p.accountId, String(uid ?? ''));
    return { key: row.blob_key!, format: row.format, filename: row.filename };
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
    if (!uid || uid.length > 64) throw notFound('upload not found');
    const row = await this.deps.db.selectFrom('uploads').selectAll().where('uid', '=', uid).where('account_id', '=', accountId).where('deleted_at', 'is', null).executeTakeFirst();
    if (!row || (!includeReceiving && row.status !== 'ready')) throw notFound('upload not found');
    return row;
  }

  private async removeBlobs(keys: (string | null | undefined)[]): Promise<void> {
    for (const k of new Set(keys)) if (k) await this.deps.blobs.remove(k).catch(() => undefined);
  }
}
