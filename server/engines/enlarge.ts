/**
 * enlarge (EnlargeStable): our own super-resolution nets (server/engines/netRunners.ts; weights and
 * training in weights/README.md) on onnxruntime, tiled with blended seams. Each photo is measured first
 * (src/shared/imaging/inputGrade.ts: its JPEG quantization table, blockiness on the 8-px grid, noise)
 * and that picks the "clean" net (bicubic-only fine-tune, sharper on clean inputs), the "mixed" net
 * (blur, noise and JPEG: takes blocks and noise out) or a blend of their outputs. 2x = the x2 net,
 * 4x = the x4 net, 8x = x4 then x2, 6x = x4·x2 then Lanczos ×0.75 (ENLARGE_PASSES); a pass that would break
 * the job limit falls back to Lanczos (planPasses). quality 'best' = the nets' self-ensemble where it
 * fits. What suppress_noise, remove_blur and autoparams do with the nets: src/shared/imaging/enlargeSteps.ts.
 */
import sharp from 'sharp';
import type { ParamsOf } from '../../src/shared/domain/modules.js';
import type { Engine, EngineImage } from './types.js';
import { outputTooLarge } from '../../src/shared/domain/resultSize.js';
import { netUpscale, srNets } from './netRunners.js';
import { luma, resizeRgb, runOnRgb, type Rgb } from './image.js';
import { gradeInput } from '../../src/shared/imaging/inputGrade.js';
import { OWN_NET_FILES, SR_TILE } from '../../src/shared/imaging/netFiles.js';
import {
  backProject,
  enlargeSettings,
  keepDetail,
  postSharpen,
  preDenoise,
  type EnlargeSettings,
} from '../../src/shared/imaging/enlargeSteps.js';

/** The pure steps (settings rule, pre-denoise, detail gain, post-sharpen) are shared with the device. */
export { backProject, enlargeSettings, keepDetail, postSharpen, preDenoise, type EnlargeSettings };

/** Largest output side we produce: the one rule in src/shared/domain/resultSize.ts (outputTooLarge). */
export { ENLARGE_MAX_SIDE_PX as ENLARGE_MAX_SIDE } from '../../src/shared/domain/constants.js';

/**
 * Net passes per scale. 6x = x4·x2 then Lanczos down to 6x: on four held-out crops (Storm, YellowFlower,
 * LadyBird, GreenMeadow at 480×312, MATLAB bicubic ÷6) it read 32.34 dB Y-PSNR against 31.89 for x4 then
 * Lanczos ×1.5, 29.95 for x2 · Lanczos ×1.5 · x2, 26.66 for Lanczos ×1.5 then x4 (Lanczos alone 29.84).
 */
export const ENLARGE_PASSES: Readonly<Record<ParamsOf<'enlarge'>['scale'], readonly (2 | 4)[]>> = {
  2: [2],
  4: [4],
  6: [4, 2],
  8: [4, 2],
};

/**
 * Seconds per input megapixel of one pass of one net on 2 threads without ensemble, with room for a
 * loaded machine: `npm run bench nets` measured an x4 pass at 2.0× an x2 pass per input MP in one run
 * (27 and 55 s/MP with 10–15 jobs on the 2 cores, where today's v1 x2 engine ran ~10× its calm time). A pass runs on the nets only while the
 * plan stays inside NEURAL_BUDGET_S (an ensemble shrinks to fit first, then a blend of the two nets
 * gives way to the nearer one), else on Lanczos, so the largest inputs stay inside the 5-minute job limit.
 */
export const PASS_S_PER_MP: Readonly<Record<2 | 4, number>> = { 2: 18, 4: 36 };
export const NEURAL_BUDGET_S = 120;

export type PassEngine = 'net' | 'lanczos';
export interface Pass {
  factor: 2 | 4;
  engine: PassEngine;
  ensemble: number;
  /** both nets run and their outputs are blended (else the one nearer the photo's mixed-net share) */
  blend: boolean;
}

/**
 * Which engine each pass uses for an input of `mp` megapixels, the ensemble size that fits and whether
 * the first pass may blend two nets (`blend`: the photo's share is between the nets; later passes
 * enlarge a net's own clean output and run one net).
 */
export function planPasses(scale: ParamsOf<'enlarge'>['scale'], mp: number, ensemble = 1, blend = false): Pass[] {
  let spent = 0;
  let area = mp;
  return ENLARGE_PASSES[scale].map((factor, i) => {
    const tries: [number, boolean][] = [];
    for (const b of blend && i === 0 ? [true, false] : [false])
      for (let n = ensemble; n >= 1; n = n > 1 ? Math.floor(n / 2) : 0) tries.push([n, b]);
    const fit = tries.find(([n, b]) => spent + PASS_S_PER_MP[factor] * area * n * (b ? 2 : 1) <= NEURAL_BUDGET_S);
    if (fit) spent += PASS_S_PER_MP[factor] * area * fit[0] * (fit[1] ? 2 : 1);
    area *= factor * factor;
    return fit
      ? { factor, engine: 'net', ensemble: fit[0], blend: fit[1] }
      : { factor, engine: 'lanczos', ensemble: 1, blend: false };
  });
}

