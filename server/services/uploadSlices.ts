/**
 * Sliced uploads (spec §7 upload_slice): 5 MB slices, one request each, resumable, safe to repeat
 * and to send concurrently. Slices are validated as a whole once the last one is in, like a whole
 * upload (UploadService.store).
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHUNK_SIZE_BYTES, UPLOADED_CACHE_EXPIRY_MS } from '../../src/shared/domain/constants.js';
import { uploadRefused } from '../errors.js';
import { clientThumbnail, extOf, sniffFormat } from '../repositories/imageRepository.js';
import type { Upload } from '../repositories/schema.js';
import * as repo from '../repositories/uploadRepository.js';
import type { ServiceBase } from './base.js';
import type { Principal } from './tokens.js';
import { fileTooLarge } from './sizeRefusals.js';
import { checkUploadQuota, spendGuestBytes } from './uploadQuota.js';
import { sanitizeFilename, type UploadService, type UploadView } from './uploads.js';

/** How long a concurrent copy of the last slice waits for the one request that assembles. */
const ASSEMBLY_WAIT_MS = 120_000;
const ASSEMBLY_POLL_MS = 50;

export interface SliceInput {
  uid?: string;
  blobNum: number;
  totalBlobNum: number;
  name?: string;
  chunk?: Buffer;
  thumbnail?: Buffer;
  job?: string;
}

export interface SliceView extends Partial<UploadView> {
  uid: string;
  blob_num: number;
  total_blob_num: number;
  received: number[];
  done: boolean;
}

