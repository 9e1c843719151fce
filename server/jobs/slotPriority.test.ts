// A slot process lowers its own OS priority before it starts a thread, so engine work yields the cores to HTTP.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { spawnSlotProcess } from './slotProcess.js';

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
      const fs = await import('node:fs');
      if (fs.existsSync(`/proc/${pid}/task`)) {
        const nices = fs
          .readdirSync(`/proc/${pid}/task`)
          .map((tid) =>
            Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
          );
        expect(nices.length).toBeGreaterThan(1);
        expect(new Set(nices)).toEqual(new Set([7]));
      }
    } finally {
      await slot.terminate();
    }
  }, 60_000);

  it('stays at normal priority with nice 0', async () => {
    const slot = spawnSlotProcess({ nice: 0 });
    try {
      await new Promise<void>((resolve) =>
        slot.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve()),
      );
      expect(os.getPriority(pidOf(slot))).toBe(os.getPriority());
    } finally {
      await slot.terminate();
    }
  }, 60_000);
});
