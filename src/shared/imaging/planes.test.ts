// boxMean against the mean computed pixel by pixel over the window clipped to the picture,
// including pictures narrower or shorter than the window.
import { describe, expect, it } from 'vitest';
import { boxMean } from './planes.js';

function direct(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++, n++) s += src[yy * w + xx]!;
      out[y * w + x] = s / n;
    }
  return out;
}

describe('boxMean', () => {
  it.each([
    [37, 23, 1],
    [37, 23, 4],
    [5, 40, 3],
    [40, 2, 6],
    [1, 1, 2],
  ])('%i×%i, r=%i: the mean over the clipped window', (w, h, r) => {
    const src = Float32Array.from({ length: w * h }, (_, i) => (i * 97) % 256);
    const got = boxMean(src, w, h, r);
    const want = direct(src, w, h, r);
    let worst = 0;
    for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
    expect(worst).toBeLessThan(1e-3);
  });
});
