/**
 * enlarge (EnlargeStable): our own super-resolution nets (server/engines/netRunners.ts; weights and
 * training in weights/README.md) on onnxruntime, tiled with blended seams. Each photo is measured first
 * (src/shared/imaging/inputGrade.ts: its JPEG quantization table, blockiness on the 8-px grid, noise)
 * and that picks the "clean" net (bicubic-only fine-tune, sharper on clean inputs), the "mixed" net
 * (blur, noise and JPEG: takes blocks and noise out) or a blend of their outputs. 2x = the x2 net,
 * 4x = the x4 net, 8x = x4 then x2, 6x = x4·x2 then bicubic ×0.75 (ENLARGE_PASSES); a pass the big nets
 * cannot do inside the job limit runs on the fast net, and only where no net fits is it resized (the
 * papers' bicubic), which the result reports (`pathOf`, planPasses). quality 'best' = the nets' self-ensemble where it
 * fits. What suppress_noise, remove_blur and autoparams do with the nets: src/shared/imaging/enlargeSteps.ts.
 */
import sharp from 'sharp';
import type { ParamsOf } from '../../src/shared/domain/modules.js';
import type { Engine, EngineImage } from './types.js';
import { outputTooLarge } from '../../src/shared/domain/resultSize.js';
import { netUpscale, srNets, type SrNets } from './netRunners.js';
import { luma, runOnRgb, type Rgb } from './image.js';
import { bicubicResize } from '../../src/shared/imaging/resample.js';
import type { EnlargePath } from '../../src/shared/domain/enlargePath.js';
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
export { backProject, enlargeSettings };

/** Largest output side we produce: the one rule in src/shared/domain/resultSize.ts (outputTooLarge). */
export { ENLARGE_MAX_SIDE_PX as ENLARGE_MAX_SIDE } from '../../src/shared/domain/constants.js';

/**
 * Net passes per scale. 6x = x4·x2 then down to 6x (Lanczos when measured; the papers' bicubic since): on four held-out crops (Storm, YellowFlower,
 * LadyBird, GreenMeadow at 480×312, MATLAB bicubic ÷6) it read 32.34 dB Y-PSNR against 31.89 for x4 then
 * Lanczos ×1.5, 29.95 for x2 · Lanczos ×1.5 · x2, 26.66 for Lanczos ×1.5 then x4 (Lanczos alone 29.84).
 */
const ENLARGE_PASSES: Readonly<Record<ParamsOf<'enlarge'>['scale'], readonly (2 | 4)[]>> = {
  2: [2],
  4: [4],
  6: [4, 2],
  8: [4, 2],
};

/**
 * Seconds per input megapixel of one pass on 2 threads, no ensemble, on an idle 2-core machine (AVX-512
 * VNNI). Big nets: the idle whole-pass figures of the int8 QDQ files (2026-11-28: x2 5.2, x4 6.2 s/MP,
 * docs/lab/benchmark-runs.md) over what the channels-last files gained on a tile in the same runs (x2
 * 1.3–1.6×, x4 1.3–1.5×, paired runs on the loaded machine, 2026-11-29), rounded up. Fast net
 * (`pixmill-sr-x2-small-v2`, 48 channels × 8 blocks, int8): 0.26–0.31× the big x2 pass in the same runs.
 * A blend of the two big nets costs twice a pass, an ensemble of n n times.
 */
export const PASS_S_PER_MP: Readonly<{ net: Readonly<Record<2 | 4, number>>; fastNet: number }> = {
  net: { 2: 4, 4: 5 },
  fastNet: 1.6,
};
/**
 * What a plan may spend on the nets at those idle rates: two thirds of the 5-minute job limit, the rest
 * being room for decoding, encoding and a busier machine. The largest photo of every plan fits: x2 of
 * 34 MP on the big net (136 s), x4 of 4096² (84 s), x8 of 2048² (x4 21 s, then the fast net on the
 * 67 MP x4 result: 107 s).
 */
export const NEURAL_BUDGET_S = 200;

/** A pass on the chosen (big) nets, on the fast net, or a plain resize (the papers' bicubic, src/shared/imaging/resample.ts). */
type PassEngine = 'net' | 'fastNet' | 'resize';
export interface Pass {
  factor: 2 | 4;
  engine: PassEngine;
  ensemble: number;
  /** both nets run and their outputs are blended (else the one nearer the photo's mixed-net share) */
  blend: boolean;
}

/** The options of one pass, best first, with their cost at the idle rates for `area` input MP. */
function passOptions(factor: 2 | 4, area: number, ensemble: number, blend: boolean): [Pass, number][] {
  const out: [Pass, number][] = [];
  for (const b of blend ? [true, false] : [false])
    for (let n = ensemble; n >= 1; n = n > 1 ? Math.floor(n / 2) : 0)
      out.push([{ factor, engine: 'net', ensemble: n, blend: b }, PASS_S_PER_MP.net[factor] * area * n * (b ? 2 : 1)]);
  // the fast net is an x2 net: an x4 pass on it would be two passes, and a 4x that needs it is past every plan's photo
  if (factor === 2) out.push([{ factor, engine: 'fastNet', ensemble: 1, blend: false }, PASS_S_PER_MP.fastNet * area]);
  out.push([{ factor, engine: 'resize', ensemble: 1, blend: false }, 0]);
  return out;
}

/**
 * Which engine each pass uses for an input of `mp` megapixels, the ensemble size that fits and whether
 * the first pass may blend two nets (`blend`: the photo's share is between the nets; later passes
 * enlarge a net's own clean output and run one net). Of the plans inside NEURAL_BUDGET_S it takes the
 * one with the fewest plain resizes, then the fewest fast-net passes, then the best first pass (largest
 * ensemble, then a blend), then the best second: every pixel goes through a net wherever one fits.
 */
