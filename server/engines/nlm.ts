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
  // Half the search window suffices: the patch distance for offset d at p is the one for −d at
  // p+d, so each computed distance map updates both pixels of every pair.
  const offsets: [number, number][] = [];
  for (let dy = 0; dy <= searchRadius; dy++)
    for (let dx = -searchRadius; dx <= searchRadius; dx++) if (dy > 0 || dx > 0) offsets.push([dx, dy]);
  let k = 0;
  for (const [dx, dy] of offsets) {
    diff.fill(0);
    const x0 = Math.max(0, -dx),
      x1 = Math.min(w, w - dx);
    for (let y = 0; y < h - dy; y++) {
      const row = y * w;
      const row2 = (y + dy) * w + dx;
      for (let x = x0; x < x1; x++) {
        const d = src[row + x]! - src[row2 + x]!;
        diff[row + x] = d * d;
      }
    }
    const ssd = boxMean(diff, w, h, patchRadius);
    for (let y = 0; y < h - dy; y++) {
      const row = y * w;
      const row2 = (y + dy) * w + dx;
      for (let x = x0; x < x1; x++) {
        const i = row + x;
        const j = row2 + x;
        // subtract a noise floor so flat noisy patches weigh ~1 (Buades' variant)
        const wt = Math.exp(-Math.max(ssd[i]! - 0.5 * h2, 0) / h2);
        acc[i]! += wt * src[j]!;
        wsum[i]! += wt;
        acc[j]! += wt * src[i]!;
        wsum[j]! += wt;
        if (wt > wmax[i]!) wmax[i] = wt;
        if (wt > wmax[j]!) wmax[j] = wt;
      }
    }
    if (++k % 4 === 0) onProgress(k / offsets.length);
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const self = wmax[i]! > 0 ? wmax[i]! : 1; // the centre pixel weighs as much as its best match
    out[i] = (acc[i]! + self * src[i]!) / (wsum[i]! + self);
  }
  onProgress(1);
  return out;
}
