/**
 * A pool of processing worker threads, each running one work at a time, with the hard kill of
 * spec §4: a work running past its limit gets its thread terminated and replaced. A thread that
 * dies (crash, OOM) is replaced too; its work fails with reason 'crashed'.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
// sharp is loaded in the main thread first so worker threads never unload libvips on exit.
import 'sharp';
import type { FromWorker, RunTask, TaskOutput, ToWorker } from './protocol.js';

export type FailureReason = 'timeout' | 'engine' | 'crashed' | 'stopped';

export class JobFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** workflow works get the limit per step instead of for the whole work */
  perStepTimeout: boolean;
  onStep?(index: number): void;
  onProgress?(index: number, fraction: number): void;
}

export interface PoolLogger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

interface Pending {
  task: RunTask;
  opts: RunOptions;
  resolve(out: TaskOutput): void;
  reject(err: JobFailure): void;
}

/** What the pool needs of a processing slot: a worker thread, or a slot process (slotProcess.ts). */
export interface SlotHandle {
  postMessage(msg: ToWorker): void;
  terminate(): Promise<number>;
  ref(): void;
  unref(): void;
  on(event: 'message', listener: (m: FromWorker) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
}

interface Slot {
  worker: SlotHandle;
  ready: boolean;
  dead: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
}

/** After this many threads in a row die before becoming ready, works fail at once instead of waiting. */
const BOOT_FAILURES_BROKEN = 3;

/** A worker thread running processWorker.ts: a pool slot by itself, or the thread inside a slot process. */
export function spawnProcessingThread(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(new URL('./processWorker.js', import.meta.url));
  // Node 20 ignores `--import tsx` in a worker's execArgv, so the worker registers tsx itself.
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const mjs = path.join(path.dirname(cjs), 'index.mjs');
  const api = pathToFileURL(fs.existsSync(mjs) ? mjs : cjs).href;
  const entry = new URL('./processWorker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true });
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Pending[] = [];
  private stopping = false;
  private bootFailures = 0;
  private respawnTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly size: number,
    private readonly timeoutMs: number,
    private readonly log: PoolLogger,
    private readonly spawn: () => SlotHandle = spawnProcessingThread,
  ) {}

  private slotsSpawned = false;

  // Slots are spawned on the first work and then kept: a server that never processes spawns nothing.

  private ensureSlots(): void {
    if (this.slotsSpawned) return;
    this.slotsSpawned = true;
    for (let i = 0; i < this.size; i++) this.addSlot();
  }

  /** Number of live threads (for tests and health). */
  get threads(): number {
    return this.slots.size;
  }

  run(task: RunTask, opts: RunOptions): Promise<TaskOutput> {
    if (this.stopping) return Promise.reject(new JobFailure('stopped', 'runner stopped'));
    if (this.bootFailures >= BOOT_FAILURES_BROKEN)
      return Promise.reject(new JobFailure('crashed', 'processing workers cannot start'));
    return new Promise<TaskOutput>((resolve, reject) => {
      this.waiting.push({ task, opts, resolve, reject });
      this.ensureSlots();
      this.dispatch();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.respawnTimers) clearTimeout(t);
    this.respawnTimers.clear();
    for (const p of this.waiting.splice(0)) p.reject(new JobFailure('stopped', 'runner stopped'));
    const ends: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      slot.dead = true;
      this.endCurrent(slot)?.reject(new JobFailure('stopped', 'runner stopped'));
      ends.push(this.end(slot.worker));
    }
    this.slots.clear();
    await Promise.all(ends);
  }

  private addSlot(): void {
    let worker: SlotHandle;
    try {
      worker = this.spawn();
    } catch (err) {
      this.log.error({ err }, 'cannot start a processing worker');
      this.bootFailures++;
      this.scheduleRespawn();
      return;
    }
    const slot: Slot = { worker, ready: false, dead: false, current: null, timer: null };
    this.slots.add(slot);
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m));
    worker.on('error', (err) => this.onDeath(slot, err));
    worker.on('exit', (code) => this.onDeath(slot, new Error(`processing worker exited with code ${code}`)));
    worker.unref();
  }

  private scheduleRespawn(): void {
    if (this.stopping) return;
    if (this.bootFailures >= BOOT_FAILURES_BROKEN)
      for (const p of this.waiting.splice(0)) p.reject(new JobFailure('crashed', 'processing workers cannot start'));
    const delay = this.bootFailures === 0 ? 0 : Math.min(30_000, 1000 * 2 ** (this.bootFailures - 1));
    const t = setTimeout(() => {
      this.respawnTimers.delete(t);
      if (!this.stopping) this.addSlot();
    }, delay);
    t.unref();
    this.respawnTimers.add(t);
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (slot.dead) return;
    if (m.type === 'ready') {
      slot.ready = true;
      this.bootFailures = 0;
      this.dispatch();
      return;
    }
    const cur = slot.current;
    if (!cur || m.id !== cur.task.id) return;
    switch (m.type) {
      case 'step':
        if (cur.opts.perStepTimeout) this.arm(slot);
        safely(() => cur.opts.onStep?.(m.index), this.log);
        break;
      case 'progress':
        safely(() => cur.opts.onProgress?.(m.index, m.fraction), this.log);
        break;
      case 'done':
        this.endCurrent(slot)?.resolve(m.output);
        this.dispatch();
        break;
      case 'error':
        this.endCurrent(slot)?.reject(new JobFailure('engine', m.message));
        this.dispatch();
        break;
    }
  }

  private onDeath(slot: Slot, err: unknown): void {
    if (slot.dead) return;
    slot.dead = true;
    this.slots.delete(slot);
    if (!slot.ready) this.bootFailures++;
    const cur = this.endCurrent(slot);
    if (!this.stopping) this.log.error({ err, transId: cur?.task.id }, 'processing worker died; replacing it');
    cur?.reject(new JobFailure(this.stopping ? 'stopped' : 'crashed', 'processing worker stopped unexpectedly'));
    void this.end(slot.worker);
    this.scheduleRespawn();
  }

  /** Terminates a slot; ref'd first so that awaiting its exit keeps the process alive until it is gone. */
  private end(worker: SlotHandle): Promise<unknown> {
    worker.ref();
    return worker.terminate().catch(() => undefined);
  }

  /** (Re)starts the kill timer of the slot's current work. */
  private arm(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.kill(slot), this.timeoutMs);
    slot.timer.unref();
  }

  private kill(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    this.slots.delete(slot);
    const cur = this.endCurrent(slot);
    this.log.warn(
      { transId: cur?.task.id, timeoutMs: this.timeoutMs },
      'work ran past its time limit; thread terminated',
    );
    cur?.reject(new JobFailure('timeout', 'timeout'));
    void this.end(slot.worker);
    this.scheduleRespawn();
  }

  private endCurrent(slot: Slot): Pending | null {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const cur = slot.current;
    slot.current = null;
    return cur;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!this.waiting.length) return;
      if (slot.dead || !slot.ready || slot.current) continue;
      const next = this.waiting.shift()!;
      slot.current = next;
      this.arm(slot);
      try {
        slot.worker.postMessage({ type: 'run', task: next.task } satisfies ToWorker);
      } catch (err) {
        this.endCurrent(slot);
        next.reject(new JobFailure('crashed', err instanceof Error ? err.message : String(err)));
      }
    }
  }
}

function safely(fn: () => void, log: PoolLogger): void {
  try {
    fn();
  } catch (err) {
    log.error({ err }, 'progress listener failed');
  }
}
