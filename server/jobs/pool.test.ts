import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { type JobFailure, WorkerPool } from './pool.js';
import type { RunTask } from './protocol.js';

/** Tiny CommonJS workers that speak the pool's protocol, each misbehaving in one way. */
const WORKERS = {
  crashOnRun: `const { parentPort } = require('node:worker_threads');
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', () => { setImmediate(() => { throw new Error('boom'); }); });`,
  exitOnRun: `const { parentPort } = require('node:worker_threads');
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', () => process.exit(3));`,
  hang: `const { parentPort } = require('node:worker_threads');
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', () => {});`,
  /** five steps of 80 ms each, then done */
  slowSteps: `const { parentPort } = require('node:worker_threads');
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', async ({ task }) => {
      for (let i = 0; i < 5; i++) {
        parentPort.postMessage({ type: 'step', id: task.id, index: i });
        await new Promise((r) => setTimeout(r, 80));
        parentPort.postMessage({ type: 'progress', id: task.id, index: i, fraction: 1 });
      }
      parentPort.postMessage({ type: 'done', id: task.id, output: { data: new Uint8Array([1, 2, 3]), format: 'png', width: 1, height: 1, extras: {} } });
    });`,
  engineError: `const { parentPort } = require('node:worker_threads');
    parentPort.postMessage({ type: 'ready' });
    parentPort.on('message', ({ task }) => parentPort.postMessage({ type: 'error', id: task.id, message: 'bad image' }));`,
  bootFail: `throw new Error('cannot load engines');`,
};

const quiet = { error() {}, warn() {} };
const task = (id: string): RunTask => ({
  id,
  inputPath: '/nonexistent',
  width: 1,
  height: 1,
  format: 'png',
  steps: [],
  level: 'guest',
  threads: 1,
  modelsDir: '/tmp',
});

const pools: WorkerPool[] = [];
function pool(kinds: (keyof typeof WORKERS)[], timeoutMs = 10_000, size = 1) {
  let n = 0;
  let spawned = 0;
  const p = new WorkerPool(size, timeoutMs, quiet, () => {
    spawned++;
    return new Worker(WORKERS[kinds[Math.min(n++, kinds.length - 1)]!], { eval: true });
  });
  pools.push(p);
  return Object.assign(p, { spawned: () => spawned });
}
afterEach(async () => {
  for (const p of pools.splice(0)) await p.stop();
});

const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: JobFailure) => e.reason,
  );
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
};

describe('WorkerPool', () => {
  it('fails the work of a crashing thread and replaces the thread', async () => {
    const p = pool(['crashOnRun', 'slowSteps']);
    expect(await reason(p.run(task('a'), { perStepTimeout: false }))).toBe('crashed');
    const out = await p.run(task('b'), { perStepTimeout: false });
    expect([...out.data]).toEqual([1, 2, 3]);
    expect(p.spawned()).toBe(2);
  });

  it('treats a thread that exits as crashed', async () => {
    const p = pool(['exitOnRun', 'hang']);
    expect(await reason(p.run(task('a'), { perStepTimeout: false }))).toBe('crashed');
    await until(() => p.threads === 1);
  });

  it('reports an engine error without losing the thread', async () => {
    const p = pool(['engineError']);
    const err = (await p.run(task('a'), { perStepTimeout: false }).catch((e) => e)) as JobFailure;
    expect([err.reason, err.message]).toEqual(['engine', 'bad image']);
    expect((await p.run(task('b'), { perStepTimeout: false }).catch((e) => e)).reason).toBe('engine');
    expect(p.spawned()).toBe(1);
  });

  it('kills a work past the limit and replaces the thread', async () => {
    const p = pool(['hang', 'slowSteps'], 60);
    expect(await reason(p.run(task('a'), { perStepTimeout: false }))).toBe('timeout');
    await until(() => p.spawned() === 2);
    expect(p.threads).toBe(1);
  });

  it('applies the limit per step for workflows, to the whole work otherwise', async () => {
    // 5 steps × 80 ms: over a 250 ms total limit, within it per step.
    const perStep = pool(['slowSteps'], 250);
    const seen: number[] = [];
    const out = await perStep.run(task('w'), { perStepTimeout: true, onStep: (i) => seen.push(i) });
    expect(out.format).toBe('png');
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const whole = pool(['slowSteps'], 250);
    expect(await reason(whole.run(task('s'), { perStepTimeout: false }))).toBe('timeout');
  });

  it('gives up waiting when threads cannot start, without hanging', async () => {
    const p = pool(['bootFail']);
    expect(await reason(p.run(task('a'), { perStepTimeout: false }))).toBe('crashed');
    await until(() => p.spawned() >= 3);
    expect(await reason(p.run(task('b'), { perStepTimeout: false }))).toBe('crashed');
  });

  it('stop() ends running and waiting works as stopped and resolves', async () => {
    const p = pool(['hang']);
    const a = reason(p.run(task('a'), { perStepTimeout: false }));
    const b = reason(p.run(task('b'), { perStepTimeout: false }));
    await new Promise((r) => setTimeout(r, 50));
    await p.stop();
    expect(await a).toBe('stopped');
    expect(await b).toBe('stopped');
    expect(p.threads).toBe(0);
    expect(await reason(p.run(task('c'), { perStepTimeout: false }))).toBe('stopped');
  });
});
