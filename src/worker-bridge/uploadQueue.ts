/**
 * The upload queue (spec §5/§9 limits and lanes): accepted files are prepared one at a time in the
 * image worker, then uploaded two whole files or one slice stream at a time; uploads the network
 * dropped wait in NetworkWait; uploads a reload interrupted resume from their stored slices.
 */
import * as Comlink from 'comlink';
import { CHUNK_UPLOADS_IN_FLIGHT, WHOLE_FILE_UPLOADS_IN_FLIGHT } from '../shared/domain/constants.js';
import { ON_DEVICE_LEVEL } from '../shared/domain/onDevice.js';
import type { UploadEvent } from '../../src-worker/pipeline.js';
import { admit, type BatchContext } from './batch.js';
import { isOffline, NETWORK_REPARKS, NetworkWait, type QueuedUpload } from './networkWait.js';
import { sharedWorker, type WorkerHandle } from './worker.js';

interface AddContext extends BatchContext {
  /** aborting it cancels every file this call accepted (same as cancel(cid) for each) */
  signal?: AbortSignal;
  /** "Process on this device": fitted to ON_DEVICE_LEVEL and kept in the browser, never uploaded */
  keepOnDevice?: boolean;
}

interface AddResult {
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

class Manager implements UploadManager {
  private readonly listeners = new Set<(e: UploadEvent) => void>();
  private readonly worker: WorkerHandle;
  /** whether this queue holds the worker (while anything is queued, preparing or uploading) */
  private holding = false;
  private preparing: Promise<unknown> = Promise.resolve();
  /** cids accepted and not yet done/failed/cancelled */
  private readonly pending = new Set<string>();
  private readonly cancelled = new Set<string>();
  private readonly waiting: QueuedUpload[] = [];
  private readonly inFlight = new Map<string, { sliced: boolean; ctrl: AbortController }>();
  private readonly network: NetworkWait;
  /** uploads that came back from the park: how often a network error has parked them again since */
  private readonly reparked = new Map<string, number>();
  private resumed = false;
  private readonly emitProxy: (e: UploadEvent) => void;

  constructor(private readonly opts: UploadManagerOptions) {
    this.worker = sharedWorker(!!opts.forceMainThread);
    const emit = (e: UploadEvent) => this.emit(e);
    this.emitProxy = Comlink.proxy(emit);
    // Parked uploads go back to the front of the queue, in drop order.
    this.network = new NetworkWait(
      (cid) => this.order(cid),
      (back) => {
        for (const b of back) if (!this.reparked.has(b.cid)) this.reparked.set(b.cid, 0);
        this.waiting.unshift(...back.filter((b) => !this.waiting.some((w) => w.cid === b.cid)));
        this.pump();
      },
    );
  }

  waitingForNetwork(): string[] {
    return this.network.cids();
  }

  retryNow(): void {
    this.network.retryNow();
  }

  /** Drop order: the cids are remembered as they are accepted (resumed items by their stored age). */
  private readonly seq = new Map<string, number>();
  private order(cid: string): number {
    if (!this.seq.has(cid)) this.seq.set(cid, this.seq.size);
    return this.seq.get(cid)!;
  }

  private get busy(): boolean {
    return this.pending.size > 0 || this.inFlight.size > 0 || this.waiting.length > 0 || this.network.size > 0;
  }

  /** Holds the worker while anything is queued, preparing or uploading; lets it go (idle stop) after. */
  private syncHold(): void {
    if (this.busy && !this.holding) {
      this.holding = true;
      this.worker.hold();
    } else if (!this.busy && this.holding) {
      this.holding = false;
      this.worker.release();
    }
  }

  runtime() {
    return this.worker.get().then((s) => s.runtime);
  }

