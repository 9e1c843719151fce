/**
 * The UI's only way to the image worker (Squoosh's worker-bridge practice): starts the Comlink worker,
 * falls back to running the same functions on the main thread when the worker cannot start, maps
 * AbortSignals onto the worker's abort, and runs the upload queue (spec §5/§9 limits and lanes).
 */
import { MODEL_BYTES, RUNTIME_BYTES } from '../../src-worker/ondevice/models.js';
import { OWN_NETS } from '../imaging/ownNets.js';
import * as Comlink from 'comlink';
import { CHUNK_UPLOADS_IN_FLIGHT, WHOLE_FILE_UPLOADS_IN_FLIGHT } from '../domain/constants.js';
import { limitsFor, type Level } from '../domain/plans.js';
import type { ImageWorkerApi } from '../../src-worker/index.js';
import type { EditOp, EditResult } from '../../src-worker/editImage.js';
import { COMPRESS_JOB } from '../../src-worker/limits.js';
import { sanitizeFilename } from '../domain/filename.js';
import { ON_DEVICE_LEVEL, type OnDeviceFeature, type OnDeviceOptions } from '../domain/onDevice.js';

export type { ImageWorkerApi, EditOp, EditResult };

/** What the UI hears about one upload; defined once, beside the pipeline that emits it. */
export type { UploadEvent } from '../../src-worker/pipeline.js';
import type { UploadEvent } from '../../src-worker/pipeline.js';

export interface AddContext {
  level: Level;
  job: string;
  queued: number;
  perTypeCount: number;
  /** aborting it cancels every file this call accepted (same as cancel(cid) for each) */
  signal?: AbortSignal;
  /** "Process on this device": fitted to ON_DEVICE_LEVEL and kept in the browser, never uploaded */
  keepOnDevice?: boolean;
}

export interface AddResult {
  accepted: { cid: string; filename: string }[];
  rejected: { filename: string; error: string }[];
  error?: string;
}

export interface UploadManager {
  add(files: File[], ctx: AddContext): Promise<AddResult>;
  subscribe(listener: (e: UploadEvent) => void): () => void;
  cancel(cid: string): void;
  /** Once at startup: resumes uploads a reload interrupted. */
  resumePending(): Promise<void>;
  /** Uploads parked while offline, in the order they were dropped (status waitingForNetwork). */
  waitingForNetwork(): string[];
  /** Tries the parked uploads now (the `online` event, a Background Sync message). */
  retryNow(): void;
  /** Where the pipeline runs: 'worker', or 'main' after the fallback. */
  runtime(): Promise<'worker' | 'main'>;
}

export interface UploadManagerOptions {
  getToken: () => Promise<string>;
  apiBase: string;
  /** tests and browsers without module workers: run on the main thread */
  forceMainThread?: boolean;
}

type Api = ImageWorkerApi | Comlink.Remote<ImageWorkerApi>;
/** How long a new worker gets to answer its first ping before the main-thread fallback. */
const WORKER_START_TIMEOUT_MS = 10_000;

async function startWorker(): Promise<{ remote: Comlink.Remote<ImageWorkerApi>; worker: Worker } | undefined> {
  if (typeof Worker === 'undefined') return undefined;
  let worker: Worker | undefined;
  try {
    worker = new Worker(new URL('../../src-worker/index.ts', import.meta.url), { type: 'module', name: 'pixmill-image' });
    const remote = Comlink.wrap<ImageWorkerApi>(worker);
    const w = worker;
    const answer = await new Promise<string | false>((resolve) => {
      const timer = setTimeout(() => resolve(false), WORKER_START_TIMEOUT_MS);
      w.addEventListener('error', () => resolve(false), { once: true });
      remote.ping().then(
        (p) => (clearTimeout(timer), resolve(p)),
        () => resolve(false),
      );
    });
    if (answer === 'pong') return { remote, worker: w };
  } catch {
    // falls through to the main thread
  }
  worker?.terminate();
  return undefined;
}

interface Started {
  api: Api;
  runtime: 'worker' | 'main';
  terminate?: () => void;
}

async function startApi(forceMain: boolean): Promise<Started> {
  const started = forceMain ? undefined : await startWorker();
  if (started) {
    const { remote, worker } = started;
    return { api: remote, runtime: 'worker', terminate: () => (remote[Comlink.releaseProxy](), worker.terminate()) };
  }
  const mod = await import('../../src-worker/api.js');
  return { api: mod.api, runtime: 'main' };
}

