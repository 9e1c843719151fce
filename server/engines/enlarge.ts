/**
 * enlarge (EnlargeStable): our own x2 super-resolution net (server/engines/netRunners.ts, trained by
 * scripts/train/restore_nets.py) on onnxruntime, tiled with blended seams, in chained passes: 4x = x2·x2,
 * 8x = x2·x2·x2, 6x = x2·x2 then Lanczos ×1.5 (the x4 net trained beside it lost to two x2 passes on
 * the quality photos, so it is not used: server/engines/README.md); a pass that would break the job
 * limit falls back to Lanczos (planPasses). quality 'best' = the net's self-ensemble. What
 * suppress_noise, remove_blur and autoparams do with the net: src/shared/imaging/enlargeSteps.ts.
 */
import sharp from 'sharp';
import type { ParamsOf } from '../../src/shared/domain/modules.js';
import type { Engine, EngineImage } from './types.js';
import { outputTooLarge } from '../../src/shared/domain/resultSize.js';
import { netUpscale } from './netRunners.js';
import { resizeRgb, runOnRgb, type Rgb } from './image.js';
import { backProject, enlargeSettings, keepDetail, postSharpen, preDenoise, type EnlargeSettings } from '../../src/shared/imaging/enlargeSteps.js';

/** The pure steps (settings rule, pre-denoise, detail gain, post-sharpen) are shared with the device. */
export { backProject, enlargeSettings, keepDetail, postSharpen, preDenoise, type EnlargeSettings };

/** Largest output side we produce: the one rule in src/shared/domain/resultSize.ts (outputTooLarge). */
export { ENLARGE_MAX_SIDE_PX as ENLARGE_MAX_SIDE } from '../../src/shared/domain/constants.js';

/** Net passes per scale; 6x ends with Lanczos ×1.5 after two x2 passes. */
export const ENLARGE_PASSES: Readonly<Record<ParamsOf<'enlarge'>['scale'], readonly 2[]>> = { 2: [2], 4: [2, 2], 6: [2, 2], 8: [2, 2, 2] };

/**
 * Seconds per input megapixel of one pass on 2 threads without ensemble (npm run bench, a quiet
 * machine), with room for a loaded one. A pass runs on the net only while the plan stays inside
 * NEURAL_BUDGET_S (an ensemble shrinks to fit first), else on Lanczos, so the largest inputs stay
 * inside the 5-minute job limit.
 */
const PASS_S_PER_MP = 6;
export const NEURAL_BUDGET_S = 120;

export type PassEngine = 'net' | 'lanczos';

/** Which engine each pass uses for an input of `mp` megapixels, and the ensemble size that fits. */
export function planPasses(scale: ParamsOf<'enlarge'>['scale'], mp: number, ensemble = 1): { factor: 2; engine: PassEngine; ensemble: number }[] {
  let spent = 0;
  let area = mp;
  return ENLARGE_PASSES[scale].map((factor) => {
    let engine: PassEngine = 'lanczos';
    let n = ensemble;
    for (; n >= 1; n = n > 1 ? Math.floor(n / 2) : 0) {
      const cost = PASS_S_PER_MP * area * n;
      if (spent + cost <= NEURAL_BUDGET_S) {
        engine = 'net';
        spent += cost;
        break;
      }
    }
    area *= factor * factor;
    return { factor, engine, ensemble: Math.max(1, n) };
  });
}

export async function superResolve(img: Rgb, s: EnlargeSettings, modelsDir: string, threads: number, onProgress: (f: number) => void): Promise<Rgb> {
  const plan = planPasses(s.scale, (img.w * img.h) / 1e6, s.ensemble);
  // progress share of each pass ∝ its output pixels
  const shares = plan.map((p, i) => plan.slice(0, i + 1).reduce((a, q) => a * q.factor * q.factor, 1) * (p.engine === 'net' ? p.ensemble : 0.1));
  const total = shares.reduce((a, b) => a + b, 0);
  let x = img;
  let before = 0;
  for (const [i, p] of plan.entries()) {
    const share = (shares[i]! / total) * 0.95;
    const lo = x;
    x = p.engine === 'lanczos'
      ? await resizeRgb(x, x.w * p.factor, x.h * p.factor, 'lanczos3')
      : keepDetail(await netUpscale(x, p.factor, modelsDir, threads, (f) => onProgress(before + share * f), p.ensemble), lo, p.factor, s.detailGain);
    before += share;
    onProgress(before);
  }
  if (x.w !== img.w * s.scale) x = await resizeRgb(x, img.w * s.scale, img.h * s.scale, 'lanczos3'); // 6x: the last ×1.5
  onProgress(1);
  return x;
}

/** A transparent PNG keeps its transparency: the input's alpha plane enlarged with Lanczos, or none. */
async function enlargedAlpha(input: EngineImage, w: number, h: number): Promise<Uint8Array | undefined> {
  if (!(await sharp(input.data).metadata()).hasAlpha) return undefined;
  return sharp(input.data, { limitInputPixels: false }).extractChannel('alpha').resize(w, h, { kernel: 'lanczos3', fit: 'fill' }).raw().toBuffer();
}

export const enlargeEngine: Engine<'enlarge'> = {
  module: 'enlarge',
  kind: 'neural',
  describe: 'our own x2 super-resolution net on onnxruntime in chained passes (4x = x2·x2, 8x = x2·x2·x2, 6x = x2·x2 + Lanczos ×1.5), tiled with blended seams; best = self-ensemble',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      const s = enlargeSettings(params, img);
      const over = outputTooLarge(img.w, img.h, s.scale);
      if (over) throw new Error(`the enlarged image would be ${over.w}×${over.h} px; at most ${over.max} px a side can be produced`);
      ctx.onProgress(0.02);
      const clean = preDenoise(img, s.preDenoise);
      const up = await superResolve(clean, s, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.05 + 0.85 * f));
      const out = postSharpen(up, s.postSharpen, s.scale);
      const alpha = ctx.output === 'png' ? await enlargedAlpha(input, out.w, out.h) : undefined;
      return { image: out, ...(alpha ? { alpha } : {}) };
    }),
};