/**
 * The mixed-net share of passes after the first: they enlarge a net's output, which carries no blocks or
 * noise. x8 of the four held-out crops (MATLAB bicubic ÷8, x4 clean net first): the clean x2 net second
 * 29.75 dB Y-PSNR, the mixed one 29.56 (lower on all four).
 */
export const LATER_PASS_SHARE = 0;

export async function superResolve(
  img: Rgb,
  s: EnlargeSettings,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void,
): Promise<Rgb> {
  const w = s.mixedShare;
  const plan = planPasses(s.scale, (img.w * img.h) / 1e6, s.ensemble, srNets(2, w).nets.length > 1);
  // progress share of each pass ∝ its output pixels
  const shares = plan.map(
    (p, i) =>
      plan.slice(0, i + 1).reduce((a, q) => a * q.factor * q.factor, 1) *
      (p.engine === 'net' ? p.ensemble * (p.blend ? 2 : 1) : 0.1),
  );
  const total = shares.reduce((a, b) => a + b, 0);
  let x = img;
  let before = 0;
  for (const [i, p] of plan.entries()) {
    const share = (shares[i]! / total) * 0.95;
    const lo = x;
    // a blend that did not fit runs the nearer net; a pass on Lanczos is left to the one resize to the target size below
    const pw = i > 0 ? LATER_PASS_SHARE : p.blend ? w : Math.round(w);
    if (p.engine === 'net')
      x = keepDetail(
        await netUpscale(
          x,
          srNets(p.factor, pw),
          modelsDir,
          threads,
          (f) => onProgress(before + share * f),
          p.ensemble,
        ),
        lo,
        p.factor,
        s.detailGain,
      );
    before += share;
    onProgress(before);
  }
  if (x.w !== img.w * s.scale) x = await resizeRgb(x, img.w * s.scale, img.h * s.scale, 'lanczos3'); // Lanczos passes, and 6x's ×0.75 after x8
  onProgress(1);
  return x;
}

/**
 * Enlarge 2x as the device runs it (src-worker/ondevice): the same settings rule and steps around the
 * on-device net (x2Small, SR_TILE) on this server's onnxruntime, for the parity checks and the bench.
 */
export async function deviceEnlarge2x(
  img: Rgb,
  params: ParamsOf<'enlarge'>,
  modelsDir: string,
  threads: number,
): Promise<Rgb> {
  const s = enlargeSettings({ ...params, scale: 2, quality: 'high' }, img);
  const clean = preDenoise(img, s.preDenoise);
  const up = await netUpscale(
    clean,
    { scale: 2, nets: [{ file: OWN_NET_FILES.x2Small, weight: 1 }], tile: SR_TILE },
    modelsDir,
    threads,
  );
  return postSharpen(keepDetail(up, clean, 2, s.detailGain), s.postSharpen, 2);
}

/** A transparent PNG keeps its transparency: the input's alpha plane enlarged with Lanczos, or none. */
async function enlargedAlpha(input: EngineImage, w: number, h: number): Promise<Uint8Array | undefined> {
  if (!(await sharp(input.data).metadata()).hasAlpha) return undefined;
  return sharp(input.data, { limitInputPixels: false })
    .extractChannel('alpha')
    .resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer();
}

export const enlargeEngine: Engine<'enlarge'> = {
  module: 'enlarge',
  kind: 'neural',
  describe:
    'our own x2 / x4 super-resolution nets on onnxruntime, the clean or the mixed-degradation net (or a blend) chosen per photo from its JPEG tables, blockiness and noise; 8x = x4·x2, 6x = x4·x2 + Lanczos ×0.75; tiled with blended seams; best = self-ensemble',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      const s = enlargeSettings(params, img, gradeInput(input.data, luma(img), img.w, img.h));
      const over = outputTooLarge(img.w, img.h, s.scale);
      if (over)
        throw new Error(
          `the enlarged image would be ${over.w}×${over.h} px; at most ${over.max} px a side can be produced`,
        );
      ctx.onProgress(0.02);
      const clean = preDenoise(img, s.preDenoise);
      const up = await superResolve(clean, s, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.05 + 0.85 * f));
      const out = postSharpen(up, s.postSharpen, s.scale);
      const alpha = ctx.output === 'png' ? await enlargedAlpha(input, out.w, out.h) : undefined;
      return { image: out, ...(alpha ? { alpha } : {}) };
    }),
};
