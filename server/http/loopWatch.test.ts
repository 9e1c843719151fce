import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../tests/integration/until.js';
import { startLoopWatch, type LoopGap } from './loopWatch.js';

describe('event-loop watchdog (LOOP_WATCH_MS)', () => {
  it.runIf(fs.existsSync(`/proc/self/task/${process.pid}/schedstat`))(
    'a loop held by synchronous work is written down as blocked, with the main thread on a core or asleep through it',
    async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwatch-')), 'gaps.jsonl');
      const stop = startLoopWatch(200, file);
      // hold the loop: spin until the main thread itself has used 600 ms of CPU (a busy machine only makes this longer)
      const cpu0 = process.cpuUsage();
      while ((process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000 < 600);
      // the watchdog's first tick after the spin writes the gap down
      const read = () =>
        fs.existsSync(file)
          ? fs
              .readFileSync(file, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as LoopGap)
          : [];
      const gaps = await until(read, (g) => g.some((x) => x.kind === 'blocked'), { timeoutMs: 10_000, intervalMs: 10 });
      stop();
      const blocked = gaps.filter((g) => g.kind === 'blocked');
      expect(blocked.length).toBeGreaterThanOrEqual(1);
      expect(blocked[0]!.gapMs).toBeGreaterThan(200);
      // its own time (on a core or asleep, not waiting for one) is the stall an idle machine would see
      expect(blocked[0]!.gapMs - blocked[0]!.waitMs).toBeGreaterThan(200);
      expect(blocked[0]!.cpuMs).toBeGreaterThan(200);
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    },
  );
});
