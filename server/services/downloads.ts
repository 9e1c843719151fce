/**
 * Results (spec §7 "Downloads and previews"): the file of a finished work or one of its variants, the
 * compress result converted to another type, and bulk zips (point check, download/all). Routes only
 * send what this returns.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { parseParams, type Step } from '../../src/shared/domain/modules.js';
import { creditsLeft } from '../../src/shared/domain/plans.js';
import { notFound, paramError } from '../errors.js';
import {
  downloadName,
  EXTRA_TYPES,
  extOf,
  extOfKey,
  extrasOf,
  zipOf,
  type ExtraType,
} from '../repositories/resultFiles.js';
import { findBundle, insertBundle } from '../repositories/downloadBundleRepository.js';
import type { Job } from '../repositories/schema.js';
import type { ServiceBase } from './base.js';
import type { JobService } from './jobs.js';
import type { FinishedWork } from './jobs.js';
import type { Principal } from './tokens.js';
import { ConcurrencyGate } from './gates.js';
import { ConvertProcesses } from '../jobs/convertProcess.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & { services: { jobs: JobService } };

/** The content type a result file is sent with (the routes send what this service returns). */
export { contentTypeOf } from '../repositories/resultFiles.js';

const BULK_MAX = 100;

/**
 * download_compress re-encodes in the API process (six parallel calls on one 100 MP work
 * took it from 448 MB to 4.3 GB). Each (result, type, quality) is converted once: calls that arrive
 * while it runs share its answer, and the bytes stay in a bounded cache for later calls. New
 * conversions run at most 1 at once per account and 2 per process, of which guests together hold at most
 * 1 (two guests' 100 MP conversions once refused a Pro user's 64×64 one); others get 429 at once. They run
 * in conversion processes of their own (server/jobs/convertProcess.ts), never on the API's threads.
 */
const COMPRESS_CACHE_BYTES = 96 * 1024 * 1024;
/** A conversion larger than this is shared while it runs but not kept afterwards. */
const COMPRESS_CACHE_ENTRY_BYTES = 32 * 1024 * 1024;
const COMPRESS_GATE = { perAccount: 1, total: 2, guests: 1 } as const;
export const BUNDLE_TTL_MS = 60 * 60 * 1000;

/** A result as a stored blob (streamed) or as converted bytes. */
export type DownloadFile = { ext: string; name: string } & ({ key: string; size: number } | { data: Buffer });

export interface ZipDownload {
  name: string;
  stream: Readable;
}

export class DownloadService {
  private readonly converting = new Map<string, Promise<Buffer>>();
  /** Finished conversions, least recently used first (a Map keeps insertion order). */
  private readonly converted = new Map<string, Buffer>();
  private convertedBytes = 0;
  private readonly gate = new ConcurrencyGate(COMPRESS_GATE.perAccount, COMPRESS_GATE.total);
  /** all guests together: one lane, so the other conversion slot stays for accounts */
  private readonly guestGate = new ConcurrencyGate(COMPRESS_GATE.guests, COMPRESS_GATE.guests);
  private converter: ConvertProcesses | null = null;
  /** Conversions really run (not answered from the cache or a running one): for tests and logs. */
  conversions = 0;

  constructor(private readonly deps: Deps) {}

  /** The converted bytes of one (result, type, quality): cached, shared while running, gated when new. */
  private async convertOnce(
    p: Pick<Principal, 'accountId' | 'level'>,
    key: string,
    extra: ExtraType,
    quality: number,
  ): Promise<Buffer> {
    const id = `${key}|${extra}|${quality}`;
    const hit = this.converted.get(id);
    if (hit) {
      this.converted.delete(id);
      this.converted.set(id, hit);
      return hit;
    }
    const running = this.converting.get(id);
    if (running) return running;
    const convert = () =>
      this.gate.run(String(p.accountId), async () => {
        this.conversions++;
        this.converter ??= new ConvertProcesses(this.deps.config.slotNice);
        return this.converter.run(this.deps.blobs.pathOf(key), extra, quality);
      });
    const job = p.level === 'guest' ? this.guestGate.run('guests', convert) : convert();
    this.converting.set(id, job);
    try {
      const data = await job;
      if (data.length <= COMPRESS_CACHE_ENTRY_BYTES) {
        this.converted.set(id, data);
        this.convertedBytes += data.length;
        for (const [k, v] of this.converted) {
          if (this.convertedBytes <= COMPRESS_CACHE_BYTES) break;
          this.converted.delete(k);
          this.convertedBytes -= v.length;
        }
      }
      return data;
    } finally {
      this.converting.delete(id);
    }
  }

