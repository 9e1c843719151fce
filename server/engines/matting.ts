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
import { guidedFilter, luma, resizePlane, runOnRgb, sharpOf, type Raster, type Rgb } from './image.js';
import { decontaminate, solidInterior } from '../../src/imaging/matte.js';

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
