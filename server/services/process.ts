/**
 * The synchronous call (POST /api/v1/process, docs/api.md): one request uploads an image, starts one
 * work and answers its result. It is the four-call flow in one: UploadService stores the image with the
 * plan's limits, JobService.transform checks the jconfig, charges the credit and queues the work on the
 * same queue, DownloadService answers the result. Only the waiting is new: the work's row is read
 * until it ends (both run modes: the runner may be another process), at most `wait` seconds.
 *
 * - A client that goes away while waiting stops the wait, not the work: the work still runs, its one
 *   credit stays charged (refunded if the work fails, as always), and its result can be fetched with
 *   its trans_id, or by sending the same request again with the same Idempotency-Key.
 * - Idempotency-Key: the work's trans_id is derived from the account and the key, so a repeat finds
 *   the same work (no second upload, no second charge) and two repeats racing insert one row: the
 *   loser's transaction, charge included, rolls back and it waits for the winner's work.
 * - At most SYNC_WAITS waits at once per account and per process (429 beyond): a waiting call holds a
 *   connection and reads a row every second at most, so their number is bounded.
 */
import { API_PREVIEW_MEGAPIXELS, type ApiSize } from '../../src/shared/domain/apiPlans.js';
import { isModuleName, isPreset, MODULE_PARAMS, parseJobConfig } from '../../src/shared/domain/modules.js';
import { creditsLeft } from '../../src/shared/domain/plans.js';
import { stepsScale } from '../../src/shared/domain/resultSize.js';
import { MATTING_ALIASES } from '../../src/shared/schemas/processing.js';
import { ApiError, refused } from '../errors.js';
import { releaseFreePreview, takeFreePreview } from '../repositories/apiPreviewRepository.js';
import { applyOutput, fitImage, inputLimitsFor, type OutputOptions } from './apiImage.js';
import type { DownloadFile } from './downloads.js';
import { ConcurrencyGate } from './gates.js';
import { checkIdempotencyKey, idForKey } from './idempotency.js';
import type { ServiceBase } from './base.js';
import type { WebhookService } from './webhooks.js';
import type { ApiTokenService } from './apiTokens.js';
import type { CreditService } from './credits.js';
import type { DownloadService } from './downloads.js';
import type { JobService } from './jobs.js';
import type { UploadService } from './uploads.js';
import type { ProgressView } from './jobs.js';
import type { EnlargePath } from '../../src/shared/domain/enlargePath.js';
import { decodeJconfig } from './jconfig.js';
import { fieldRefusal } from './schemaCheck.js';
import type { Principal } from './tokens.js';

/** What this service uses: the base (database, configuration, blobs) and the services it calls. */
type Deps = ServiceBase & {
  services: {
    apiTokens: ApiTokenService;
    credits: CreditService;
    downloads: DownloadService;
    jobs: JobService;
    uploads: UploadService;
    webhooks: WebhookService;
  };
};

/** Waits at once: per account (a Pro account's batch) and per API process. */
const SYNC_WAITS = { perAccount: 10, total: 200 } as const;
/** Inputs scaled down at once (a decode of up to 100 MP each): per account and per API process (429 beyond). */
const FIT = new ConcurrencyGate(4, 6);
/** Row reads while waiting: first after this, then each gap 1.5× the last, at most POLL_MAX_MS. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1000;

export interface ProcessInput {
  /** the image's bytes, or `url` to fetch it from */
  file?: { data: Buffer; filename: string };
  url?: string;
  /** the job: jconfig (JSON text or object), or a feature (or preset) with its params as fields */
  jconfig?: unknown;
  feature?: string;
  params: Record<string, unknown>;
  /** seconds to wait for the result (1–SYNC_WAIT_MAX_S of the route schema) */
  wait: number;
  /** auto (default): scaled down to the plan; preview: a result of at most API_PREVIEW_MEGAPIXELS; full: as sent */
  size?: ApiSize;
  /** the result's format, background and crop (docs/api.md) */
  output?: OutputOptions;
  /** a checked webhook_url: POSTed when the work ends (webhooks.ts) */
  webhookUrl?: string;
  idempotencyKey?: string;
  /** aborted when the client goes away */
  signal: AbortSignal;
}

/** How the input was sized and what the free previews are at (the answer's X-Input-Downscaled, X-Free-Previews-Left). */
export interface Sizing {
  downscaled: boolean;
  freePreview: boolean;
  freePreviewsLeft?: number;
}

