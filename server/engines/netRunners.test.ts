import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensembleTransforms, OWN_NET_FILES, OWN_X2_BYTES, padToMultiple } from '../../src/shared/imaging/netFiles.js';
import { decodeRgb, psnr } from './image.js';
import { netDenoise, netUpscale, srNets } from './netRunners.js';
import { input, MODELS_DIR } from '../../tests/support/engines.js';

const weights = path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights');

describe('our own nets', () => {
  it('the device is told the x2 net’s real download size', () => {
    expect(OWN_X2_BYTES).toBe(statSync(path.join(weights, OWN_NET_FILES.x2Small)).size);
  });

  it('pads a tile by reflection to the multiple a net needs', () => {
    const t = Float32Array.from({ length: 3 * 3 * 5 }, (_, i) => i);
    const { data, pw, ph } = padToMultiple(t, 5, 3, 4);
    expect([pw, ph]).toEqual([8, 4]);
    // row 0 of channel 0: 0 1 2 3 4 | 3 2 1 (reflected, edge not repeated)
    expect(Array.from(data.subarray(0, 8))).toEqual([0, 1, 2, 3, 4, 3, 2, 1]);
    // row 3 reflects row 1
    expect(Array.from(data.subarray(3 * 8, 3 * 8 + 5))).toEqual([5, 6, 7, 8, 9]);
    expect(padToMultiple(t, 5, 3, 1).data).toBe(t);
  });

  it('the self-ensemble averages eight distinct flips/transposes and returns the same geometry', async () => {
    expect(new Set(ensembleTransforms(8).map((t) => t.join('+'))).size).toBe(8);
    const img = await decodeRgb(
      (await input('chelsea.png', { crop: { left: 100, top: 60, width: 37, height: 23 } })).data,
    );
    const one = await netUpscale(img, srNets(2, 0), MODELS_DIR, 2);
    const eight = await netUpscale(img, srNets(2, 0), MODELS_DIR, 2, () => {}, 8);
    expect([eight.w, eight.h]).toEqual([74, 46]);
    // the same picture, not a mirrored one: close to the single pass, far from its mirror image
    const mirrored = { ...one, data: new Uint8Array(one.data.length) };
    for (let y = 0; y < one.h; y++)
      for (let x = 0; x < one.w; x++)
        mirrored.data.set(
          one.data.subarray((y * one.w + x) * 3, (y * one.w + x) * 3 + 3),
          (y * one.w + one.w - 1 - x) * 3,
        );
    expect(psnr(eight.data, one.data)).toBeGreaterThan(35);
    expect(psnr(eight.data, mirrored.data)).toBeLessThan(25);
  });

  it('the denoiser keeps any size (padding to its multiple of 8 is cropped away)', async () => {
    const img = await decodeRgb(
      (await input('coffee.png', { crop: { left: 50, top: 50, width: 61, height: 29 } })).data,
    );
    const out = await netDenoise(img, MODELS_DIR, 2);
    expect([out.w, out.h]).toEqual([61, 29]);
    expect(psnr(out.data, img.data)).toBeGreaterThan(28);
  });
});
