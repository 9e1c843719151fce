/**
 * Matte refinement shared by the server's matting engine and the on-device background removal
 * (src-worker/ondevice): plain functions on typed arrays, no Node or DOM API, so both produce the
 * same cut-out from the same mask. Box means come from planes.ts.
 */

import { boxMean, type Rgb } from './planes.js';

export type { Rgb };

/**
 * No holes or translucency inside a solid subject: IS-Net leaves mid alphas on low-contrast
 * interiors (a cat's muzzle, a leaf against similar green). A pixel that is not clear and lies
 * is mostly opaque (smoothly from α 64 to 192) and farther than d px from every clear pixel
 * (α < 32) becomes opaque, with a ramp from d to 2d;
 * soft edges, fur and hair (all near clear background) and real holes (clear) stay as they are.
 */
export function solidInterior(alpha: Float32Array, w: number, h: number): Float32Array {
  const d = Math.max(3, Math.round(Math.max(w, h) / 100));
  const clear = new Float32Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) clear[i] = alpha[i]! < 32 ? 1 : 0;
  // dilation of a 0/1 plane = box mean > 0 (O(n) whatever the radius)
  const near = boxMean(clear, w, h, d);
  const mid = boxMean(clear, w, h, 2 * d);
  const out = new Float32Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i]!;
    // the boost grows smoothly with α (64 → 192), so no cut line appears where it starts
    const t = Math.min(1, Math.max(0, (a - 64) / 128));
    const k = near[i]! > 1e-6 ? 0 : (mid[i]! > 1e-6 ? 0.5 : 1) * t * t * (3 - 2 * t);
    out[i] = a + k * (255 - a);
  }
  return out;
}

/**
 * Edge decontamination: in the partly transparent band the observed colour is
 * I = αF + (1 − α)B. B is the local mean colour of the clear pixels (α < 0.1) around, F is solved
 * from the equation and, where α is small and the solve unstable, pulled toward the local mean of
 * the opaque pixels (α > 0.9). The means are box means, at a second, 4× wider radius where the
 * first finds too few such pixels. Without it the cut-out keeps a rim of the old background.
 */
export function decontaminate(img: Rgb, alpha: Float32Array, onProgress?: (fraction: number) => void): Rgb {
  const { w, h } = img;
  const n = w * h;
  const a = Float32Array.from(alpha, (v) => Math.min(1, Math.max(0, v / 255)));
  const r1 = Math.max(3, Math.round(Math.max(w, h) / 200));
  const bgW = Float32Array.from(a, (v) => (v < 0.1 ? 1 : 0));
  const fgW = Float32Array.from(a, (v) => (v > 0.9 ? 1 : 0));
  // local weighted means at two radii (box means: O(n) whatever the radius): weight sum, channel sums
  // (16 box means: most of the time here, so the progress counts them)
  let done = 0;
  const counted = (plane: Float32Array) => {
    onProgress?.((++done / 16) * 0.9);
    return plane;
  };
  const means = (wt: Float32Array) =>
    [r1, 4 * r1].map((r) => {
      const W = counted(boxMean(wt, w, h, r));
      const C = [0, 1, 2].map((c) => {
        const p = new Float32Array(n);
        for (let i = 0; i < n; i++) p[i] = wt[i]! * img.data[i * 3 + c]!;
        return counted(boxMean(p, w, h, r));
      });
      return { W, C };
    });
  const bg = means(bgW),
    fg = means(fgW);
  const pick = (m: { W: Float32Array; C: Float32Array[] }[], i: number, c: number, fallback: number) =>
    m[0]!.W[i]! > 0.05 ? m[0]!.C[c]![i]! / m[0]!.W[i]! : m[1]!.W[i]! > 1e-3 ? m[1]!.C[c]![i]! / m[1]!.W[i]! : fallback;
  const out = Uint8Array.from(img.data);
  for (let i = 0; i < n; i++) {
    const ai = a[i]!;
    if (ai <= 0.02 || ai >= 0.98) continue;
    for (let c = 0; c < 3; c++) {
      const I = img.data[i * 3 + c]!;
      const B = pick(bg, i, c, I);
      const Fm = pick(fg, i, c, I);
      const F = Math.min(255, Math.max(0, (I - (1 - ai) * B) / ai));
      const t = ai < 0.5 ? (0.5 - ai) / 0.5 : 0; // weight of the local foreground mean
      out[i * 3 + c] = Math.round(F * (1 - t) + Fm * t);
    }
  }
  onProgress?.(1);
  return { w, h, data: out };
}
