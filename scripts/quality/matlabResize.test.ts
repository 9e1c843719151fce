import { describe, expect, it } from 'vitest';
import { matlabResize, modcrop, psnrY } from './matlabResize.js';

const ramp = (w: number, h: number) => ({
  w,
  h,
  data: Uint8Array.from({ length: w * h * 3 }, (_, i) => 40 + 4 * (Math.floor(i / 3) % w)),
});

describe('the papers’ measuring conventions', () => {
  it('MATLAB bicubic keeps a flat picture flat and a horizontal ramp a ramp at the block centres', () => {
    const flat = { w: 12, h: 8, data: new Uint8Array(12 * 8 * 3).fill(137) };
    expect(matlabResize(flat, 1 / 2).data.every((v) => v === 137)).toBe(true);
    expect(matlabResize(flat, 2).data.every((v) => v === 137)).toBe(true);
    const lo = matlabResize(ramp(16, 4), 1 / 2);
    expect([lo.w, lo.h]).toEqual([8, 2]);
    // away from the border, output x samples the input at 2x + 0.5: 40 + 4·(2x + 0.5)
    for (let x = 2; x < 6; x++) expect(lo.data[(1 * 8 + x) * 3]).toBe(40 + 4 * (2 * x + 0.5));
  });

  it('modcrop cuts to multiples of the scale; Y-PSNR shaves the border', () => {
    const a = ramp(13, 9);
    expect([modcrop(a, 4).w, modcrop(a, 4).h]).toEqual([12, 8]);
    const b = { ...a, data: a.data.slice() };
    b.data[0] = 255; // a change in the shaved border does not count
    expect(psnrY(a, b, 1)).toBe(99);
    expect(psnrY(a, b, 0)).toBeLessThan(60);
  });
});
