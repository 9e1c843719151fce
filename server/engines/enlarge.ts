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
import { resizeRgb, runOnRgb, type Rgb } from './image.js';
import type { EsrganScale, EsrganSize } from './models.js';
import { backProject, enlargeSettings, postSharpen, preDenoise, PRE_DENOISE_SHARE, type EnlargeSettings } from '../../src/imaging/enlargeSteps.js';

/** The pure steps (settings rule, pre-denoise, back-projection, post-sharpen) are shared with the device. */
export { backProject, enlargeSettings, postSharpen, preDenoise, type EnlargeSettings };

/** Largest output side we produce (JPEG allows 65535, but memory and the 5-minute limit do not). */
export const ENLARGE_MAX_SIDE = 16384;

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
      const clean = preDenoise(img, s.suppressNoise * PRE_DENOISE_SHARE);
      const up = await superResolve(clean, s, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.05 + 0.85 * f));
      const out = postSharpen(up, s.removeBlur, s.scale);
      const alpha = ctx.output === 'png' ? await enlargedAlpha(input, out.w, out.h) : undefined;
      return { image: out, ...(alpha ? { alpha } : {}) };
    }),
};