/** Retry delays for parked uploads when no `online` event comes (the browser may not notice the network). */
export const OFFLINE_RETRY_MS = [2_000, 4_000, 8_000, 16_000, 30_000, 60_000] as const;
const isOffline = () => (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;

/** An idle worker is stopped (its decode buffers and pica tiles go with it) and restarted on demand. */
export const WORKER_IDLE_MS = 10_000;

/** The Background Sync tag; the service worker answers its sync event with a message of the same name. */
export const UPLOAD_SYNC_TAG = 'pixmill-uploads';

interface QueuedUpload {
  cid: string;
  sliced: boolean;
}

class Manager implements UploadManager {
  private readonly listeners = new Set<(e: UploadEvent) => void>();
  private startedP?: Promise<Started>;
  private idleTimer?: ReturnType<typeof setTimeout>;
  private preparing: Promise<unknown> = Promise.resolve();
  /** cids accepted and not yet done/failed/cancelled */
  private readonly pending = new Set<string>();
  private readonly cancelled = new Set<string>();
  private readonly waiting: QueuedUpload[] = [];
  private readonly inFlight = new Map<string, { sliced: boolean; ctrl: AbortController }>();
  /** Uploads waiting for the network, oldest first; they go back to `waiting` in this order. */
  private readonly parked: QueuedUpload[] = [];
  private retryTimer?: ReturnType<typeof setTimeout>;
  private retryStep = 0;
  private resumed = false;
  private readonly emitProxy: (e: UploadEvent) => void;

  constructor(private readonly opts: UploadManagerOptions) {
    const emit = (e: UploadEvent) => this.emit(e);
    this.emitProxy = Comlink.proxy(emit);
    if (typeof addEventListener === 'function') addEventListener('online', () => this.retryNow());
  }

  waitingForNetwork(): string[] {
    return this.parked.map((p) => p.cid);
  }

  retryNow(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.retryStep = 0;
    this.unpark();
  }

  private park(next: QueuedUpload): void {
    if (!this.parked.some((p) => p.cid === next.cid)) this.parked.push(next);
    this.parked.sort((a, b) => this.order(a.cid) - this.order(b.cid));
    this.requestSync();
    if (this.retryTimer) return;
    const delay = OFFLINE_RETRY_MS[Math.min(this.retryStep++, OFFLINE_RETRY_MS.length - 1)];
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (isOffline()) return void this.park(this.parked[0] ?? next);
      this.unpark();
    }, delay);
    (this.retryTimer as { unref?: () => void }).unref?.();
  }

  /** Parked uploads go back to the front of the queue, in drop order. */
  private unpark(): void {
    if (!this.parked.length || isOffline()) return;
    const back = this.parked.splice(0);
    this.waiting.unshift(...back.filter((b) => !this.waiting.some((w) => w.cid === b.cid)));
    this.pump();
  }

  /** Drop order: the cids are remembered as they are accepted (resumed items by their stored age). */
  private readonly seq = new Map<string, number>();
  private order(cid: string): number {
    if (!this.seq.has(cid)) this.seq.set(cid, this.seq.size);
    return this.seq.get(cid)!;
  }

  /** Background Sync where the browser has it: the service worker wakes the page when the network returns. */
  private requestSync(): void {
    const sw = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerContainer } }).navigator?.serviceWorker;
    void sw?.ready
      .then((reg) => (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(UPLOAD_SYNC_TAG))
      .catch(() => undefined);
  }

  /** The worker (started if needed); any use postpones the idle stop. */
  private get started(): Promise<Started> {
    clearTimeout(this.idleTimer);
    this.startedP ??= startApi(!!this.opts.forceMainThread);
    return this.startedP;
  }

  private get busy(): boolean {
    return this.pending.size > 0 || this.inFlight.size > 0 || this.waiting.length > 0 || this.parked.length > 0;
  }

  /** Schedules the idle stop once nothing is queued, preparing or uploading. */
  private idleLater(): void {
    if (this.busy || !this.startedP) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const current = this.startedP;
      if (this.busy || !current) return;
      this.startedP = undefined;
      void current.then((s) => s.terminate?.());
    }, WORKER_IDLE_MS);
    // Never keeps a node test process alive.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }

  runtime() {
    return this.started.then((s) => s.runtime);
  }

  subscribe(listener: (e: UploadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: UploadEvent): void {
    if (this.cancelled.has(e.cid)) return;
    if (e.status === 'imageTooLarge' || e.status === 'uploadFailed' || e.status === 'ready') this.pending.delete(e.cid);
    for (const l of this.listeners) l(e);
    this.idleLater();
  }

  async add(files: File[], ctx: AddContext): Promise<AddResult> {
    const { api } = await this.started;
    const { signal, keepOnDevice, ...limits } = ctx;
    const queued = Math.max(ctx.queued, this.pending.size);
    let check = await api.checkBatch(files.length, { ...limits, queued });
    // A plan that takes one image at a time keeps the first of several and says why the rest were
    // left out (the batch reason, then each name), instead of losing them all.
    let leftOut: File[] = [];
    if (check.error === 'upload:onlyPaidMultiple' && files.length > 1) {
      const one = await api.checkBatch(1, { ...limits, queued });
      if (!one.error) {
        leftOut = files.slice(1);
        files = files.slice(0, 1);
        check = { ...one, error: check.error };
      }
    }
    if (check.error && !leftOut.length) {
      return { accepted: [], rejected: files.map((f) => ({ filename: sanitizeFilename(f.name), error: check.error! })), error: check.error };
    }
    const result: AddResult = { accepted: [], rejected: leftOut.map((f) => ({ filename: sanitizeFilename(f.name), error: 'upload:firstKept' })) };
    if (check.error) result.error = check.error;
    const compressMax = limitsFor(keepOnDevice ? ON_DEVICE_LEVEL : ctx.level).compressMaxBytes;
    for (const [i, file] of files.entries()) {
      if (i >= check.accept) {
        result.rejected.push({ filename: sanitizeFilename(file.name), error: 'upload:queueFull' });
        continue;
      }
      const v = await api.validate(file);
      if (!v.ok) {
        result.rejected.push({ filename: v.filename, error: v.error });
      } else if (ctx.job === COMPRESS_JOB && file.size > compressMax) {
        // Spec §5: refused outright, nothing is uploaded.
        result.rejected.push({ filename: v.filename, error: 'upload:fileTooLarge' });
      } else {
        const cid = newCid();
        this.order(cid);
        result.accepted.push({ cid, filename: v.filename });
        this.pending.add(cid);
        this.enqueuePrepare(cid, file, ctx);
      }
    }
    this.idleLater();
    if (signal) {
      const cids = result.accepted.map((a) => a.cid);
      const cancelAll = () => cids.forEach((cid) => this.cancel(cid));
      if (signal.aborted) cancelAll();
      else signal.addEventListener('abort', cancelAll, { once: true });
    }
    return result;
  }

  private enqueuePrepare(cid: string, file: File, ctx: AddContext): void {
    // One file decoded at a time: a 16 MB JPEG decodes to ~70 MB of pixels.
    this.preparing = this.preparing.then(async () => {
      if (this.cancelled.has(cid)) return;
      const { api } = await this.started;
      try {
        // Items of uploads still under way here are not taken over by a second drop of the same file.
        const busy = [...this.pending].filter((c) => c !== cid);
        // Only plain data crosses to the worker (an AbortSignal cannot be cloned).
        const keep = !!ctx.keepOnDevice;
        const prepared = await api.prepare({ cid, file, level: keep ? ON_DEVICE_LEVEL : ctx.level, job: ctx.job, busy, keep }, this.emitProxy);
        // Refused while being prepared after it was cancelled: its stored refusal goes too.
        if (!prepared.ok) return void (this.cancelled.has(cid) && (await api.discard(cid)));
        // Kept on this device: stored and announced ready by prepare; it never enters the upload queue.
        if (keep) return void this.pending.delete(cid);
        // Cancelled while it was being prepared: the item was stored meanwhile, drop it.
        if (this.cancelled.has(cid)) return void (await api.discard(cid));
        this.waiting.push({ cid, sliced: prepared.sliced });
        this.pump();
      } catch {
        this.emit({ cid, status: 'uploadFailed', error: 'upload:unknown' });
      }
    });
  }

  /** Starts queued uploads while their lane has room: two whole files, one slice stream. */
  private pump(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const next = this.waiting[i];
      const busy = [...this.inFlight.values()].filter((f) => f.sliced === next.sliced).length;
      const room = next.sliced ? CHUNK_UPLOADS_IN_FLIGHT : WHOLE_FILE_UPLOADS_IN_FLIGHT;
      if (busy >= room) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      void this.runOne(next);
    }
  }

  private async runOne(next: QueuedUpload): Promise<void> {
    if (isOffline()) {
      // Stored with its fitted bytes; shown as waiting for the network until the connection returns.
      this.park(next);
      this.emit({ cid: next.cid, status: 'waitingForNetwork' });
      return;
    }
    const ctrl = new AbortController();
    this.inFlight.set(next.cid, { sliced: next.sliced, ctrl });
    let parked = false;
    try {
      const { api } = await this.started;
      const signal = ctrl.signal;
      const onAbort = () => void api.abort(next.cid);
      signal.addEventListener('abort', onAbort, { once: true });
      let token: string;
      try {
        token = await this.opts.getToken();
      } catch {
        this.emit({ cid: next.cid, status: 'uploadFailed', error: 'upload:network' });
        return;
      }
      if (signal.aborted) return;
      parked = (await api.upload(next.cid, { apiBase: this.opts.apiBase, token }, this.emitProxy)) === 'offline';
      signal.removeEventListener('abort', onAbort);
      if (parked) this.park(next);
    } catch {
      this.emit({ cid: next.cid, status: 'uploadFailed', error: 'upload:unknown' });
    } finally {
      this.inFlight.delete(next.cid);
      if (!parked) this.pending.delete(next.cid);
      this.pump();
      this.idleLater();
    }
  }

  cancel(cid: string): void {
    this.cancelled.add(cid);
    this.pending.delete(cid);
    const queuedAt = this.waiting.findIndex((q) => q.cid === cid);
    if (queuedAt >= 0) this.waiting.splice(queuedAt, 1);
    const parkedAt = this.parked.findIndex((q) => q.cid === cid);
    if (parkedAt >= 0) this.parked.splice(parkedAt, 1);
    const running = this.inFlight.get(cid);
    if (running) running.ctrl.abort();
    else void this.started.then(({ api }) => api.discard(cid)).then(() => this.idleLater());
  }

  async resumePending(): Promise<void> {
    if (this.resumed) return;
    this.resumed = true;
    const { api } = await this.started;
    for (const item of await api.resumable()) {
      if (this.pending.has(item.cid)) continue;
      this.pending.add(item.cid);
      this.order(item.cid);
      const progress = item.acked.length / item.totalSlices;
      this.emit({ cid: item.cid, status: 'uploading', progress, filename: item.filename, filesize: item.filesize, w: item.w, h: item.h, thumbnail: item.thumbnail });
      this.waiting.push({ cid: item.cid, sliced: item.totalSlices > 1 });
    }
    this.pump();
    this.idleLater();
  }
}

