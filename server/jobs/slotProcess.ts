/**
 * A processing slot as a child process (every mode: JobService uses it for all slots): a
 * SlotHandle around a forked slotProcessChild, so the WorkerPool drives it like a worker thread
 * and its time-limit kill (`terminate()`) is a SIGKILL of the work's own process — native engine
 * code (onnxruntime) included, and never the server's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { slotChildEnv } from '../config.js';
import type { SlotHandle } from './pool.js';
import type { ToWorker } from './protocol.js';

/** How a slot process runs: `nice` is its OS priority (0..19), so engine work yields the cores to HTTP. */
export interface SlotOptions {
  nice?: number;
}

class SlotProcess extends EventEmitter implements SlotHandle {
  private readonly child: ChildProcess;
  private exited: Promise<number>;

  constructor(opts: SlotOptions) {
    super();
    const entry = fileURLToPath(
      new URL(`./slotProcessChild${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    );
    this.child = fork(entry, [], {
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // structured clone over IPC, so result bytes arrive as Uint8Array
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // the child applies it to itself before it starts any thread (threads inherit a thread's nice value)
      env: slotChildEnv(opts.nice ?? 0),
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve(code ?? (signal ? 137 : 1))),
    );
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('error', (err) => this.emit('error', err));
    void this.exited.then((code) => this.emit('exit', code));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  postMessage(msg: ToWorker): void {
    if (!this.child.connected) throw new Error('processing slot process is gone');
    this.child.send(msg);
  }

  terminate(): Promise<number> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }

  unref(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  ref(): void {
    this.child.ref();
    this.child.channel?.ref();
  }
}

/** A WorkerPool spawn function: one child process per processing slot. */
export function spawnSlotProcess(opts: SlotOptions = {}): SlotHandle {
  return new SlotProcess(opts);
}
