/**
 * Processing worker thread: runs one work at a time. Loads the working image, runs each step's
 * engine in order (each step's output feeds the next) and posts progress and the result back.
 * It holds no database or HTTP: the main thread stores results and decides about failures.
 */
import fsp from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { engineFor } from '../engines/registry.js';
import type { EngineExtra, EngineImage } from '../engines/types.js';
import type { FromWorker, RunTask, TaskOutput, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('processWorker must run in a worker thread');

const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/** A standalone copy, so the bytes can be transferred without detaching a shared Buffer pool. */
function own(buf: Uint8Array): Uint8Array {
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  return copy;
}

async function run(task: RunTask): Promise<{ output: TaskOutput; transfer: ArrayBuffer[] }> {
  let image: EngineImage = { data: await fsp.readFile(task.inputPath), width: task.width, height: task.height, format: task.format };
  const extras: Record<string, EngineExtra> = {};
  for (let index = 0; index < task.steps.length; index++) {
    const step = task.steps[index]!;
    const engine = engineFor(step.module);
    if (!engine) throw new Error(`no engine for module ${step.module}`);
    post({ type: 'step', id: task.id, index });
    const result = await engine.run(image, step.params, {
      threads: task.threads,
      modelsDir: task.modelsDir,
      level: task.level,
      onProgress: (fraction) => {
        if (Number.isFinite(fraction)) post({ type: 'progress', id: task.id, index, fraction: Math.min(1, Math.max(0, fraction)) });
      },
    });
    Object.assign(extras, result.extras ?? {});
    image = { data: result.data, width: result.width, height: result.height, format: result.format };
  }
  const data = own(image.data);
  const transfer = [data.buffer as ArrayBuffer];
  const outExtras: TaskOutput['extras'] = {};
  for (const [name, extra] of Object.entries(extras)) {
    const bytes = own(extra.data);
    outExtras[name] = { data: bytes, format: extra.format };
    transfer.push(bytes.buffer as ArrayBuffer);
  }
  return { output: { data, format: image.format, width: image.width, height: image.height, extras: outExtras }, transfer };
}

port.on('message', (msg: ToWorker) => {
  if (msg?.type !== 'run') return;
  const { task } = msg;
  run(task).then(
    ({ output, transfer }) => post({ type: 'done', id: task.id, output }, transfer),
    (err: unknown) => post({ type: 'error', id: task.id, message: err instanceof Error ? err.message : String(err) }),
  );
});

post({ type: 'ready' });