function newCid(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `cid-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

let manager: Manager | undefined;

let shared: Promise<Started> | undefined;
/** The image worker's API itself (benchmarks, diagnostics); its own worker, never stopped. */
export function imageWorker(forceMainThread = false): Promise<Started> {
  shared ??= startApi(forceMainThread);
  return shared;
}

/** The one upload manager of the page (the first call's options win). */
export function getUploadManager(opts: UploadManagerOptions): UploadManager {
  manager ??= new Manager(opts);
  return manager;
}

/** The simple tools' one call: runs in the shared image worker (main-thread fallback), says where it ran. */
export async function editImage(file: Blob, op: EditOp): Promise<EditResult & { runtime: 'worker' | 'main' }> {
  const { api, runtime } = await imageWorker();
  return { ...(await api.editImage(file, op)), runtime };
}

export type { OnDeviceFeature };
export interface OnDeviceProgress {
  phase: string;
  loaded: number;
  total: number;
}

/**
 * "Process on this device": runs in the shared image worker (onnxruntime-web and the model load on
 * first use); `source` is a file or the cid of a work whose fitted bytes are stored on this device.
 */
export async function processOnDevice(feature: OnDeviceFeature, source: Blob | string, onProgress?: (p: OnDeviceProgress) => void, options: OnDeviceOptions = {}) {
  const { api, runtime } = await imageWorker();
  const cb = onProgress ? (runtime === 'worker' ? Comlink.proxy(onProgress) : onProgress) : undefined;
  return api.processOnDevice(feature, source, cb, options);
}

/** What the first on-device use of a feature downloads on this device (WebGPU or WASM runtime) and where it runs. */
export async function onDeviceFirstUse(feature: OnDeviceFeature): Promise<{ bytes: number; provider: string; reason: string }> {
  const { api } = await imageWorker();
  return api.onDeviceFirstUse(feature);
}

/** Bytes to download before the first on-device use of a feature (model + WASM runtime), for the notice: the worker's own figures (src-worker/ondevice/models.ts). */
export const ON_DEVICE_DOWNLOAD_BYTES: Record<OnDeviceFeature, number> = {
  enlarge: MODEL_BYTES[OWN_NETS.x2] + RUNTIME_BYTES,
  matting: MODEL_BYTES['isnet-small'] + RUNTIME_BYTES,
  compress: 0,
};
