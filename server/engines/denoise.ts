/**
 * denoise (DenoiseStable): our own blind denoising net (server/engines/netRunners.ts, trained by
 * scripts/train/train.py from a recipe), see denoiseWithNet. denoiseRgb below is the classical denoiser it
 * replaced (kept for `npm run quality` / bench comparisons and the classical steps of other engines):
 * luma: non-local means whose
 * filtering strength follows the measured noise σ × remove_noise; chroma: guided filter steered
 * by the cleaned luma. remove_original_detail flattens texture further (guided smoothing of the
 * result); sharpen restores edge contrast with a cored unsharp mask. autoparams sets
 * remove_noise from the measured noise.
 */
import type { Engine } from './types.js';
import {
  clamp,
  estimateNoise,
  fromPlanes,
  guidedFilter,
  rgbToYcc,
  runOnRgb,
  toPlanes,
  unsharp,
  yccToRgb,
  type Rgb,
} from './image.js';
import { nonLocalMeans } from './nlm.js';
import { netDenoise } from './netRunners.js';

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

/** remove_noise at which the net's estimate is taken whole (the module's default); above it a second pass is blended in. */
const FULL_AT = 75;

function blend(a: Rgb, b: Rgb, k: number): Rgb {
  if (k >= 1) return b;
  const out = new Uint8Array(a.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(a.data[i]! + k * (b.data[i]! - a.data[i]!));
  return { w: a.w, h: a.h, data: out };
}

/**
 * The net's denoise with the module's params:
 *  - remove_noise: 0 leaves the picture, up to the default 75 blends in the net's estimate (all of it at
 *    75), above 75 blends in a second pass of the net over the first (for heavy noise the first leaves);
 *    autoparams sets it from the measured noise.
 *  - sharpen: gives back the detail the net took along with the noise: the part of the removed residual
 *    that follows the cleaned picture's local structure (a guided filter of the luma residual, guided by
 *    the cleaned luma; pure noise does not follow it and stays out), in a share that falls with the
 *    removed noise σ: GIVE_BACK × (sharpen / 75) × min(1, (GIVE_BACK_SIGMA / σ)²) — 0.3 at the default
 *    and σ ≤ 15, 0.11 at σ 25, 0.03 at σ 50, where what passes the filter is mostly low-frequency noise.
 *  - remove_original_detail: flattens texture further (guided smoothing of the luma), as before.
 */
export async function denoiseWithNet(
  img: Rgb,
  o: DenoiseOptions,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  file?: string,
): Promise<Rgb> {
  const { w, h } = img;
  const rn = o.autoparams
    ? clamp(40 + Math.max(1, estimateNoise(rgbToYcc(toPlanes(img))[0]!, w, h)) * 3, 0, 100)
    : o.removeNoise;
  if (rn <= 0 && o.removeOriginalDetail <= 0) return img;
  const twice = rn > FULL_AT;
  const first = await netDenoise(img, modelsDir, threads, (f) => onProgress((twice ? 0.45 : 0.9) * f), file);
  let out = blend(img, first, Math.min(1, rn / FULL_AT));
  if (twice)
    out = blend(
      out,
      await netDenoise(out, modelsDir, threads, (f) => onProgress(0.45 + 0.45 * f), file),
      (rn - FULL_AT) / (100 - FULL_AT),
    );
  const ycc = rgbToYcc(toPlanes(out));
  if (o.sharpen > 0 && rn > 0) {
    const yIn = rgbToYcc(toPlanes(img))[0]!;
    const resid = new Float32Array(w * h);
    for (let i = 0; i < resid.length; i++) resid[i] = yIn[i]! - ycc[0]![i]!;
    const sigma = Math.max(1, estimateNoise(resid, w, h));
    const back = guidedFilter(ycc[0]!, resid, w, h, SHARPEN_RADIUS, (SHARPEN_EPS_PER_SIGMA * sigma) ** 2);
    const k = GIVE_BACK * (o.sharpen / 75) * Math.min(1, (GIVE_BACK_SIGMA / sigma) ** 2);
    for (let i = 0; i < back.length; i++) ycc[0]![i] = ycc[0]![i]! + k * back[i]!;
  }
  if (o.removeOriginalDetail > 0) {
    const k = o.removeOriginalDetail / 100;
    const smooth = guidedFilter(ycc[0]!, ycc[0]!, w, h, 2 + Math.round(4 * k), (6 + 30 * k) ** 2);
    for (let i = 0; i < smooth.length; i++) ycc[0]![i] = ycc[0]![i]! + k * (smooth[i]! - ycc[0]![i]!);
  }
  onProgress(1);
  return fromPlanes(yccToRgb(ycc), w, h);
}
const SHARPEN_RADIUS = 2;
const SHARPEN_EPS_PER_SIGMA = 1;
/**
 * The give-back at the default sharpen (75) and σ up to GIVE_BACK_SIGMA. Chosen with the v2 net on four
 * mate-backgrounds photos (Storm, YellowFlower, GreenMeadow, Wood at 480×320, never a benchmark): any
 * give-back lowers PSNR there (the whole residual at 75 cost 0.5 / 0.9 / 2.3 dB at σ 15 / 25 / 50, a
 * share of 0.3 costs 0.10 / 0.20 / 0.48), so the share keeps to about 0.1 dB at each σ.
 */
const GIVE_BACK = 0.3;
const GIVE_BACK_SIGMA = 15;

export const denoiseEngine: Engine<'denoise'> = {
  module: 'denoise',
  kind: 'neural',
  describe:
    'our own blind denoising net (remove_noise blends it in, a second pass above 75), detail given back by a guided filter of the removed residual (sharpen)',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      const { remove_noise: removeNoise, sharpen, remove_original_detail: removeOriginalDetail, autoparams } = params;
      return {
        image: await denoiseWithNet(
          img,
          { removeNoise, sharpen, removeOriginalDetail, autoparams },
          ctx.modelsDir,
          ctx.threads,
          (f) => ctx.onProgress(0.95 * f),
        ),
      };
    }),
};
