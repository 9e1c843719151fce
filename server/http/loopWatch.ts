/**
 * An event-loop watchdog for diagnosis (LOOP_WATCH_MS, off by default): a 50 ms timer notes every
 * gap longer than the threshold and how the main thread spent it, from the kernel's scheduler
 * statistics of that thread (/proc/self/task/<pid>/schedstat, Linux): on a core (our code held the
 * loop), asleep in a synchronous call (also our code: a sync file or SQLite call), or runnable but
 * waiting for a core (the machine was busy elsewhere). "blocked" when the first two alone come to
 * the threshold (the stall our code would cause on an idle machine), else "starved". `npm run hostile` sets it and reads the file, so a
 * stall its probe sees can be told from a loaded machine.
 */
import fs from 'node:fs';

const TICK_MS = 50;

export interface LoopGap {
  pid: number;
  at: string;
  gapMs: number;
  /** on a core */
  cpuMs: number;
  /** runnable, waiting for a core */
  waitMs: number;
  kind: 'blocked' | 'starved';
}

/** The main thread's time on a core and waiting for one, in ms; null where /proc has no schedstat. */
function mainThreadSched(): { cpu: number; wait: number } | null {
  try {
    const [cpu, wait] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(cpu) && Number.isFinite(wait) ? { cpu: cpu! / 1e6, wait: wait! / 1e6 } : null;
  } catch {
    return null;
  }
}

/** Starts the watchdog; gaps over `thresholdMs` are appended to `file` as JSON lines. Returns a stop function. */
export function startLoopWatch(thresholdMs: number, file: string): () => void {
  let lastWall = performance.now();
  let last = mainThreadSched();
  if (last === null) return () => undefined;
  const timer = setInterval(() => {
    const now = performance.now();
    const cur = mainThreadSched() ?? last!;
    const wall = now - lastWall;
    if (wall - TICK_MS > thresholdMs) {
      const cpuMs = Math.round(cur.cpu - last!.cpu);
      const waitMs = Math.round(cur.wait - last!.wait);
      const own = wall - TICK_MS - waitMs;
      const gap: LoopGap = {
        pid: process.pid,
        at: new Date().toISOString(),
        gapMs: Math.round(wall),
        cpuMs,
        waitMs,
        kind: own > thresholdMs ? 'blocked' : 'starved',
      };
      fs.appendFileSync(file, JSON.stringify(gap) + '\n');
    }
    lastWall = now;
    last = cur;
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
