/**
 * sharpen_auto (DpedSharpenStable): estimates how blurred the picture is (Crété-Roffet
 * re-blur metric, plus the noise level) and sharpens accordingly: blurrier → wider radius and
 * larger amount; noisier → higher coring threshold. A sharp picture gets only a light touch.
 */
import type { Engine } from './types.js';
import { estimateBlur, estimateNoise, fromPlanes, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';

export function autoSharpenRgb(img: Rgb): { out: Rgb; blur: number; amount: number; radius: number } {
  const { w, h } = img;
  const ycc = rgbToYcc(toPlanes(img));
  const blur = estimateBlur(ycc[0]!, w, h);
  const noise = estimateNoise(ycc[0]!, w, h);
  // blur ≈ 0.25 for crisp photos, 0.5–0.8 for soft ones
  const t = Math.min(1, Math.max(0, (blur - 0.2) / 0.5));
  const amount = 0.4 + 2.0 * t;
  const radius = 0.8 + 1.7 * t;
  // two scales: fine detail then broader edges, both cored above the noise floor
  ycc[0] = unsharp(ycc[0]!, w, h, radius * 0.5, amount * 0.5, 0.5 + 1.5 * noise);
  ycc[0] = unsharp(ycc[0]!, w, h, radius, amount * 0.7, 0.5 + 1.5 * noise);
  return { out: fromPlanes(yccToRgb(ycc), w, h), blur, amount, radius };
}

export const sharpenAutoEngine: Engine<'sharpen_auto'> = {
  module: 'sharpen_auto',
  kind: 'classical',
  describe: 'blur estimation (re-blur metric) + noise estimate → adaptive two-scale unsharp mask',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, (img) => {
      ctx.onProgress(0.2);
      return { image: autoSharpenRgb(img).out };
    }),
};
