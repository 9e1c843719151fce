/**
 * enlarge (EnlargeStable): ESRGAN super-resolution on onnxruntime, tiled with blended seams.
 * 2x = one x2 pass, 4x = x2·x2, 8x = x2·x2·x2, 6x = x2·x2 then Lanczos ×1.5 (the native x3/x4/x8
 * models leave a block mosaic), then back-projection onto the input; passes that would break the
 * job limit fall back from medium to slim to Lanczos (planPasses).
 * quality 'high' → ESRGAN-slim, 'best' → ESRGAN-medium (thick costs ~10× more for little gain here).
 * suppress_noise: edge-preserving pre-denoise; remove_blur: unsharp mask after upscaling.
 */
import sharp from 'sharp';
import type { ParamsOf } from '../../src/domain/modules.js';
import type { Engine, EngineImage } from './types.js';
import { upscaleTiled } from './esrgan.js';
import { clamp, clamp255, estimateFocusBlur, estimateNoise, fromPlanes, guidedFilter, luma, resizeRgb, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';
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
    // Texture reads as σ ≈ 2–5 on clean photos, so denoising starts above that; blur is judged
    // on the in-focus tiles (bokeh is not blur). Clean sharp input → 0/0, which measured best.
    const y = luma(img);
    const sigma = estimateNoise(y, img.w, img.h);
    const blur = estimateFocusBlur(y, img.w, img.h);
    suppressNoise = Math.round(clamp((sigma - 5) * 10, 0, 100));
    removeBlur = Math.round(clamp((blur - 0.3) * 250, 0, 100));
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

/**
 * Passes per scale. The slim/medium x4 and x8 models end in a nearest-neighbour upsample and one
 * 3×3 conv, which leaves a visible 4-px / 8-px block mosaic; chained x2 passes (whose 2-px phase
 * structure is invisible) then back-projection measured best (README: +0.9 dB over Lanczos at x4,
 * +0.5 dB at x8 on held-out photos vs −1.5 / −2.1 dB for the native models). 6x = x2·x2 then
 * Lanczos ×1.5: the x3 model has the same mosaic (3 px, grown to 6 px by a following x2 pass).
 */
export const ENLARGE_PASSES: Readonly<Record<ParamsOf<'enlarge'>['scale'], readonly (2 | 3)[]>> = { 2: [2], 4: [2, 2], 6: [2, 2], 8: [2, 2, 2] };

/**
 * Seconds per input megapixel of one pass on 2 threads, measured on a quiet machine (README). A
 * pass runs on the medium model only while the plan stays inside NEURAL_BUDGET_S, then on slim,
 * then Lanczos (still followed by back-projection), so the largest inputs stay inside the 5-minute
 * job limit with room for a loaded machine.
 */
const PASS_S_PER_MP: Readonly<Record<EsrganSize, Record<2 | 3, number>>> = {
  slim: { 2: 2.4, 3: 2.6 },
  medium: { 2: 12, 3: 13 },
  thick: { 2: 200, 3: 200 },
};
export const NEURAL_BUDGET_S = 120;

export type PassEngine = EsrganSize | 'lanczos';

/** Which engine each pass uses for an input of `mp` megapixels (cheapest fallback last). */
export function planPasses(scale: ParamsOf<'enlarge'>['scale'], size: EsrganSize, mp: number): { factor: 2 | 3; engine: PassEngine }[] {
  let spent = 0;
  let area = mp;
  return ENLARGE_PASSES[scale].map((factor) => {
    let engine: PassEngine = 'lanczos';
    for (const cand of size === 'slim' ? (['slim'] as const) : ([size, 'slim'] as const)) {
      const cost = PASS_S_PER_MP[cand][factor] * area;
      if (spent + cost <= NEURAL_BUDGET_S) {
        engine = cand;
        spent += cost;
        break;
      }
    }
    area *= factor * factor;
    return { factor, engine };
  });
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
  const W = hi.w, H = hi.h, d = hi.data;
  if (W !== w * s || H !== h * s) throw new Error('backProject: sizes do not match the factor');
  const err = new Float32Array(w * h * 3);
  // bilinear taps along one axis: for output index X, low index i0 and weight of i0+1
  const taps = (n: number, N: number) => {
    const i0 = new Int32Array(N), t = new Float32Array(N);
    for (let X = 0; X < N; X++) {
      const c = Math.min(n - 1, Math.max(0, (X + 0.5) / s - 0.5));
      i0[X] = Math.min(Math.floor(c), Math.max(0, n - 2));
      t[X] = n > 1 ? c - i0[X]! : 0;
    }
    return { i0, t };
  };
  const tx = taps(w, W), ty = taps(h, H);
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
    const x1 = w > 1 ? 3 : 0, y1 = h > 1 ? w * 3 : 0;
    for (let Y = 0; Y < H; Y++) {
      const r0 = ty.i0[Y]! * w * 3, v = ty.t[Y]!;
      let j = Y * W * 3;
      for (let X = 0; X < W; X++, j += 3) {
        const a = r0 + tx.i0[X]! * 3, u = tx.t[X]!;
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

export async function superResolve(img: Rgb, s: EnlargeSettings, modelsDir: string, threads: number, onProgress: (f: number) => void): Promise<Rgb> {
  const plan = planPasses(s.scale, s.size, (img.w * img.h) / 1e6);
  // progress share of each pass ∝ its output pixels
  const shares = plan.map((_, i) => plan.slice(0, i + 1).reduce((a, p) => a * p.factor * p.factor, 1));
  const total = shares.reduce((a, b) => a + b, 0);
  let x = img;
  let before = 0;
  for (const [i, p] of plan.entries()) {
    const share = (shares[i]! / total) * 0.95;
    x = p.engine === 'lanczos'
      ? await resizeRgb(x, x.w * p.factor, x.h * p.factor, 'lanczos3')
      : await upscaleTiled(x, p.engine, p.factor as EsrganScale, modelsDir, threads, (f) => onProgress(before + share * f));
    before += share;
    onProgress(before);
  }
  if (x.w !== img.w * s.scale) x = await resizeRgb(x, img.w * s.scale, img.h * s.scale, 'lanczos3'); // 6x: the last ×1.5
  const out = backProject(x, img, s.scale);
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
  describe: 'ESRGAN (slim for high, medium for best) on onnxruntime in chained x2 passes (6x = x2·x2 + Lanczos ×1.5), tiled with blended seams, then back-projection',
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