  /** The result blob of a finished work, or its extra variant (zoom_type) when it has one. */
  private async resultOf(job: FinishedWork, variant?: string): Promise<{ key: string; ext: string; name: string }> {
    const extras = extrasOf(job.extras_json);
    const key = variant && extras[variant] ? extras[variant]! : job.result_key;
    const ext = key === job.result_key ? extOf(job.result_format ?? extOfKey(key)) : extOfKey(key);
    return { key, ext, name: await this.nameOf(job, ext) };
  }

  private async nameOf(job: Job, ext: string): Promise<string> {
    const upload = await this.deps.services.jobs.upload(job);
    return downloadName(upload?.filename, job.job, ext);
  }

  /** A stored result with its size; a blob gone from the volume answers like a missing work, not a 500. */
  private async stored(r: { key: string; ext: string; name: string }): Promise<DownloadFile> {
    const size = await this.deps.blobs.size(r.key).catch(() => {
      throw notFound('resultNotFound');
    });
    return { ...r, size };
  }

  /** GET /web_api/v1/download/ (variant = zoom_type) and /web_api/v1/preview. */
  async result(p: Principal, transId: string, variant?: string): Promise<DownloadFile> {
    const job = await this.deps.services.jobs.finished(p, transId);
    return this.stored(await this.resultOf(job, variant));
  }

  /** POST /api/job/download_compress: the compress result, re-encoded as extra_type at the work's quality. */
  async compressed(p: Principal, transId: string, extraRaw: string | undefined): Promise<DownloadFile> {
    const job = await this.deps.services.jobs.finished(p, transId);
    if (job.job !== 'compress') throw paramError('notCompressWork', { field: 'trans_id' });
    const extra = extraRaw?.toLowerCase();
    const r = await this.resultOf(job);
    if (!extra || extra === r.ext) return this.stored(r);
    if (!(EXTRA_TYPES as readonly string[]).includes(extra))
      throw paramError('fieldInvalid', { field: 'extra_type', allowed: EXTRA_TYPES });
    // The quality the work ran with, read through the params schema (its default lives there only).
    const step = (JSON.parse(job.steps_json) as Step[])[0];
    const params = parseParams('compress', step?.config.module_params);
    if (!params.ok)
      throw new Error(`stored compress params are invalid: ${params.error.reason} ${String(params.error.param ?? '')}`);
    const data = await this.convertOnce(p, r.key, extra as ExtraType, Number(params.value.quality));
    return { ext: extra, name: await this.nameOf(job, extra), data };
  }

  /**
   * Bulk-download rule (POST /api/v2/point/check, /api/v2/download/all): every work owned and
   * finished (else 10001), and the account neither expired nor out of credits (else 30004).
   */
  async bulkWorks(p: Principal, transIds: string[]): Promise<FinishedWork[]> {
    if (!transIds.length) throw paramError('fieldRequired', { field: 'trans_ids' });
    if (transIds.length > BULK_MAX) throw paramError('bulkTooMany', { max: BULK_MAX });
    const works = [];
    for (const id of transIds) works.push(await this.deps.services.jobs.finished(p, id));
    if (p.level === 'expired' || creditsLeft(p.account.max_num, p.account.used_num) <= 0)
      throw paramError('notEnoughPoints');
    return works;
  }

  /** POST /api/v2/point/check: the bulk rule, and a bundle id for GET download/all/ when asked. */
  async pointCheck(p: Principal, transIds: string[], needId: boolean) {
    await this.bulkWorks(p, transIds);
    const data: { max_num: number; used_num: number; download_all_id?: string } = {
      max_num: p.account.max_num,
      used_num: p.account.used_num,
    };
    if (needId) {
      const now = Date.now();
      data.download_all_id = randomUUID();
      await insertBundle(this.deps.db, data.download_all_id, p.accountId, transIds, now, now - BUNDLE_TTL_MS);
    }
    return data;
  }

  /** POST /api/v2/download/all: a zip of these works' results. */
  async zipOfWorks(p: Principal, transIds: string[]): Promise<ZipDownload> {
    return this.zip(await this.bulkWorks(p, transIds));
  }

  /** GET /api/v2/download/all/: the zip of a bundle made by point check (bundles live BUNDLE_TTL_MS, one account). */
  async zipOfBundle(p: Principal, bundleId: string): Promise<ZipDownload> {
    const transIds = await findBundle(this.deps.db, bundleId, p.accountId, Date.now() - BUNDLE_TTL_MS);
    if (!transIds) throw notFound('downloadNotFound');
    return this.zip(await this.bulkWorks(p, transIds));
  }

  private async zip(works: FinishedWork[]): Promise<ZipDownload> {
    const entries = [];
    for (const job of works) {
      const r = await this.resultOf(job);
      if (!(await this.deps.blobs.exists(r.key))) throw notFound('resultNotFound');
      entries.push({ path: this.deps.blobs.pathOf(r.key), name: r.name });
    }
    return { name: `pixmill-${new Date().toISOString().slice(0, 10)}.zip`, stream: zipOf(entries) };
  }
}