export type ProcessOutcome =
  /** the work finished: its result file (in the output asked for) and its size */
  | {
      status: 'finished';
      transId: string;
      file: DownloadFile;
      w: number;
      h: number;
      /** a work with an enlarge step: the path its enlargement took (the answer's X-Enlarge-Path) */
      enlargePath?: EnlargePath;
      charged: number;
      creditsLeft: number;
      sizing: Sizing;
    }
  /** the wait ended (or the client left) while the work still runs */
  | {
      status: 'running';
      transId: string;
      progress: ProgressView;
      charged: number;
      creditsLeft: number;
      sizing: Sizing;
    };

/** Other names of features, as other background-removal APIs call them (listed in the document's feature enum). */
const FEATURE_ALIASES: Readonly<Record<string, string>> = Object.fromEntries(
  MATTING_ALIASES.map((a) => [a, 'matting']),
);

/** The jconfig a feature and its param fields mean: a preset takes no params, a module its own. */
function jconfigOf(name: string, params: Record<string, unknown>): unknown {
  const feature = FEATURE_ALIASES[name] ?? name;
  const names = Object.keys(params);
  if (isPreset(feature)) {
    if (names.length) throw fieldRefusal('fieldUnknown', names[0]!);
    return { job: feature };
  }
  if (!isModuleName(feature)) throw refused({ reason: 'unknownJob', field: 'feature' });
  const own = MODULE_PARAMS[feature];
  const stranger = names.find((n) => !Object.hasOwn(own, n));
  if (stranger) throw refused({ reason: 'paramUnknown', field: stranger, module: feature, param: stranger });
  return { job: feature, config: { module: feature, module_params: params } };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class ProcessService {
  private readonly gate = new ConcurrencyGate(SYNC_WAITS.perAccount, SYNC_WAITS.total);

  constructor(private readonly deps: Deps) {}

  /** Checks the request's shape before anything is stored: one image source, one job, a well-formed key. */
  validate(input: Omit<ProcessInput, 'signal' | 'wait'>): { jconfig: unknown } {
    if (input.idempotencyKey !== undefined) checkIdempotencyKey(input.idempotencyKey);
    if (input.file && input.url) throw fieldRefusal('fieldInvalid', 'url', 'left out when a file is sent');
    if (!input.file && !input.url) throw fieldRefusal('fieldRequired', 'file');
    if (input.jconfig !== undefined && input.jconfig !== '') {
      const other = input.feature !== undefined ? 'feature' : Object.keys(input.params)[0];
      if (other !== undefined) throw fieldRefusal('fieldInvalid', other, 'left out when jconfig is sent');
      return { jconfig: decodeJconfig(input.jconfig) };
    }
    if (input.feature === undefined || input.feature === '') throw fieldRefusal('fieldRequired', 'jconfig');
    return { jconfig: jconfigOf(input.feature, input.params) };
  }

  /** The work an Idempotency-Key already started for this caller, if any. */
  async replayed(p: Principal, key: string | undefined): Promise<string | undefined> {
    if (key === undefined) return undefined;
    const transId = idForKey(p.accountId, key);
    return (await this.exists(p, transId)) ? transId : undefined;
  }

  private async exists(p: Principal, transId: string): Promise<boolean> {
    return this.deps.services.jobs.owned(p, transId).then(
      () => true,
      (e: unknown) => {
        if (e instanceof ApiError && e.httpStatus === 404) return false;
        throw e;
      },
    );
  }

  /** Uploads, starts (charging one credit) and waits for one work; or, for a replayed key, waits for the work it started. */
  async run(p: Principal, input: ProcessInput): Promise<ProcessOutcome> {
    return this.gate.run(String(p.accountId), async () => {
      const { jconfig } = this.validate(input);
      const job = (jconfig as { job?: unknown }).job;
      const compress = job === 'compress';
      let transId = await this.replayed(p, input.idempotencyKey);
      let charged = 0;
      const sizing: Sizing = { downscaled: false, freePreview: false };
      const size = input.size ?? 'auto';
      if (!transId) {
        const uploadJob = isModuleName(job) ? job : '';
        const uploads = this.deps.services.uploads;
        const upload = await this.uploadSized(p, input, jconfig, uploadJob, size, sizing);
        const wanted = input.idempotencyKey === undefined ? undefined : idForKey(p.accountId, input.idempotencyKey);
        const now = Date.now();
        const limit = this.deps.config.apiFreePreviewsPerMonth;
        sizing.freePreview = size === 'preview' && (await takeFreePreview(this.deps.db, p.accountId, limit, now));
        let started = false;
        try {
          const out = await this.deps.services.jobs.transform(
            p,
            { uid: upload.uid, jconfig: jconfig as object },
            wanted,
            { free: sizing.freePreview },
          );
          transId = out.trans_id;
          charged = out.charged;
          started = true;
          if (input.webhookUrl) await this.deps.services.webhooks.register(p, transId, input.webhookUrl);
        } catch (e) {
          // Two requests with one key: the other's work won the insert (this charge rolled back with it).
          if (!wanted || !(await this.exists(p, wanted))) throw e;
          transId = wanted;
        } finally {
          if (!started && sizing.freePreview) {
            await releaseFreePreview(this.deps.db, p.accountId, now).catch(() => undefined);
            sizing.freePreview = false;
          }
          // The work's upload stays, like any upload (the work's source); a refused call's or a replay's goes at once.
          if (!started) await uploads.remove(p, [upload.uid]).catch(() => undefined);
        }
        if (size === 'preview')
          sizing.freePreviewsLeft = await this.deps.services.apiTokens.freePreviewsLeft(p.accountId);
      }
      const progress = await this.waitFor(p, transId, input.wait * 1000, input.signal);
      const balance = await this.deps.services.credits.balance(p.accountId);
      const left = compress ? balance.compress_left : creditsLeft(balance.max_num, balance.used_num);
      if (progress.status === 'progress')
        return { status: 'running', transId, progress, charged, creditsLeft: left, sizing };
      if (progress.status === 'fatal')
        throw refused({ reason: progress.error === 'timeout' ? 'processTimeout' : 'processFailed', trans_id: transId });
      const file = await this.deps.services.downloads.result(p, transId);
      const bytes = 'data' in file ? file.data : await this.deps.blobs.read(file.key);
      const out = await applyOutput(bytes, file.ext, input.output ?? {});
      const name = out.ext === file.ext ? file.name : file.name.replace(/\.[A-Za-z0-9]+$/, '') + `.${out.ext}`;
      return {
        status: 'finished',
        transId,
        file: { ext: out.ext, name, data: out.data },
        w: out.w,
        h: out.h,
        ...(progress.enlarge_path ? { enlargePath: progress.enlarge_path } : {}),
        charged,
        creditsLeft: left,
        sizing,
      };
    });
  }

  /**
   * The upload of the call's image at the size asked for: `full` as sent (the plan's limits refuse a larger
   * one), `auto` scaled down to the plan's megapixels and side as the web app does, `preview` scaled so the
   * result (the job's scale times the input) is at most API_PREVIEW_MEGAPIXELS. Compress works keep their
   * size under auto (compress uploads may be far above the plan). An image by URL is fetched by the upload
   * call (its SSRF rules and refusals) with compress's larger limits, then scaled and stored as the work's upload.
   */
  private async uploadSized(
    p: Principal,
    input: ProcessInput,
    jconfig: unknown,
    uploadJob: string,
    size: ApiSize,
    sizing: Sizing,
  ) {
    const uploads = this.deps.services.uploads;
    const job = (jconfig as { job?: unknown }).job;
    const resize = size === 'preview' || (size === 'auto' && job !== 'compress');
    if (!resize)
      return input.file
        ? uploads.uploadWhole(p, { file: input.file.data, filename: input.file.filename, job: uploadJob })
        : uploads.uploadFromUrl(p, input.url!, uploadJob);
    let file = input.file;
    if (!file) {
      const fetched = await uploads.uploadFromUrl(p, input.url!, 'compress');
      try {
        const src = await uploads.source(p, fetched.uid);
        file = { data: await this.deps.blobs.read(src.key), filename: src.filename };
      } finally {
        await uploads.remove(p, [fetched.uid]).catch(() => undefined);
      }
    }
    const parsed = parseJobConfig(jconfig, p.level);
    const scale = parsed.ok ? stepsScale(parsed.value.steps.map((s) => s.config)) : 1;
    const plan = { maxMegapixels: p.limits.maxMegapixels, maxSidePx: p.limits.maxSidePx };
    const limits =
      size === 'preview'
        ? inputLimitsFor(
            { maxMegapixels: Math.min(API_PREVIEW_MEGAPIXELS, plan.maxMegapixels), maxSidePx: plan.maxSidePx },
            scale,
          )
        : plan;
    const fitted = await FIT.run(String(p.accountId), () => fitImage(file.data, limits));
    sizing.downscaled = fitted.downscaled;
    return uploads.uploadWhole(p, { file: fitted.data, filename: file.filename, job: uploadJob });
  }

  /** Reads the work's row until it ends, `ms` pass or `signal` aborts; answers its last progress. */
  private async waitFor(p: Principal, transId: string, ms: number, signal: AbortSignal): Promise<ProgressView> {
    const jobs = this.deps.services.jobs;
    const deadline = Date.now() + ms;
    let gap = POLL_FIRST_MS;
    for (;;) {
      const progress = await jobs.progress(p, transId);
      const left = deadline - Date.now();
      if (progress.status !== 'progress' || left <= 0 || signal.aborted) return progress;
      await sleep(Math.min(gap, left), signal);
      gap = Math.min(POLL_MAX_MS, gap * 1.5);
    }
  }
}
