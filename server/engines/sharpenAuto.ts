/**
 * sharpen_auto (DpedSharpenStable): our own deblur net (server/engines/netRunners.ts, trained by
 * scripts/train/train.py, recipe deblur, on Gaussian, defocus and motion blur with light noise and JPEG, and on
 * sharp pairs that must pass through unchanged), so a soft photo gets its edges back and a sharp one is
 * left alone without a threshold of ours deciding which is which.
 *
 * autoSharpenRgb below is the classical engine it replaced (kept for `npm run quality`'s same-run
 * comparison): it measures how sharp the in-focus part already is (Crété-Roffet re-blur metric on the
 * most detailed tiles, so bokeh does not read as blur) and the noise level, then applies a detail-gated
 * two-scale unsharp mask accordingly.
 */
import { pixelEngine } from './pixelEngine.js';
import { netDeblur } from './netRunners.js';
import {
  boxMean,
  clamp,
  estimateFocusBlur,
  estimateNoise,
  fromPlanes,
  rgbToYcc,
  toPlanes,
  unsharp,
  yccToRgb,
  type Rgb,
} from './image.js';

export function autoSharpenRgb(img: Rgb): { out: Rgb; blur: number; amount: number; radius: number } {
  const { w, h } = img;
  const ycc = rgbToYcc(toPlanes(img));
  const y = ycc[0]!;
  const blur = estimateFocusBlur(y, w, h);
  const noise = estimateNoise(y, w, h);
  // in-focus blur ≈ 0.1–0.2 for crisp photos, 0.3–0.6 for soft ones
  const t = clamp((blur - 0.25) / 0.3, 0, 1);
  const amount = 0.3 + 1.8 * t; // a light touch even on sharp input
  const radius = 0.8 + 1.7 * t;
  // two scales: fine detail then broader edges, both cored above the noise floor
  let s = unsharp(y, w, h, radius * 0.5, amount * 0.5, 0.5 + 1.5 * noise);
  s = unsharp(s, w, h, radius, amount * 0.7, 0.5 + 1.5 * noise);
  // detail gate: mean gradient over a few pixels, against the noise floor
  const g = new Float32Array(y.length);
  for (let r = 0; r < h; r++)
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      g[i] = Math.abs(y[i]! - y[c > 0 ? i - 1 : i]!) + Math.abs(y[i]! - y[r > 0 ? i - w : i]!);
    }
  const gm = boxMean(g, w, h, Math.ceil(radius * 2));
  const floor = 1 + 2 * noise;
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + clamp((gm[i]! - 0.5 * floor) / floor, 0, 1) * (s[i]! - y[i]!);
  return { out: fromPlanes(yccToRgb(ycc), w, h), blur, amount, radius };
}

export const sharpenAutoEngine = pixelEngine(
  'sharpen_auto',
  'neural',
  'our own deblur net (a U-Net trained on Gaussian, defocus and motion blur; sharp input passes through)',
  async (img, _params, ctx) => ({
    image: await netDeblur(img, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.95 * f)),
  }),
);
