/**
 * The pure steps of enlarge, shared by the server's engine (server/engines/enlarge.ts) and the on-device
 * enlarge in the image worker (src-worker/ondevice): the settings rule, the edge-preserving pre-denoise,
 * the detail gain on our net's output and the luma unsharp after it. Plain typed-array code, no Node or
 * DOM API, so both sides produce the same pixels from the same model output. The order is
 * preDenoise(settings.preDenoise) → our x2 / x4 net → keepDetail(settings.detailGain) → postSharpen(settings.postSharpen).
 *
 * What the sliders mean with our nets (the server blends a "clean" net, sharpest on clean inputs, with a
 * "mixed" one trained to undo blur, sensor noise and JPEG; the device runs one small mixed net):
 *  - suppress_noise: how far the photo's measured compression and noise (inputGrade.ts, mixedShare)
 *    move the server from the clean net to the mixed one: 0 = the clean net always (every block and
 *    grain carried into the enlargement, at its sharpest), the default 75 = the measured share, 100 =
 *    a third more of the mixed net; a clean photo stays on the clean net at any setting. Heavy noise
 *    (σ above NOISE_FLOOR, which clean photos and the benchmark sets stay under) also gets the
 *    edge-preserving pre-denoise, scaled by the slider.
 *  - remove_blur: 0 keeps 60 % of the detail the net restores (a softer look), the default 75 and above
 *    all of it; above 75 a luma unsharp mask adds edge contrast for visibly soft photos.
 *  - autoparams: the pre-denoise and sharpening from the picture (noise σ and in-focus blur), and the
 *    measured mixed-net share as it is.
 *  - quality 'best': the nets' self-ensemble (the mean over eight flips/transposes, about +0.1 dB, 8× the time).
 */
import type { ParamsOf } from '../domain/modules.js';
import type { InputGrade } from './inputGrade.js';
import { mixedShare } from './inputGrade.js';
import {
  clamp,
  clamp255,
  estimateFocusBlur,
  estimateNoise,
  fromPlanes,
  guidedFilter,
  luma,
  rgbToYcc,
  toPlanes,
  unsharp,
  yccToRgb,
  type Rgb,
} from './planes.js';

/** Self-ensemble size for quality 'best' (1 for 'high'). */
const BEST_ENSEMBLE = 8;
/** Luma noise σ (estimateNoise) under which the pre-denoise stays off; texture alone reads up to ~8 here. */
const NOISE_FLOOR = 8;
/** suppress_noise at which the mixed-net share is the measured one (the module's default). */
const MEASURED_SHARE_AT = 75;
/** remove_blur at and above which the net's detail is kept whole (the module's default). */
const FULL_DETAIL_AT = 75;

export interface EnlargeSettings {
  scale: ParamsOf<'enlarge'>['scale'];
  ensemble: number;
  /** pre-denoise strength 0..100 after the noise gate */
  preDenoise: number;
  /** share of the net's restored detail kept, 0.6..1 */
  detailGain: number;
  /** post-sharpen strength 0..100 */
  postSharpen: number;
  /** share of the mixed-degradation net against the clean one, 0..1 (the server's nets; 0 without a grade) */
  mixedShare: number;
}

