/**
 * Non-local means (Buades et al. 2005) on one plane, with the integral-image patch distance of
 * Darbon et al. 2008: per search offset the patch SSDs of all pixels come from one box filter,
 * so the cost is O(N · offsets) whatever the patch size.
 */
import { boxMean } from './image.js';

export function nonLocalMeans(
  src: Float32Array,
  w: number,
  h: number,
  hParam: number,
  searchRadius = 4,
  patchRadius = 2,
  onProgress: (f: number) => void = () => {},
): Float32Array {
  const n = w * h;
  const acc = new Float32Array(n);
  const wsum = new Float32Array(n);
  const wmax = new Float32Array(n);
  const diff = new Float32Array(n);
  const h2 = hParam * hParam;
  const offsets: [number, number][] = [];
  for (let dy = -searchRadius; dy <= searchRadius; dy++)
    for (let dx = -searchRadius; dx <= searchRadius; dx++) if (dx !== 0 || dy !== 0) offsets.push([dx, dy]);
  let k = 0;
  for (const [dx, dy] of offsets) {
    for (let y = 0; y < h; y++) {
      const yy = Math.min(h - 1, Math.max(0, y + dy));
      const row = y * w;
      const row2 = yy * w;
      for (let x = 0; x < w; x++) {
        const xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
        const d = src[row + x]! - src[row2 + xx]!;
        diff[row + x] = d * d;
      }
    }
    const ssd = boxMean(diff, w, h, patchRadius);
    for (let y = 0; y < h; y++) {
      const yy = Math.min(h - 1, Math.max(0, y + dy));
      const row = y * w;
      const row2 = yy * w;
      for (let x = 0; x < w; x++) {
        const i = row + x;
        const xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
        // subtract the 2σ²-like floor so flat noise patches weigh ~1 (Buades' variant)
        const wt = Math.exp(-Math.max(ssd[i]! - 2 * h2 * 0.25, 0) / h2);
        acc[i]! += wt * src[row2 + xx]!;
        wsum[i]! += wt;
        if (wt > wmax[i]!) wmax[i] = wt;
      }
    }
    if (++k % 8 === 0) onProgress(k / offsets.length);
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const self = wmax[i]! > 0 ? wmax[i]! : 1; // the centre pixel weighs as much as its best match
    out[i] = (acc[i]! + self * src[i]!) / (wsum[i]! + self);
  }
  onProgress(1);
  return out;
}
