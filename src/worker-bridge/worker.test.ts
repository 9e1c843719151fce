// The page's one image worker: started once for all its users, kept while one holds it, stopped after
// the idle time when nobody does, started again by the next use.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkerHandle, type Started } from './worker.js';

const IDLE = 1000;
let starts = 0;
let stops = 0;
const start = async (): Promise<Started> => {
  starts++;
  return { api: {} as Started['api'], runtime: 'worker', terminate: () => void stops++ };
};

beforeEach(() => {
  vi.useFakeTimers();
  starts = 0;
  stops = 0;
});
afterEach(() => vi.useRealTimers());

describe('WorkerHandle', () => {
  it('one worker for every user: the upload queue and the tools share it', async () => {
    const w = new WorkerHandle(start, IDLE);
    const [a, b] = await Promise.all([w.get(), w.run(async (s) => s)]);
    expect(a).toBe(b);
    expect(starts).toBe(1);
  });

  it('is stopped after the idle time with no holder, and started again by the next use', async () => {
    const w = new WorkerHandle(start, IDLE);
    await w.run(async () => undefined);
    await vi.advanceTimersByTimeAsync(IDLE - 1);
    expect(stops).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect([stops, w.running]).toEqual([1, false]);
    await w.get();
    expect([starts, w.running]).toEqual([2, true]);
  });

  it('is never stopped while held (an upload under way), however long; released, it stops after the idle time', async () => {
    const w = new WorkerHandle(start, IDLE);
    w.hold();
    await w.get();
    await vi.advanceTimersByTimeAsync(IDLE * 10);
    expect(stops).toBe(0);
    // a tool's call begins and ends meanwhile: still held by the queue
    await w.run(async () => undefined);
    await vi.advanceTimersByTimeAsync(IDLE * 10);
    expect(stops).toBe(0);
    w.release();
    await vi.advanceTimersByTimeAsync(IDLE);
    expect(stops).toBe(1);
  });

  it('a use during the idle time postpones the stop', async () => {
    const w = new WorkerHandle(start, IDLE);
    await w.get();
    await vi.advanceTimersByTimeAsync(IDLE - 10);
    await w.get();
    await vi.advanceTimersByTimeAsync(IDLE - 10);
    expect(stops).toBe(0);
    await vi.advanceTimersByTimeAsync(10);
    expect(stops).toBe(1);
  });
});
