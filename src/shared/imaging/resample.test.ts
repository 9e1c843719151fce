// The engines' plain resize must score at least the papers' bicubic: its reductions match MATLAB's
// imresize (scripts/quality/matlabResize.ts, the measuring convention) to the byte, and on a photo
// reduced ×2 the ×2 enlargement by it beats sharp's resize, whose upscale samples off the pixel centres.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { bicubicResize } from './resample.js';
import { matlabResize, psnrY } from '../../../scripts/quality/matlabResize.js';
import { decodeRgb, resizeRgb } from '../../../server/engines/image.js';
import { input } from '../../../tests/support/engines.js';

describe('bicubicResize (the papers’ bicubic)', () => {
  it('reduces as MATLAB imresize does, to the byte, and keeps a flat picture flat at any factor', async () => {
    const img = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 100, top: 60, width: 240, height: 180 } })).data,
    );
    for (const s of [2, 3, 4]) {
      const ref = matlabResize(img, 1 / s);
      const ours = bicubicResize(img, ref.w, ref.h);
      expect(Buffer.compare(Buffer.from(ours.data), Buffer.from(ref.data))).toBe(0);
    }
    const up = matlabResize(img, 2);
    expect(Buffer.compare(Buffer.from(bicubicResize(img, up.w, up.h).data), Buffer.from(up.data))).toBe(0);
    const flat = { w: 7, h: 5, data: new Uint8Array(7 * 5 * 3).fill(77) };
    for (const [W, H] of [
      [21, 15],
      [5, 4],
      [11, 3],
    ] as const)
      expect(bicubicResize(flat, W, H).data.every((v) => v === 77)).toBe(true);
  });

  it("enlarges a ×2-reduced photo closer to the original than sharp's resize (cubic and lanczos3)", async () => {
    const hi = await decodeRgb(
      await sharp((await input('LadyBird.jpg')).data)
        .extract({ left: 600, top: 400, width: 512, height: 384 })
        .png()
        .toBuffer(),
    );
    const lo = matlabResize(hi, 0.5);
    const ours = psnrY(bicubicResize(lo, hi.w, hi.h), hi, 2);
    for (const kernel of ['cubic', 'lanczos3'] as const)
      expect(ours).toBeGreaterThan(psnrY(await resizeRgb(lo, hi.w, hi.h, kernel), hi, 2) + 1);
  });
});
