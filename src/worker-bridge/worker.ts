/**
 * The image worker's lifecycle: the Comlink worker started on first use (the main-thread fallback when
 * it cannot start), one per page for uploads, the simple tools and on-device processing alike, and
 * stopped when nothing has used it for WORKER_IDLE_MS (its decode buffers, pica tiles and onnxruntime
 * sessions go with it); the next use starts it again.
 */
import * as Comlink from 'comlink';
import type { ImageWorkerApi } from '../../src-worker/index.js';

export type Api = ImageWorkerApi | Comlink.Remote<ImageWorkerApi>;

export interface Started {
  api: Api;
  runtime: 'worker' | 'main';
  terminate?: () => void;
}

/** How long a new worker gets to answer its first ping before the main-thread fallback. */
const WORKER_START_TIMEOUT_MS = 10_000;

/** An idle worker is stopped and restarted on demand. */
const WORKER_IDLE_MS = 10_000;

async function startWorker(): Promise<{ remote: Comlink.Remote<ImageWorkerApi>; worker: Worker } | undefined> {
  if (typeof Worker === 'undefined') return undefined;
  let worker: Worker | undefined;
  try {
    worker = new Worker(new URL('../../src-worker/index.ts', import.meta.url), {
      type: 'module',
      name: 'pixmill-image',
    });
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

/** The worker, or the same functions on the main thread where no module worker starts (or when forced). */
async function startApi(forceMain: boolean): Promise<Started> {
  const started = forceMain ? undefined : await startWorker();
  if (started) {
    const { remote, worker } = started;
    return { api: remote, runtime: 'worker', terminate: () => (remote[Comlink.releaseProxy](), worker.terminate()) };
  }
  const mod = await import('../../src-worker/api.js');
  return { api: mod.api, runtime: 'main' };
}

/**
 * One started worker shared by its users. A user holds it (hold/release, or run) while it needs it
 * across awaits; with no holder, it is stopped WORKER_IDLE_MS after the last use.
 */
export class WorkerHandle {
  private startedP?: Promise<Started>;
  private idleTimer?: ReturnType<typeof setTimeout>;
  private holders = 0;

  constructor(
    private readonly start: () => Promise<Started>,
    private readonly idleMs: number = WORKER_IDLE_MS,
  ) {}

  /** The worker, started if needed; any use postpones the idle stop. */
  get(): Promise<Started> {
    clearTimeout(this.idleTimer);
    this.startedP ??= this.start();
    if (this.holders === 0) this.stopWhenIdle();
    return this.startedP;
  }

  hold(): void {
    this.holders++;
    clearTimeout(this.idleTimer);
  }

  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders === 0) this.stopWhenIdle();
  }

  /** Runs `fn` with the worker held, so it cannot stop under the call. */
  async run<T>(fn: (s: Started) => Promise<T>): Promise<T> {
    this.hold();
    try {
      return await fn(await this.get());
    } finally {
      this.release();
    }
  }

  /** Whether a worker (or the main-thread fallback) is started now. */
  get running(): boolean {
    return this.startedP !== undefined;
  }

  private stopWhenIdle(): void {
    clearTimeout(this.idleTimer);
    if (!this.startedP) return;
    this.idleTimer = setTimeout(() => {
      const current = this.startedP;
      if (this.holders > 0 || !current) return;
      this.startedP = undefined;
      void current.then((s) => s.terminate?.());
    }, this.idleMs);
    // Never keeps a node test process alive.
    (this.idleTimer as { unref?: () => void }).unref?.();
  }
}

const handles = new Map<boolean, WorkerHandle>();
/** The page's one image worker (per runtime choice: tests and old browsers force the main thread). */
export function sharedWorker(forceMainThread = false): WorkerHandle {
  let h = handles.get(forceMainThread);
  if (!h) handles.set(forceMainThread, (h = new WorkerHandle(() => startApi(forceMainThread))));
  return h;
}