/** Key of a slice stored before migration 005, when slice blobs were addressed by uid and slice number. */
function legacyChunkKey(uid: string, blobNum: number): string {
  const h = createHash('sha256').update(`${uid}:${blobNum}`).digest('hex');
  return `chunks/${h.slice(0, 2)}/${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export class SliceReceiver {
  constructor(
    private readonly deps: ServiceBase,
    private readonly uploads: UploadService,
  ) {}

  /**
   * POST /api/v2/upload_slice: one slice of at most 5 MB; the last one completes the upload.
   * Safe to repeat and to send concurrently: each copy of a slice is written to a key of its own and
   * recorded once; exactly one request assembles (a DB claim), and every copy of the last slice
   * answers with the finished upload.
   */
  async receive(p: Principal, input: SliceInput): Promise<SliceView> {
    const { blobNum, totalBlobNum: total } = input;
    // each is an integer from 1 (its schema); together they must be in order
    if (blobNum > total) throw uploadRefused('slicesNumbers');
    const chunk = input.chunk;
    if (!chunk) throw uploadRefused('fileRequired');
    if (chunk.length === 0) throw uploadRefused('sliceEmpty');
    if (chunk.length > CHUNK_SIZE_BYTES) throw uploadRefused('sliceTooLarge');
    // Slices are placed by number: one short slice before the last would shift every byte after it (a
    // 100-byte slice 3 of 9 once made a corrupt upload that was marked ready).
    if (blobNum < total && chunk.length !== CHUNK_SIZE_BYTES) throw uploadRefused('sliceSize');

    let row: Upload;
    if (!input.uid) {
      if (blobNum !== 1) throw uploadRefused('sliceNeedsUid');
      row = await this.startSliced(
        p,
        input.name ?? '',
        this.uploads.checkJob(input.job),
        total,
        chunk,
        input.thumbnail,
      );
    } else {
      row = await this.uploads.owned(p.accountId, String(input.uid), true);
      if (row.total_blob_num !== total) throw uploadRefused('sliceTotalMismatch');
    }
    const uid = row.uid;
    if (row.status === 'receiving') await this.keepSlice(p, row, blobNum, chunk);
    const received = (await repo.chunksOf(this.deps.db, uid)).map((c) => c.blob_num);
    if (row.status === 'receiving' && received.length === total) await this.assemble(p, uid);
    const fresh = await this.settled(p.accountId, uid);
    const done = fresh.status === 'ready';
    return { ...(done ? this.uploads.view(fresh) : {}), uid, blob_num: blobNum, total_blob_num: total, received, done };
  }

  /** The first slice: checks the declared size and the magic bytes, then creates the upload (status receiving). */
  private async startSliced(
    p: Principal,
    name: string,
    job: string,
    total: number,
    chunk: Buffer,
    thumbnail: Buffer | undefined,
  ): Promise<Upload> {
    const { maxBytes } = this.uploads.limitsFor(p, job);
    if (total > Math.ceil(maxBytes / CHUNK_SIZE_BYTES)) throw fileTooLarge(maxBytes);
    const format = sniffFormat(chunk);
    if (!format) throw uploadRefused('unsupported');
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
      await this.uploads.removeBlobs([thumbKey]);
      throw e;
    }
    return this.uploads.owned(p.accountId, uid, true);
  }

  /** Stores one slice unless already held; the byte limit and the storage quota count it. */
  private async keepSlice(p: Principal, row: Upload, blobNum: number, chunk: Buffer): Promise<void> {
    const db = this.deps.db;
    if (await repo.findChunk(db, row.uid, blobNum)) return;
    const { maxBytes } = this.uploads.limitsFor(p, row.job);
    if (row.received_bytes + chunk.length > maxBytes) {
      await this.abandon(row);
      throw fileTooLarge(maxBytes);
    }
    await spendGuestBytes(db, p, chunk.length, this.deps.config.guestBytesPerHour);
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
      if (!kept) await this.uploads.removeBlobs([key]);
    }
  }

  /** Reassembles the slices in order and validates the whole like a single upload; only the request that claims it does. */
  private async assemble(p: Principal, uid: string): Promise<void> {
    const db = this.deps.db;
    if (!(await repo.claimAssembly(db, uid))) return;
    const row = await this.uploads.owned(p.accountId, uid, true);
    try {
      const parts: Buffer[] = [];
      for (const key of await this.chunkKeys(row)) parts.push(await this.deps.blobs.read(key));
      // Ready only when the bytes are what the slices announced: total_blob_num slices, every one but the
      // last exactly CHUNK_SIZE_BYTES (slices kept before that rule are checked here), then a full decode (store).
      if (
        parts.length !== row.total_blob_num ||
        parts.some((b, i) => (i < parts.length - 1 ? b.length !== CHUNK_SIZE_BYTES : b.length === 0))
      )
        throw uploadRefused('sliceRefused');
      const original = Buffer.concat(parts);
      const limits = this.uploads.limitsFor(p, row.job);
      if (original.length > limits.maxBytes) throw fileTooLarge(limits.maxBytes, original.length);
      const stored = await this.uploads.store(original, limits, null, row.thumb_key);
      await repo.markReady(db, uid, stored);
      await this.uploads.removeBlobs(await this.chunkKeys(row));
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
      if (!row || row.deleted_at !== null) throw uploadRefused('sliceRefused');
      if (row.status !== 'assembling' || Date.now() > until) return row;
      await sleep(ASSEMBLY_POLL_MS);
    }
  }

  async chunkKeys(row: Upload): Promise<string[]> {
    return (await repo.chunksOf(this.deps.db, row.uid)).map((c) => c.blob_key ?? legacyChunkKey(row.uid, c.blob_num));
  }

  /** A refused sliced upload is dropped whole (spec: a failed chunk drops that file from the queue). */
  async abandon(row: Upload): Promise<void> {
    await repo.markDeleted(this.deps.db, [row.uid], Date.now());
    await this.uploads.removeBlobs([row.thumb_key, ...(await this.chunkKeys(row))]);
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
  async status(
    p: Principal,
    uid: string,
  ): Promise<{ uid: string; total_blob_num: number; received: number[]; done: boolean; status: string }> {
    const row = await this.uploads.owned(p.accountId, uid, true);
    const received = (await repo.chunksOf(this.deps.db, row.uid)).map((c) => c.blob_num);
    return {
      uid: row.uid,
      total_blob_num: row.total_blob_num,
      received,
      done: row.status === 'ready',
      status: row.status,
    };
  }
}
