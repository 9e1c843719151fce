/**
 * denoise (DenoiseStable): classical edge-preserving denoiser. Luma: non-local means whose
 * filtering strength follows the measured noise σ × remove_noise; chroma: guided filter steered
 * by the cleaned luma. remove_original_detail flattens texture further (guided smoothing of the
 * result); sharpen restores edge contrast with a cored unsharp mask. autoparams sets
 * remove_noise from the measured noise.
 */
import type { Engine } from './types.js';
import { clamp, estimateNoise, fromPlanes, guidedFilter, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';
import { nonLocalMeans } from './nlm.js';

export interface DenoiseOptions {
  removeNoise: number;
  sharpen: number;
  removeOriginalDetail: number;
  autoparams: boolean;
}

export function denoiseRgb(img: Rgb, o: DenoiseOptions, onProgress: (f: number) => void = () => {}): Rgb {
  const { w, h } = img;
  const ycc = rgbToYcc(toPlanes(img));
  const sigma = Math.max(1, estimateNoise(ycc[0]!, w, h));
  const rn = o.autoparams ? clamp(40 + sigma * 3, 0, 100) : o.removeNoise;
  if (rn > 0) {
    // h ≈ 0.4σ … 1.1σ over the slider range (NLM's usual h ≈ 0.4–1.0 σ for 5×5 patches)
    const hParam = sigma * (0.25 + 0.85 * (rn / 100));
    const radius = sigma > 15 ? 5 : 4;
    ycc[0] = nonLocalMeans(ycc[0]!, w, h, hParam, radius, 2, (f) => onProgress(0.8 * f));
    const eps = (sigma * (rn / 100) * 1.5) ** 2;
    ycc[1] = guidedFilter(ycc[0]!, ycc[1]!, w, h, 3, eps);
    ycc[2] = guidedFilter(ycc[0]!, ycc[2]!, w, h, 3, eps);
  }
  if (o.removeOriginalDetail > 0) {
    const k = o.removeOriginalDetail / 100;
    const smooth = guidedFilter(ycc[0]!, ycc[0]!, w, h, 2 + Math.round(4 * k), (6 + 30 * k) ** 2);
    for (let i = 0; i < smooth.length; i++) ycc[0]![i] = ycc[0]![i]! + k * (smooth[i]! - ycc[0]![i]!);
  }
  if (o.sharpen > 0) ycc[0] = unsharp(ycc[0]!, w, h, 1.2, (o.sharpen / 100) * 0.6, Math.max(1, sigma * 0.1));
  onProgress(1);
  return fromPlanes(yccToRgb(ycc), w, h);
}

export const denoiseEngine: Engine<'denoise'> = {
  module: 'denoise',
  kind: 'classical',
  describe: 'non-local means on luma (strength from measured noise × remove_noise), guided filter on chroma, cored unsharp mask',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, (img) => {
      const { remove_noise: removeNoise, sharpen, remove_original_detail: removeOriginalDetail, autoparams } = params;
      return { image: denoiseRgb(img, { removeNoise, sharpen, removeOriginalDetail, autoparams }, (f) => ctx.onProgress(0.95 * f)) };
    }),
};
