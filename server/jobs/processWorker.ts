/**
 * Processing worker thread: runs one work at a time. Loads the working image, runs its steps
 * (steps.ts) and posts progress and the result back.
 * It holds no database or HTTP: the main thread stores results and decides about failures.
 */
import fsp from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { assertAllEngines } from '../engines/registry.js';
import type { FromWorker, RunTask, TaskOutput, ToWorker } from './protocol.js';
import { runSteps } from './steps.js';

const port = parentPort;
if (!port) throw new Error('processWorker must run in a worker thread');
// A slot missing an engine never reports ready: the pool sees it fail to start.
assertAllEngines();

const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

/** A standalone copy, so the bytes can be transferred without detaching a shared Buffer pool. */
function own(buf: Uint8Array): Uint8Array {
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  return copy;
}

async function run(task: RunTask): Promise<{ output: TaskOutput; transfer: ArrayBuffer[] }> {
  const input = {
    data: await fsp.readFile(task.inputPath),
    width: task.width,
    height: task.height,
    format: task.format,
  };
  const result = await runSteps(input, task.steps, {
    threads: task.threads,
    modelsDir: task.modelsDir,
    level: task.level,
    onStep: (index) => post({ type: 'step', id: task.id, index }),
    onProgress: (index, fraction) => {
      if (Number.isFinite(fraction))
        post({ type: 'progress', id: task.id, index, fraction: Math.min(1, Math.max(0, fraction)) });
    },
  });
  const data = own(result.data);
  const transfer = [data.buffer as ArrayBuffer];
  const outExtras: TaskOutput['extras'] = {};
  for (const [name, extra] of Object.entries(result.extras ?? {})) {
    const bytes = own(extra.data);
    outExtras[name] = { data: bytes, format: extra.format };
    transfer.push(bytes.buffer as ArrayBuffer);
  }
  return {
    output: {
      data,
      format: result.format,
      width: result.width,
      height: result.height,
      extras: outExtras,
      ...(result.enlargePath ? { enlargePath: result.enlargePath } : {}),
    },
    transfer,
  };
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
