// Cancelling a card stops the worker's work (issue 50 point 7): the run's signal is aborted in the
// worker by its id, the work stops at its next step or progress report, and the bridge answers at once.
import { describe, expect, it } from 'vitest';
import { cancellable, cancelRun, stopAtNextReport } from './cancel.js';
import { editImage, processOnDevice } from '../src/worker-bridge/index.js';

describe('cancellable runs', () => {
  it('a run cancelled by its id stops at its next progress report: the tiles after it are never computed', async () => {
    let tiles = 0;
    let cancelAfterTile = 3;
    const run = cancellable(7, async (signal) => {
      const report = stopAtNextReport(signal, () => {
        if (tiles === cancelAfterTile) cancelRun(7);
      });
      for (let t = 0; t < 20; t++) {
        tiles++; // one tile's work
        report({ loaded: t + 1, total: 20 });
        await Promise.resolve();
      }
      return 'done';
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(tiles).toBe(cancelAfterTile + 1);
    cancelAfterTile = -1;
    // the id is free again: a later run with it is not cancelled by the old abort
    await expect(cancellable(7, async () => 'ok')).resolves.toBe('ok');
  });

  it('cancelling an unknown or finished run does nothing', () => {
    expect(() => cancelRun(12345)).not.toThrow();
  });
});

describe('the bridge takes an AbortSignal', () => {
  it('an aborted signal answers AbortError at once, before the worker is asked', async () => {
    const ctrl = new AbortController();
    ctrl.abort(new DOMException('Cancelled', 'AbortError'));
    const blob = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    await expect(editImage(blob, { kind: 'rotate', angle: 90 }, ctrl.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(processOnDevice('compress', blob, undefined, {}, ctrl.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