export function planPasses(scale: ParamsOf<'enlarge'>['scale'], mp: number, ensemble = 1, blend = false): Pass[] {
  const factors = ENLARGE_PASSES[scale];
  const options: [Pass, number][][] = [];
  let area = mp;
  for (const [i, f] of factors.entries()) {
    options.push(passOptions(f, area, ensemble, blend && i === 0));
    area *= f * f;
  }
  let best: { plan: Pass[]; key: number[] } | undefined;
  const visit = (i: number, plan: Pass[], ranks: number[], spent: number) => {
    if (spent > NEURAL_BUDGET_S) return;
    if (i === options.length) {
      const count = (e: PassEngine) => plan.filter((p) => p.engine === e).length;
      const key = [count('resize'), count('fastNet'), ...ranks];
      const j = best ? key.findIndex((k, n) => k !== best!.key[n]) : -1;
      if (!best || (j >= 0 && key[j]! < best.key[j]!)) best = { plan, key };
      return;
    }
    for (const [rank, [pass, cost]] of options[i]!.entries())
      visit(i + 1, [...plan, pass], [...ranks, rank], spent + cost);
  };
  visit(0, [], [], 0);
  return best!.plan;
}

/**
 * Which path a work's enlargement took, for the user and the API (src/shared/domain/enlargePath.ts):
 * 'net' = every pass on the chosen nets; 'fast_net' = a pass on the fast net to fit the job limit;
 * 'resized' = a pass that no net could fit, resized without AI. 6x's last ×0.75 step is part of every
 * 6x plan, not a downgrade.
 */
export function pathOf(plan: readonly Pass[]): EnlargePath {
  if (plan.some((p) => p.engine === 'resize')) return 'resized';
  if (plan.some((p) => p.engine === 'fastNet')) return 'fast_net';
  return 'net';
}

/**
 * The mixed-net share of passes after the first: they enlarge a net's output, which carries no blocks or
 * noise. x8 of the four held-out crops (MATLAB bicubic ÷8, x4 clean net first): the clean x2 net second
 * 29.75 dB Y-PSNR, the mixed one 29.56 (lower on all four).
 */
const LATER_PASS_SHARE = 0;

async function superResolve(
  img: Rgb,
  s: EnlargeSettings,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void,
): Promise<{ image: Rgb; path: EnlargePath }> {
  const w = s.mixedShare;
  const plan = planPasses(s.scale, (img.w * img.h) / 1e6, s.ensemble, srNets(2, w).nets.length > 1);
  // progress share of each pass ∝ its output pixels × its cost per pixel
  const cost = (p: Pass) =>
    p.engine === 'net'
      ? PASS_S_PER_MP.net[p.factor] * p.ensemble * (p.blend ? 2 : 1)
      : p.engine === 'fastNet'
        ? PASS_S_PER_MP.fastNet
        : 0.1;
  const shares = plan.map((p, i) => plan.slice(0, i + 1).reduce((a, q) => a * q.factor * q.factor, 1) * cost(p));
  const total = shares.reduce((a, b) => a + b, 0);
  let x = img;
  let before = 0;
  for (const [i, p] of plan.entries()) {
    const share = (shares[i]! / total) * 0.95;
    const lo = x;
    // a blend that did not fit runs the nearer net; a resize pass is left to the one resize to the target size below
    const pw = i > 0 ? LATER_PASS_SHARE : p.blend ? w : Math.round(w);
    const nets = p.engine === 'fastNet' ? fastNet() : srNets(p.factor, pw);
    if (p.engine !== 'resize')
      x = keepDetail(
        await netUpscale(x, nets, modelsDir, threads, (f) => onProgress(before + share * f), p.ensemble),
        lo,
        p.factor,
        s.detailGain,
      );
    before += share;
    onProgress(before);
  }
  // resize passes, and 6x's ×0.75 after x8: the papers' bicubic, which sharp's upscale scores ~4 dB under
  if (x.w !== img.w * s.scale) x = bicubicResize(x, img.w * s.scale, img.h * s.scale);
  onProgress(1);
  return { image: x, path: pathOf(plan) };
}

/** The fast net: the on-device x2 net (48 channels × 8 blocks), int8 on the server where its recipe is committed. */
const fastNet = (): SrNets => ({ scale: 2, nets: [{ file: OWN_NET_FILES.x2Small, weight: 1 }], tile: SR_TILE });

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
  // the device runs the fp32 file: so does its server twin (the fast net's int8 file is the server's own)
  const up = await netUpscale(clean, { ...fastNet(), fp32: true }, modelsDir, threads);
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
    'our own x2 / x4 super-resolution nets on onnxruntime, the clean or the mixed-degradation net (or a blend) chosen per photo from its JPEG tables, blockiness and noise; 8x = x4·x2, 6x = x4·x2 + bicubic ×0.75; a pass the big nets cannot fit in the job limit runs on the fast x2 net (reported with the result); tiled with blended seams; best = self-ensemble',
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
      const { image: up, path } = await superResolve(clean, s, ctx.modelsDir, ctx.threads, (f) =>
        ctx.onProgress(0.05 + 0.85 * f),
      );
      const out = postSharpen(up, s.postSharpen, s.scale);
      const alpha = ctx.output === 'png' ? await enlargedAlpha(input, out.w, out.h) : undefined;
      return { image: out, enlargePath: path, ...(alpha ? { alpha } : {}) };
    }),
};
