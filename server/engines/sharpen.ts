/**
 * sharpen: unsharp mask on luma. sharpness → amount (and radius), suppress_noise → coring
 * threshold relative to the measured noise (fine grain is not amplified), add_grain → seeded
 * film grain. autoparams takes the amount from the blur estimate, as sharpen_auto does.
 */
import type { Engine } from './types.js';
import {
  estimateBlur,
  estimateNoise,
  fromPlanes,
  gaussianNoise,
  rgbToYcc,
  runOnRgb,
  toPlanes,
  unsharp,
  yccToRgb,
  type Rgb,
} from './image.js';

export interface SharpenOptions {
  sharpness: number;
  suppressNoise: number;
  addGrain: number;
  autoparams: boolean;
}

/** The sharpness actually used: the slider, or with autoparams one taken from the blur estimate. */
export function effectiveSharpness(y: Float32Array, w: number, h: number, o: SharpenOptions): number {
  return o.autoparams
    ? Math.round(30 + 70 * Math.min(1, Math.max(0, (estimateBlur(y, w, h) - 0.15) / 0.6)))
    : o.sharpness;
}

function sharpenRgb(img: Rgb, o: SharpenOptions): Rgb {
  const { w, h } = img;
  const ycc = rgbToYcc(toPlanes(img));
  const sigmaNoise = estimateNoise(ycc[0]!, w, h);
  const k = effectiveSharpness(ycc[0]!, w, h, o) / 100;
  const amount = 2.2 * k;
  const radius = 0.8 + 1.2 * k;
  const threshold = (o.suppressNoise / 100) * (1 + 2.5 * sigmaNoise);
  if (k > 0) ycc[0] = unsharp(ycc[0]!, w, h, radius, amount, threshold);
  if (o.addGrain > 0) {
    const g = gaussianNoise(w * h, (o.addGrain / 100) * 10, 20240229);
    const y = ycc[0]!;
    for (let i = 0; i < y.length; i++) y[i]! += g[i]!;
  }
  return fromPlanes(yccToRgb(ycc), w, h);
}

export const sharpenEngine: Engine<'sharpen'> = {
  module: 'sharpen',
  kind: 'classical',
  describe:
    'unsharp mask on luma: sharpness = amount/radius, suppress_noise = coring threshold, add_grain = film grain',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, (img) => {
      ctx.onProgress(0.2);
      const { sharpness, suppress_noise: suppressNoise, add_grain: addGrain, autoparams } = params;
      return { image: sharpenRgb(img, { sharpness, suppressNoise, addGrain, autoparams }) };
    }),
};