  subscribe(listener: (e: UploadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: UploadEvent): void {
    if (this.cancelled.has(e.cid)) return;
    if (e.status === 'imageTooLarge' || e.status === 'uploadFailed' || e.status === 'ready') this.pending.delete(e.cid);
    for (const l of this.listeners) l(e);
    this.syncHold();
  }

  add(files: File[], ctx: AddContext): Promise<AddResult> {
    return this.worker.run(async ({ api }) => {
      const { signal, ...batch } = ctx;
      const admitted = await admit(api, files, { ...batch, queued: Math.max(ctx.queued, this.pending.size) });
      const result: AddResult = {
        accepted: [],
        rejected: admitted.rejected,
        ...(admitted.error ? { error: admitted.error } : {}),
      };
      const now = Date.now();
      for (const [i, { file, filename }] of admitted.accepted.entries()) {
        const cid = newCid();
        this.order(cid);
        result.accepted.push({ cid, filename });
        this.pending.add(cid);
        // Stored as picked before anything else happens to it: a reload while it is prepared prepares it again.
        const kept = await api.keepOriginal({
          cid,
          file,
          filename: file.name,
          lastModified: file.lastModified,
          job: ctx.job,
          level: ctx.level,
          keep: !!ctx.keepOnDevice,
          createdAt: now - i,
        });
        if (!kept) this.emit({ cid, status: 'resizing', filename, notKept: true });
        this.enqueuePrepare(cid, file, ctx);
      }
      this.syncHold();
      if (signal) {
        const cids = result.accepted.map((a) => a.cid);
        const cancelAll = () => cids.forEach((cid) => this.cancel(cid));
        if (signal.aborted) cancelAll();
        else signal.addEventListener('abort', cancelAll, { once: true });
      }
      return result;
    });
  }

  private enqueuePrepare(cid: string, file: File, ctx: AddContext): void {
    // One file decoded at a time: a 16 MB JPEG decodes to ~70 MB of pixels.
    this.preparing = this.preparing.then(async () => {
      if (this.cancelled.has(cid)) return;
      const { api } = await this.worker.get();
      try {
        // Items of uploads still under way here are not taken over by a second drop of the same file.
        const busy = [...this.pending].filter((c) => c !== cid);
        // Only plain data crosses to the worker (an AbortSignal cannot be cloned).
        const keep = !!ctx.keepOnDevice;
        const prepared = await api.prepare(
          { cid, file, level: keep ? ON_DEVICE_LEVEL : ctx.level, job: ctx.job, busy, keep },
          this.emitProxy,
        );
        // Refused while being prepared after it was cancelled: its stored refusal goes too.
        if (!prepared.ok) return void (this.cancelled.has(cid) && (await api.discard(cid)));
        // Kept on this device: stored and announced ready by prepare; it never enters the upload queue.
        if (keep) return void this.pending.delete(cid);
        // Cancelled while it was being prepared: the item was stored meanwhile, drop it.
        if (this.cancelled.has(cid)) return void (await api.discard(cid));
        this.waiting.push({ cid, sliced: prepared.sliced });
        this.pump();
      } catch {
        // Its stored original goes too: a file that breaks the preparation is not prepared again on every load.
        await api.discard(cid).catch(() => undefined);
        this.emit({ cid, status: 'uploadFailed', error: 'upload:unknown' });
      } finally {
        this.syncHold();
      }
    });
  }

  /** Starts queued uploads while their lane has room: two whole files, one slice stream. */
  private pump(): void {
    for (let i = 0; i < this.waiting.length;) {
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
      this.network.park(next);
      this.emit({ cid: next.cid, status: 'waitingForNetwork' });
      return;
    }
    const ctrl = new AbortController();
    this.inFlight.set(next.cid, { sliced: next.sliced, ctrl });
    // Back from the park: the `online` event can come before the connection carries, so a network
    // error parks it again (the park's backing-off timer tries later), up to NETWORK_REPARKS times.
    const reparks = this.reparked.get(next.cid);
    const mayRepark = reparks !== undefined && reparks < NETWORK_REPARKS;
    let parked = false;
    try {
      const { api } = await this.worker.get();
      const signal = ctrl.signal;
      const onAbort = () => void api.abort(next.cid);
      signal.addEventListener('abort', onAbort, { once: true });
      let token: string;
      try {
        token = await this.opts.getToken();
      } catch {
        if (mayRepark) {
          parked = true;
          this.emit({ cid: next.cid, status: 'waitingForNetwork' });
        } else this.emit({ cid: next.cid, status: 'uploadFailed', error: 'upload:network' });
        return;
      }
      if (signal.aborted) return;
      parked =
        (await api.upload(next.cid, { apiBase: this.opts.apiBase, token }, this.emitProxy, mayRepark)) === 'offline';
      signal.removeEventListener('abort', onAbort);
    } catch {
      this.emit({ cid: next.cid, status: 'uploadFailed', error: 'upload:unknown' });
    } finally {
      this.inFlight.delete(next.cid);
      if (parked) {
        if (reparks !== undefined) this.reparked.set(next.cid, reparks + 1);
        this.network.park(next);
      } else {
        this.pending.delete(next.cid);
        this.reparked.delete(next.cid);
      }
      this.pump();
      this.syncHold();
    }
  }

  cancel(cid: string): void {
    this.cancelled.add(cid);
    this.reparked.delete(cid);
    this.pending.delete(cid);
    const queuedAt = this.waiting.findIndex((q) => q.cid === cid);
    if (queuedAt >= 0) this.waiting.splice(queuedAt, 1);
    this.network.remove(cid);
    const running = this.inFlight.get(cid);
    if (running) running.ctrl.abort();
    else void this.worker.run(({ api }) => api.discard(cid));
    this.syncHold();
  }

  async resumePending(): Promise<void> {
    if (this.resumed) return;
    this.resumed = true;
    await this.worker.run(async ({ api }) => {
      for (const item of await api.resumable()) {
        if (this.pending.has(item.cid)) continue;
        this.pending.add(item.cid);
        this.order(item.cid);
        const progress = item.acked.length / item.totalSlices;
        this.emit({
          cid: item.cid,
          status: 'uploading',
          progress,
          filename: item.filename,
          filesize: item.filesize,
          w: item.w,
          h: item.h,
          thumbnail: item.thumbnail,
        });
        this.waiting.push({ cid: item.cid, sliced: item.totalSlices > 1 });
      }
      // Picked files whose preparation a reload cut off: prepared again from their stored originals, in pick order.
      for (const o of await api.pendingOriginals()) {
        if (this.pending.has(o.cid)) continue;
        this.pending.add(o.cid);
        this.order(o.cid);
        this.emit({ cid: o.cid, status: 'resizing', filename: o.filename, filesize: o.file.size });
        const file = new File([o.file], o.filename, { type: o.file.type, lastModified: o.lastModified });
        this.enqueuePrepare(o.cid, file, {
          level: o.level,
          job: o.job,
          keepOnDevice: o.keep,
          queued: 0,
          perTypeCount: 0,
        });
      }
      this.pump();
      this.syncHold();
    });
  }
}

function newCid(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `cid-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

let manager: Manager | undefined;
/** The one upload manager of the page (the first call's options win). */
export function getUploadManager(opts: UploadManagerOptions): UploadManager {
  manager ??= new Manager(opts);
  return manager;
}
