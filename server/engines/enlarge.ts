/**
 * enlarge (EnlargeStable): ESRGAN super-resolution on onnxruntime, tiled with blended seams.
 * 2x/4x/8x use the matching model; 6x = the x3 model, then the x2 model (measured best; see
 * README), with Lanczos for the second pass on inputs above 0.9 MP to stay inside the job limit.
 * quality 'high' → ESRGAN-slim, 'best' → ESRGAN-medium (thick costs ~10× more for little gain here).
 * suppress_noise: edge-preserving pre-denoise; remove_blur: unsharp mask after upscaling.
 */
import sharp from 'sharp';
import type { ParamsOf } from '../../src/domain/modules.js';
import type { Engine, EngineImage } from './types.js';
import { upscaleTiled } from './esrgan.js';
import { clamp, clamp255, estimateBlur, estimateNoise, fromPlanes, guidedFilter, luma, resizeRgb, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';
import type { EsrganScale, EsrganSize } from './models.js';

/** Largest output side we produce (JPEG allows 65535, but memory and the 5-minute limit do not). */
export const ENLARGE_MAX_SIDE = 16384;

export interface EnlargeSettings {
  scale: ParamsOf<'enlarge'>['scale'];
  size: EsrganSize;
  suppressNoise: number;
  removeBlur: number;
}

export function enlargeSettings(params: ParamsOf<'enlarge'>, img?: Rgb): EnlargeSettings {
  let suppressNoise = params.suppress_noise;
  let removeBlur = params.remove_blur;
  if (params.autoparams && img) {
    // Let the picture decide: noisy input → more denoise, soft input → more deblur.
    const y = luma(img);
    const sigma = estimateNoise(y, img.w, img.h);
    const blur = estimateBlur(y, img.w, img.h);
    suppressNoise = Math.round(clamp(sigma * 10, 0, 100));
    removeBlur = Math.round(clamp((blur - 0.2) * 200, 0, 100));
  }
  return {
    scale: params.scale,
    size: params.quality === 'best' ? 'medium' : 'slim',
    suppressNoise,
    removeBlur,
  };
}

/** Edge-preserving luma/chroma smoothing, strength 0..100. */
export function preDenoise(img: Rgb, strength: number): Rgb {
  if (strength <= 0) return img;
  const ycc = rgbToYcc(toPlanes(img));
  const y = luma(img);
  const sigma = Math.max(2, estimateNoise(y, img.w, img.h));
  const k = strength / 100;
  const eps = (k * 1.2 * sigma) ** 2;
  ycc[0] = guidedFilter(ycc[0]!, ycc[0]!, img.w, img.h, 1, eps);
  ycc[1] = guidedFilter(ycc[0]!, ycc[1]!, img.w, img.h, 2, eps);
  ycc[2] = guidedFilter(ycc[0]!, ycc[2]!, img.w, img.h, 2, eps);
  return fromPlanes(yccToRgb(ycc), img.w, img.h);
}

/**
 * Luma unsharp mask on the (possibly huge) upscaled image, in strips of rows so memory stays
 * bounded: the luma change is added equally to R, G and B, which is a pure luma edit.
 */
export function postSharpen(img: Rgb, strength: number, scale: number): Rgb {
  if (strength <= 0) return img;
  const { w, h, data } = img;
  const sigma = 0.6 + 0.25 * Math.min(scale, 4); // wider radii cost time on huge outputs for no visible gain
  const amount = (strength / 100) * 0.8;
  const threshold = 1.5;
  const margin = Math.ceil(sigma * 3) + 1;
  const strip = Math.max(64, Math.floor(4_000_000 / w));
  const out = new Uint8Array(data.length);
  for (let y0 = 0; y0 < h; y0 += strip) {
    const y1 = Math.min(h, y0 + strip);
    const a = Math.max(0, y0 - margin), b = Math.min(h, y1 + margin);
    const sh = b - a;
    const Y = new Float32Array(w * sh);
    for (let i = 0, j = a * w * 3; i < Y.length; i++, j += 3) Y[i] = 0.299 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!;
    const sharp = unsharp(Y, w, sh, sigma, amount, threshold);
    for (let y = y0; y < y1; y++) {
      const r = (y - a) * w;
      for (let x = 0; x < w; x++) {
        const d = sharp[r + x]! - Y[r + x]!;
        const j = (y * w + x) * 3;
        out[j] = clamp255(data[j]! + d);
        out[j + 1] = clamp255(data[j + 1]! + d);
        out[j + 2] = clamp255(data[j + 2]! + d);
      }
    }
  }
  return { w, h, data: out };
}

/** Above this many input megapixels the second 6x pass (x2 on the 3x image) is done by Lanczos. */
export const SIXFOLD_NEURAL_SECOND_PASS_MAX_MP = 0.9;

export async function superResolve(img: Rgb, s: EnlargeSettings, modelsDir: string, threads: number, onProgress: (f: number) => void): Promise<Rgb> {
  if (s.scale !== 6) return upscaleTiled(img, s.size, s.scale as EsrganScale, modelsDir, threads, onProgress);
  // 6x: x3 first, then x2 — measured best of x3→x2, x2→x3, x8↓, x4+Lanczos (README). The x2 pass
  // runs on 9× the pixels, so on large inputs it would break the 5-minute limit: Lanczos instead.
  const neural = (img.w * img.h) / 1e6 <= SIXFOLD_NEURAL_SECOND_PASS_MAX_MP;
  const x3 = await upscaleTiled(img, s.size, 3, modelsDir, threads, (f) => onProgress(neural ? f * 0.1 : f * 0.9));
  if (neural) return upscaleTiled(x3, s.size, 2, modelsDir, threads, (f) => onProgress(0.1 + 0.9 * f));
  const out = await resizeRgb(x3, img.w * 6, img.h * 6, 'lanczos3');
  onProgress(1);
  return out;
}

/** A transparent PNG keeps its transparency: the input's alpha plane enlarged with Lanczos, or none. */
async function enlargedAlpha(input: EngineImage, w: number, h: number): Promise<Uint8Array | undefined> {
  if (!(await sharp(input.data).metadata()).hasAlpha) return undefined;
  return sharp(input.data, { limitInputPixels: false }).extractChannel('alpha').resize(w, h, { kernel: 'lanczos3', fit: 'fill' }).raw().toBuffer();
}

export const enlargeEngine: Engine<'enlarge'> = {
  module: 'enlarge',
  kind: 'neural',
  describe: 'ESRGAN (slim for high, medium for best) on onnxruntime, tiled with blended seams; 6x = x3 then x2',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      const s = enlargeSettings(params, img);
      if (Math.max(img.w, img.h) * s.scale > ENLARGE_MAX_SIDE)
        throw new Error(`the enlarged image would be ${img.w * s.scale}×${img.h * s.scale} px; at most ${ENLARGE_MAX_SIDE} px a side can be produced`);
      ctx.onProgress(0.02);
      const clean = preDenoise(img, s.suppressNoise * 0.6);
      const up = await superResolve(clean, s, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.05 + 0.85 * f));
      const out = postSharpen(up, s.removeBlur, s.scale);
      const alpha = ctx.output === 'png' ? await enlargedAlpha(input, out.w, out.h) : undefined;
      return { image: out, ...(alpha ? { alpha } : {}) };
    }),
};
