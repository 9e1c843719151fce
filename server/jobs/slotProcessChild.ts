/**
 * The child process of one processing slot (slotProcess.ts): it hosts the ordinary processing
 * worker thread (processWorker.ts, which checks at start that every module has an engine) and
 * relays its messages over IPC. Killing this process ends the work for sure, native engine code
 * included, and a CPU-bound engine never shares an event loop with the parent (HTTP, BullMQ locks).
 */
// First import: lowers this process's priority before anything starts a thread (threads inherit it).
import './slotPriority.js';
// pool.ts loads sharp in this main thread first, so the worker thread never unloads libvips on exit.
import { spawnProcessingThread } from './pool.js';

if (!process.send) throw new Error('slotProcessChild must run as a forked process');

const thread = spawnProcessingThread();
thread.on('message', (m) => process.send!(m));
thread.on('error', (err) => {
  process.stderr.write(`processing thread failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(70);
});
thread.on('exit', (code) => process.exit(code || 71));
process.on('message', (m) => thread.postMessage(m));
// The parent went away: nothing would read our result.
process.on('disconnect', () => process.exit(0));
