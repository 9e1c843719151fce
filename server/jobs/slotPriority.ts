/**
 * A slot process runs at a lower OS priority (PIXMILL_SLOT_NICE, set by slotProcess.ts), so the
 * engines' CPU-bound threads yield to the HTTP processes on the same cores. On Linux the nice value
 * belongs to a thread and new threads inherit their creator's, so this runs on import, before the
 * process starts its worker thread, libuv pool or onnxruntime threads, and sets the threads that
 * already exist one by one.
 *
 * With scheduler autogroups (Linux's default on many systems, sched_autogroup_enabled) a nice value
 * only ranks threads within their group, and a group's CPU time is accounted as one: slotProcess.ts
 * starts a lowered slot in its own session, hence its own group, so the engines' time is not charged
 * to the server's group, whose threads then wake with the time they are owed. The group itself keeps
 * nice 0: lowered too, it would weigh a tenth of every other session's group, and other sessions
 * loading the machine would starve the engines.
 */
import fs from 'node:fs';
import os from 'node:os';

export function lowerPriority(env: NodeJS.ProcessEnv = process.env): number | null {
  const nice = Number(env.PIXMILL_SLOT_NICE);
  if (!Number.isInteger(nice) || nice <= 0) return null;
  try {
    os.setPriority(Math.min(19, nice));
    // Threads Node started before any JS ran (V8 platform workers: GC, compilation) keep theirs unless set one by one.
    if (fs.existsSync('/proc/self/task')) for (const tid of fs.readdirSync('/proc/self/task')) os.setPriority(Number(tid), Math.min(19, nice));
    return os.getPriority();
  } catch {
    return null; // not permitted here (some sandboxes): run at normal priority rather than not at all
  }
}

/** The nice value of a process's autogroup and the group's name, or null without autogroups. */
export function autogroupOf(pid: number | 'self' = 'self'): { group: string; nice: number } | null {
  try {
    const m = /^(\S+) nice (-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return m ? { group: m[1]!, nice: Number(m[2]) } : null;
  } catch {
    return null;
  }
}

lowerPriority();
