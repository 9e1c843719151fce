/**
 * A sandbox process for one processing slot in scale-out workers: it hosts the ordinary processing
 * worker thread (processWorker.ts) and relays its messages over IPC. Killing this process ends the
 * work for sure, native engine code included, and a CPU-bound engine never shares an event loop
 * with the BullMQ lock renewal of the worker process.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import 'sharp';

if (!process.send) throw new Error('bullmqSandboxChild must run as a forked process');

function spawnThread(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(new URL('./processWorker.js', import.meta.url));
  // Node 20 ignores `--import tsx` in a worker's execArgv, so the thread registers tsx itself.
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  const mjs = path.join(path.dirname(cjs), 'index.mjs');
  const api = pathToFileURL(fs.existsSync(mjs) ? mjs : cjs).href;
  const entry = new URL('./processWorker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}

const thread = spawnThread();
thread.on('message', (m) => process.send!(m));
thread.on('error', (err) => {
  process.stderr.write(`processing thread failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(70);
});
thread.on('exit', (code) => process.exit(code || 71));
process.on('message', (m) => thread.postMessage(m));
// The parent went away: nothing would read our result.
process.on('disconnect', () => process.exit(0));