export function enlargeSettings(params: ParamsOf<'enlarge'>, img?: Rgb, grade?: InputGrade): EnlargeSettings {
  let suppressNoise = params.suppress_noise;
  let removeBlur = params.remove_blur;
  const y = img ? luma(img) : undefined;
  const sigma = img && y ? estimateNoise(y, img.w, img.h) : 0;
  if (params.autoparams && img && y) {
    // Let the picture decide: noisy input → the pre-denoise at full slider, soft input → sharpen above
    // the net's own detail; in-focus tiles only (bokeh is not blur). Clean sharp input → the defaults' behaviour.
    const blur = estimateFocusBlur(y, img.w, img.h);
    suppressNoise = Math.round(clamp((sigma - 5) * 10, 0, 100));
    removeBlur = Math.round(clamp(FULL_DETAIL_AT + (blur - 0.3) * 250, FULL_DETAIL_AT, 100));
  }
  const need = clamp((sigma - NOISE_FLOOR) / 6, 0, 1);
  const measured = grade ? mixedShare(grade) : 0;
  return {
    scale: params.scale,
    ensemble: params.quality === 'best' ? BEST_ENSEMBLE : 1,
    preDenoise: Math.round(suppressNoise * need),
    detailGain: 0.6 + 0.4 * Math.min(1, removeBlur / FULL_DETAIL_AT),
    postSharpen: Math.round(clamp(((removeBlur - FULL_DETAIL_AT) / (100 - FULL_DETAIL_AT)) * 100, 0, 100)),
    mixedShare: params.autoparams ? measured : clamp((measured * params.suppress_noise) / MEASURED_SHARE_AT, 0, 1),
  };
}

/**
 * Bilinear taps along one axis of an upscale by s (half-pixel centres, edges replicated): for each
 * output index X, the low-resolution index i0 and the weight t of i0 + 1.
 */
function bilinearTaps(n: number, N: number, s: number): { i0: Int32Array; t: Float32Array } {
  const i0 = new Int32Array(N),
    t = new Float32Array(N);
  for (let X = 0; X < N; X++) {
    const c = Math.min(n - 1, Math.max(0, (X + 0.5) / s - 0.5));
    i0[X] = Math.min(Math.floor(c), Math.max(0, n - 2));
    t[X] = n > 1 ? c - i0[X]! : 0;
  }
  return { i0, t };
}

/**
 * Scales the detail a net added over the bilinear upsample of its input `lo` by `gain` (1 = as is),
 * in place. The bilinear reference is the one the nets add their detail to (half-pixel centres,
 * edges replicated).
 */
