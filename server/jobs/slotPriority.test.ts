// A slot process lowers its own OS priority before it starts a thread, so engine work yields the cores to HTTP.
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { spawnSlotProcess } from './slotProcess.js';
import { autogroupOf } from './slotPriority.js';

/** Linux with scheduler autogroups on (then a nice value only ranks threads inside their group). */
const autogroups = (() => {
  try {
    return fs.readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1' && autogroupOf() !== null;
  } catch {
    return false;
  }
})();

// spawnSlotProcess answers a SlotHandle; the process behind it has a pid
const pidOf = (slot: object) => (slot as { pid?: number }).pid!;

describe('slot process priority', () => {
  it('runs at the nice value it was given, on every thread it starts', async () => {
    const slot = spawnSlotProcess({ nice: 7 });
    try {
      await new Promise<void>((resolve, reject) => {
        slot.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve());
        slot.on('exit', (code: number) => reject(new Error(`slot exited ${code}`)));
      });
      const pid = pidOf(slot);
      expect(os.getPriority(pid)).toBe(7);
      // Linux keeps a nice value per thread: the worker thread and the engine pools must inherit it
      if (fs.existsSync(`/proc/${pid}/task`)) {
        const nices = fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
        expect(nices.length).toBeGreaterThan(1);
        expect(new Set(nices)).toEqual(new Set([7]));
      }
      if (autogroups) {
        // its own scheduler group: the engines' time is not charged to the server's group
        expect(autogroupOf(pid)!.group).not.toBe(autogroupOf()!.group);
      }
    } finally {
      await slot.terminate();
    }
  }, 60_000);

  it('stays at normal priority with nice 0', async () => {
    const slot = spawnSlotProcess({ nice: 0 });
    try {
      await new Promise<void>((resolve) => slot.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve()));
      expect(os.getPriority(pidOf(slot))).toBe(os.getPriority());
      if (autogroups) expect(autogroupOf(pidOf(slot))).toEqual(autogroupOf());
    } finally {
      await slot.terminate();
    }
  }, 60_000);
});
