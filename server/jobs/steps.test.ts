import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/shared/domain/modules.js';
import { engineFor } from '../engines/registry.js';
import { ctx, input, MODELS_DIR, rgbOf } from '../../tests/support/engines.js';
import type { EngineImage, EngineResult, ImageFormat } from '../engines/types.js';
import { runSteps } from './steps.js';

const STEPS = [
  { module: 'denoise', params: { remove_noise: 60, sharpen: 40 } },
  { module: 'sharpen', params: { sharpness: 80 } },
  { module: 'perfect', params: {} },
] as const;

/** The three engines by hand, each step's result handed on encoded as `between`, the last as JPEG. */
async function byHand(img: EngineImage, between: ImageFormat): Promise<EngineResult> {
  const a = await engineFor('denoise').run(img, { ...defaultParams('denoise'), ...STEPS[0].params }, ctx([], between));
  const b = await engineFor('sharpen').run(a, { ...defaultParams('sharpen'), ...STEPS[1].params }, ctx([], between));
  return engineFor('perfect').run(b, defaultParams('perfect'), ctx([], 'jpeg'));
}

describe('the steps of a work', () => {
  it('hand each other lossless images: a 3-step workflow equals the engines run by hand on lossless intermediates, encoded once', async () => {
    const img = await input('astronaut.png', { width: 96, format: 'jpeg' });
    const seen: string[] = [];
    const out = await runSteps(img, STEPS, {
      threads: 2,
      modelsDir: MODELS_DIR,
      level: 'pro',
      onStep: (i) => seen.push(`step ${i}`),
      onProgress: (i, f) => f === 1 && seen.push(`done ${i}`),
    });
    expect(seen).toEqual(['step 0', 'done 0', 'step 1', 'done 1', 'step 2', 'done 2']);
    expect(out.format).toBe('jpeg');
    const expected = await byHand(img, 'png');
    expect([out.width, out.height]).toEqual([expected.width, expected.height]);
    expect((await rgbOf(out.data)).data).toEqual((await rgbOf(expected.data)).data);
    // and the test can tell: JPEG between the steps gives other pixels
    expect((await rgbOf(out.data)).data).not.toEqual((await rgbOf((await byHand(img, 'jpeg')).data)).data);
  });

  it("keeps a one-step work in the user's format and collects the steps' extras", async () => {
    const img = await input('astronaut.png', { width: 48, format: 'png' });
    const out = await runSteps(img, [{ module: 'colorize', params: { psd: true } }], {
      threads: 2,
      modelsDir: MODELS_DIR,
      level: 'pro',
      onStep: () => {},
      onProgress: () => {},
    });
    expect(out.format).toBe('png');
    expect(out.extras?.psd?.format).toBe('psd');
  });

  it('reports the path an enlarge step took (all on the chosen nets here), and none for a work without one', async () => {
    const img = await input('astronaut.png', { width: 48, format: 'png' });
    const ctx = { threads: 2, modelsDir: MODELS_DIR, level: 'pro' as const, onStep: () => {}, onProgress: () => {} };
    const out = await runSteps(img, [{ module: 'enlarge', params: { ...defaultParams('enlarge'), scale: 2 } }], ctx);
    expect(out.enlargePath).toBe('net');
    expect((await runSteps(img, [{ module: 'sharpen', params: {} }], ctx)).enlargePath).toBeUndefined();
  });
});
