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
import { pixelEngine } from './pixelEngine.js';
import { session } from './models.js';
import { resizePlane, sharpOf, type Raster, type Rgb } from './image.js';
import { ISNET_SIZE, isnetInput, maskPlane, refineMask } from '../../src/shared/imaging/isnetMask.js';
import { decontaminate } from '../../src/shared/imaging/matte.js';

export async function foregroundMask(img: Rgb, modelsDir: string, threads: number): Promise<Float32Array> {
  const S = ISNET_SIZE;
  const { data } = await sharpOf(img)
    .resize(S, S, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const s = await session(modelsDir, 'isnet.onnx', threads);
  const out = await s.run({ input: new ort.Tensor('float32', isnetInput(data), [1, 3, S, S]) });
  const full = await resizePlane(maskPlane(out[s.outputNames[0]!]!.data as Float32Array), S, S, img.w, img.h);
  return refineMask(img, full);
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

export const mattingEngine = pixelEngine(
  'matting',
  'neural',
  'IS-Net background removal (1024² mask, guided-filter edge refinement, solid interior, edge colour decontamination) → PNG with alpha; extras: white JPEG, rescale-px preview',
  async (img, params, ctx) => {
    ctx.onProgress(0.05);
    const alpha = await foregroundMask(img, ctx.modelsDir, ctx.threads);
    ctx.onProgress(0.8);
    const cutout = rgba(decontaminate(img, alpha), alpha);
    const white = await sharpOf(cutout).flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer();
    const preview = await sharpOf(cutout).resize(params.rescale, params.rescale, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
    // the cut-out needs its alpha: PNG whatever the input was
    return { image: cutout, format: 'png', extras: { white: { data: white, format: 'jpg' }, preview: { data: preview, format: 'png' } } };
  },
);
