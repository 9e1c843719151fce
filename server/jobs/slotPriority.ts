/**
 * A slot process runs at a lower OS priority (PIXMILL_SLOT_NICE, set by slotProcess.ts), so the
 * engines' CPU-bound threads yield to the HTTP processes on the same cores. On Linux the nice value
 * belongs to a thread and new threads inherit their creator's, so this runs on import, before the
 * process starts its worker thread, libuv pool or onnxruntime threads, and sets the threads that
 * already exist one by one.
 */
import fs from 'node:fs';
import os from 'node:os';
import { slotNiceOf } from '../config.js';

function lowerPriority(env?: NodeJS.ProcessEnv): number | null {
  const nice = slotNiceOf(env);
  if (nice === null) return null;
  try {
    os.setPriority(Math.min(19, nice));
    // Threads Node started before any JS ran (V8 platform workers: GC, compilation) keep theirs unless set one by one.
    if (fs.existsSync('/proc/self/task'))
      for (const tid of fs.readdirSync('/proc/self/task')) os.setPriority(Number(tid), Math.min(19, nice));
    return os.getPriority();
  } catch {
    return null; // not permitted here (some sandboxes): run at normal priority rather than not at all
  }
}

lowerPriority();