export function keepDetail(hi: Rgb, lo: Rgb, s: number, gain: number): Rgb {
  if (gain >= 1) return hi;
  const { w, h } = lo,
    W = hi.w,
    H = hi.h,
    d = hi.data,
    l = lo.data;
  const tx = bilinearTaps(w, W, s),
    ty = bilinearTaps(h, H, s);
  const x1 = w > 1 ? 3 : 0,
    y1 = h > 1 ? w * 3 : 0;
  for (let Y = 0; Y < H; Y++) {
    const r0 = ty.i0[Y]! * w * 3,
      v = ty.t[Y]!;
    for (let X = 0, j = Y * W * 3; X < W; X++, j += 3) {
      const a = r0 + tx.i0[X]! * 3,
        u = tx.t[X]!;
      for (let c = 0; c < 3; c++) {
        const top = l[a + c]! + u * (l[a + x1 + c]! - l[a + c]!);
        const bot = l[a + y1 + c]! + u * (l[a + y1 + x1 + c]! - l[a + y1 + c]!);
        const base = top + v * (bot - top);
        d[j + c] = clamp255(base + gain * (d[j + c]! - base));
      }
    }
  }
  return hi;
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
 * Luma unsharp mask on the (possibly huge) upscaled image, in place, in strips of rows so memory stays
 * bounded: the luma change is added equally to R, G and B, which is a pure luma edit. A strip reads the
 * original luma of the rows above it that the previous strip has already sharpened from that strip's
 * own luma (carried over), so the result is that of one pass over the whole picture while the picture is
 * held once (a 136 MP result is 408 MB; an out-of-place copy was another 408 MB). `stripRows`: tests only.
 */
export function postSharpen(img: Rgb, strength: number, scale: number, stripRows?: number): Rgb {
  if (strength <= 0) return img;
  const { w, h, data } = img;
  const sigma = 0.6 + 0.25 * Math.min(scale, 4); // wider radii cost time on huge outputs for no visible gain
  const amount = (strength / 100) * 0.8;
  const threshold = 1.5;
  const margin = Math.ceil(sigma * 3) + 1;
  const strip = Math.max(margin, stripRows ?? Math.max(64, Math.floor(4_000_000 / w)));
  /** the original luma of rows [carryFrom, y0), which the strips above have sharpened */
  let carry = new Float32Array(0);
  let carryFrom = 0;
  for (let y0 = 0; y0 < h; y0 += strip) {
    const y1 = Math.min(h, y0 + strip);
    const a = Math.max(0, y0 - margin),
      b = Math.min(h, y1 + margin);
    const sh = b - a;
    const Y = new Float32Array(w * sh);
    if (a < y0) Y.set(carry.subarray((a - carryFrom) * w, (y0 - carryFrom) * w));
    for (let i = (y0 - a) * w, j = y0 * w * 3; i < Y.length; i++, j += 3)
      Y[i] = 0.299 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!;
    const sharp = unsharp(Y, w, sh, sigma, amount, threshold);
    for (let y = y0; y < y1; y++) {
      const r = (y - a) * w;
      for (let x = 0; x < w; x++) {
        const d = sharp[r + x]! - Y[r + x]!;
        const j = (y * w + x) * 3;
        data[j] = clamp255(data[j]! + d);
        data[j + 1] = clamp255(data[j + 1]! + d);
        data[j + 2] = clamp255(data[j + 2]! + d);
      }
    }
    carryFrom = Math.max(a, y1 - margin);
    carry = Y.slice((carryFrom - a) * w, (y1 - a) * w);
  }
  return img;
}

/**
 * Iterative back-projection (Irani & Peleg 1991) for an integer factor s: the s×s block means of
 * the enlarged picture are pulled onto the input pixels, the residual spread back by bilinear
 * interpolation. Removes the networks' colour/brightness drift and restores the input's exact
 * content without adding a block structure. In place on the 8-bit output; only low-resolution
 * float planes are allocated, so an x8 output of 180 MP costs no extra full-size buffer.
 */
export function backProject(hi: Rgb, lo: Rgb, s: number, iterations = 2): Rgb {
  const { w, h } = lo;
  const W = hi.w,
    H = hi.h,
    d = hi.data;
  if (W !== w * s || H !== h * s) throw new Error('backProject: sizes do not match the factor');
  const err = new Float32Array(w * h * 3);
  const tx = bilinearTaps(w, W, s),
    ty = bilinearTaps(h, H, s);
  const inv = 1 / (s * s);
  for (let it = 0; it < iterations; it++) {
    err.fill(0);
    for (let Y = 0; Y < H; Y++) {
      const er = ((Y / s) | 0) * w * 3;
      let j = Y * W * 3;
      for (let X = 0; X < W; X++, j += 3) {
        const e = er + ((X / s) | 0) * 3;
        err[e]! += d[j]!;
        err[e + 1]! += d[j + 1]!;
        err[e + 2]! += d[j + 2]!;
      }
    }
    for (let i = 0; i < err.length; i++) err[i] = lo.data[i]! - err[i]! * inv;
    const x1 = w > 1 ? 3 : 0,
      y1 = h > 1 ? w * 3 : 0;
    for (let Y = 0; Y < H; Y++) {
      const r0 = ty.i0[Y]! * w * 3,
        v = ty.t[Y]!;
      let j = Y * W * 3;
      for (let X = 0; X < W; X++, j += 3) {
        const a = r0 + tx.i0[X]! * 3,
          u = tx.t[X]!;
        for (let c = 0; c < 3; c++) {
          const top = err[a + c]! + u * (err[a + x1 + c]! - err[a + c]!);
          const bot = err[a + y1 + c]! + u * (err[a + y1 + x1 + c]! - err[a + y1 + c]!);
          const nv = d[j + c]! + top + v * (bot - top);
          d[j + c] = nv <= 0 ? 0 : nv >= 255 ? 255 : Math.round(nv);
        }
      }
    }
  }
  return hi;
}
