// The default tiling (512-px cores at x2) still blends without a seam: an image two cores wide
// comes out like the same image in one tile.
import { describe, expect, it } from 'vitest';
import { decodeRgb } from '../../server/engines/image.js';
import { upscaleTiled } from './esrgan.js';
import { input, MODELS_DIR } from '../../tests/support/engines.js';

function psnr(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255) / (se / a.length));
}

describe('ESRGAN tiling defaults', () => {
  it('x2 with the default cores matches one whole tile across the core boundary', async () => {
    const img = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 0, top: 180, width: 560, height: 40 } })).data,
    );
    const progress: number[] = [];
    const tiled = await upscaleTiled(img, 'slim', 2, MODELS_DIR, 2, (f) => progress.push(f));
    const whole = await upscaleTiled(img, 'slim', 2, MODELS_DIR, 2, undefined, { tile: 1024 });
    expect(progress).toHaveLength(2); // one call per tile: the default really cuts this image
    expect(psnr(tiled.data, whole.data)).toBeGreaterThan(45);
  }, 120_000);
});
