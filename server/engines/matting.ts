/**
 * matting: IS-Net (from @imgly/background-removal-data, "medium" fp16 weights; the quint8 "small"
 * file measured no faster here) predicts a 1024² foreground mask; the mask is resized to the
 * full image and its edges refined with a guided filter steered by the picture; the interior of
 * the subject is made solid (solidInterior) and the colours of the soft edge are decontaminated
 * from the old background (decontaminate).
 * Main output: PNG with alpha at full resolution. Extras (zoom_type variants): 'white' = the
 * cut-out on white as JPEG, 'preview' = transparent PNG whose long side is `rescale` px.
 */
import * as ort from 'onnxruntime-node';
import type { Engine } from './types.js';
import { session } from './models.js';
import { boxMean, guidedFilter, luma, resizePlane, runOnRgb, sharpOf, type Raster, type Rgb } from './image.js';

const S = 1024;

export async function foregroundMask(img: Rgb, modelsDir: string, threads: number): Promise<Float32Array> {
  const { data } = await sharpOf(img)
    .resize(S, S, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const x = new Float32Array(3 * S * S);
  const plane = S * S;
  // the normalisation imgly uses for this model: (v − 128) / 256
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) x[c * plane + i] = (data[i * 3 + c]! - 128) / 256;
  const s = await session(modelsDir, 'isnet.onnx', threads);
  const out = await s.run({ input: new ort.Tensor('float32', x, [1, 3, S, S]) });
  const m = out[s.outputNames[0]!]!.data as Float32Array;
  const m255 = new Float32Array(plane);
  for (let i = 0; i < plane; i++) m255[i] = m[i]! * 255;
  const full = await resizePlane(m255, S, S, img.w, img.h);
  // edge refinement: the mask follows the picture's own edges within a few pixels
  const r = Math.max(2, Math.round(Math.max(img.w, img.h) / 500));
  const refined = guidedFilter(luma(img), full, img.w, img.h, r, 60);
  for (let i = 0; i < refined.length; i++) {
    // keep confident areas exactly as predicted, refine only the uncertain band
    const a = full[i]!;
    refined[i] = a < 8 || a > 247 ? a : refined[i]!;
  }
  return solidInterior(refined, img.w, img.h);
}

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
export function decontaminate(img: Rgb, alpha: Float32Array): Rgb {
  const { w, h } = img;
  const n = w * h;
  const a = Float32Array.from(alpha, (v) => Math.min(1, Math.max(0, v / 255)));
  const r1 = Math.max(3, Math.round(Math.max(w, h) / 200));
  const bgW = Float32Array.from(a, (v) => (v < 0.1 ? 1 : 0));
  const fgW = Float32Array.from(a, (v) => (v > 0.9 ? 1 : 0));
  // local weighted means at two radii (box means: O(n) whatever the radius): weight sum, channel sums
  const means = (wt: Float32Array) =>
    [r1, 4 * r1].map((r) => {
      const W = boxMean(wt, w, h, r);
      const C = [0, 1, 2].map((c) => {
        const p = new Float32Array(n);
        for (let i = 0; i < n; i++) p[i] = wt[i]! * img.data[i * 3 + c]!;
        return boxMean(p, w, h, r);
      });
      return { W, C };
    });
  const bg = means(bgW), fg = means(fgW);
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
  return { w, h, data: out };
}

export function rgba(img: Rgb, alpha: Float32Array): Raster {
  const n = img.w * img.h;
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = img.data[i * 3]!;
    out[i * 4 + 1] = img.data[i * 3 + 1]!;
    out[i * 4 + 2] = img.data[i * 3 + 2]!;
    const a = alpha[i]!;
    out[i * 4 + 3] = a <= 0 ? 0 : a >= 255 ? 255 : Math.round(a);
  }
  return { w: img.w, h: img.h, channels: 4, data: out };
}

export const mattingEngine: Engine<'matting'> = {
  module: 'matting',
  kind: 'neural',
  describe: 'IS-Net background removal (1024² mask, guided-filter edge refinement, solid interior, edge colour decontamination) → PNG with alpha; extras: white JPEG, rescale-px preview',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      ctx.onProgress(0.05);
      const alpha = await foregroundMask(img, ctx.modelsDir, ctx.threads);
      ctx.onProgress(0.8);
      const cutout = rgba(decontaminate(img, alpha), alpha);
      const white = await sharpOf(cutout).flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer();
      const preview = await sharpOf(cutout).resize(params.rescale, params.rescale, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
      // the cut-out needs its alpha: PNG whatever the input was
      return { image: cutout, format: 'png', extras: { white: { data: white, format: 'jpg' }, preview: { data: preview, format: 'png' } } };
    }),
};
