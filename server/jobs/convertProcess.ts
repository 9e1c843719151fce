/**
 * Compress conversions (download_compress) in child processes of their own, at the processing slots'
 * nice value: the API process only sends a blob's path and receives the converted bytes, so a
 * 10000×10000 conversion (about 20 s of CPU) no longer runs on the API's libuv pool beside every
 * request (two of them held the API 20–22 s, issue 48). One process per conversion running at once,
 * kept for the next; one that fails, dies or runs past its limit is ended and replaced.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { slotChildEnv } from '../config.js';
import type { ExtraType } from '../repositories/resultFiles.js';
import type { ConvertAnswer, ConvertRequest } from './convertChild.js';

interface Worker {
  child: ChildProcess;
  busy: boolean;
}

export class ConvertProcesses {
  private readonly idle: Worker[] = [];
  private next = 0;

  constructor(
    /** the slots' nice value (SLOT_NICE) */
    private readonly nice: number,
    /** a conversion running longer than this is ended (its process killed) */
    private readonly limitMs = 300_000,
  ) {}

  private spawn(): Worker {
    const entry = fileURLToPath(
      new URL(`./convertChild${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    );
    const child = fork(entry, [], {
      execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: slotChildEnv(this.nice),
    });
    child.unref();
    child.channel?.unref();
    return { child, busy: false };
  }

  /** The bytes of the blob at `path` re-encoded as `to` at `quality`. */
  run(path: string, to: ExtraType, quality: number): Promise<Buffer> {
    const w = this.idle.pop() ?? this.spawn();
    w.busy = true;
    const id = ++this.next;
    w.child.ref();
    w.child.channel?.ref();
    return new Promise<Buffer>((resolve, reject) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        w.child.off('message', onMessage);
        w.child.off('exit', onExit);
        w.busy = false;
        if (ok && w.child.connected) {
          w.child.unref();
          w.child.channel?.unref();
          this.idle.push(w);
        } else w.child.kill('SIGKILL');
      };
      const onMessage = (m: ConvertAnswer) => {
        if (m.id !== id) return;
        done('data' in m);
        if ('data' in m) resolve(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
        else reject(new Error(m.error));
      };
      const onExit = () => {
        done(false);
        reject(new Error('the conversion process ended'));
      };
      const timer = setTimeout(() => {
        done(false);
        reject(new Error('the conversion ran past its time limit'));
      }, this.limitMs);
      w.child.on('message', onMessage);
      w.child.once('exit', onExit);
      w.child.send({ id, path, to, quality } satisfies ConvertRequest);
    });
  }

  /** Ends every kept process (the service's close). */
  stop(): void {
    for (const w of this.idle.splice(0)) w.child.kill('SIGKILL');
  }
}
