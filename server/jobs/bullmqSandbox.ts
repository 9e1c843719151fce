/**
 * Processing slots as child processes (scale-out workers): a Worker-shaped handle around a forked
 * bullmqSandboxChild, so the runner's WorkerPool uses it unchanged and its 5-minute kill
 * (`terminate()`) is a SIGKILL of the work's own process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';

class SandboxProcess extends EventEmitter {
  private readonly child: ChildProcess;
  private exited: Promise<number>;

  constructor() {
    super();
    const entry = fileURLToPath(new URL(`./bullmqSandboxChild${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
    this.child = fork(entry, [], {
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // structured clone over IPC, so result bytes arrive as Uint8Array
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve(code ?? (signal ? 137 : 1))));
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('error', (err) => this.emit('error', err));
    void this.exited.then((code) => this.emit('exit', code));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  postMessage(msg: unknown): void {
    if (!this.child.connected) throw new Error('processing sandbox is gone');
    this.child.send(msg as never);
  }

  terminate(): Promise<number> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }

  unref(): this {
    this.child.unref();
    this.child.channel?.unref();
    return this;
  }

  ref(): this {
    this.child.ref();
    this.child.channel?.ref();
    return this;
  }
}

/** A WorkerPool spawn function: one sandbox process per processing slot. */
export function spawnSandboxedWorker(): Worker {
  return new SandboxProcess() as unknown as Worker;
}
