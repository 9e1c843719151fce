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

/**
 * The refined foreground mask; `onProgress` hears 0..1 through its phases. Their shares, measured on a
 * 5640×3172 photo (2 threads): loading and running the net (one call, nothing to hear from inside it)
 * 35 %, the mask's resize 5 %, the guided filter and solid interior 60 %; on small photos the net is most of it.
 */
export async function foregroundMask(
  img: Rgb,
  modelsDir: string,
  threads: number,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<Float32Array> {
  const S = ISNET_SIZE;
  const { data } = await sharpOf(img)
    .resize(S, S, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const s = await session(modelsDir, 'isnet.onnx', threads);
  onProgress(0.05);
  const out = await s.run({ input: new ort.Tensor('float32', isnetInput(data), [1, 3, S, S]) });
  onProgress(0.35);
  const full = await resizePlane(maskPlane(out[s.outputNames[0]!]!.data as Float32Array), S, S, img.w, img.h);
  onProgress(0.4);
  return refineMask(img, full, (f) => onProgress(0.4 + 0.6 * f));
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
    // The job's progress through the engine's phases (their shares measured on a 5640×3172 photo,
    // 2 threads: the mask 40 %, edge decontamination 50 %, the encodes the rest), so a long cut-out
    // moves instead of sitting at 0 % until it is done.
    ctx.onProgress(0.02);
    const alpha = await foregroundMask(img, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.02 + 0.4 * f));
    const cutout = rgba(
      decontaminate(img, alpha, (f) => ctx.onProgress(0.42 + 0.5 * f)),
      alpha,
    );
    const white = await sharpOf(cutout).flatten({ background: '#ffffff' }).jpeg({ quality: 92 }).toBuffer();
    ctx.onProgress(0.93);
    const preview = await sharpOf(cutout)
      .resize(params.rescale, params.rescale, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    ctx.onProgress(0.95);
    // the cut-out needs its alpha: PNG whatever the input was
    return {
      image: cutout,
      format: 'png',
      extras: { white: { data: white, format: 'jpg' }, preview: { data: preview, format: 'png' } },
    };
  },
);
