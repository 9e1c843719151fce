/**
 * colorize / colorize_pro (ColorizeStable_pth). No colorization network installs from npm, and
 * guessing hues where the scene is not understood measured worse than grey (docs/lab/quality.md), so:
 *  1. Scene regions (colorRegions.ts) found on luminance and BlazeFace faces: sky, clouds,
 *     vegetation and skin get colour priors that depend on L* the way real ones do, each in
 *     proportion to how sure the region is.
 *  2. The rest stays near neutral with a gentle warm-neutral tone (NEUTRAL): never a hue cast over
 *     the whole picture.
 * Chroma is computed at render_factor×16 px (long side), smoothed with a guided filter on the grey
 * image (edge-aware propagation) and laid on the full-resolution luminance of the original.
 * isBest / colorize_pro does more: sky linked across thin occluders (wires, twigs), sky deeper
 * towards the zenith and paler at the horizon, grass yellower than foliage, earth tones on bare
 * ground below the horizon, and chroma snapped to the full-resolution edges by a second guided filter.
 * The plain exemplar transfer after Welsh, Ashikhmin & Mueller (SIGGRAPH 2002) is kept as
 * colorizeRgb(…, 'welsh'), the quality baseline.
 * An ONNX colorizer can replace all of it: an operator who has one puts it in MODELS_DIR as
 * colorize.onnx (COLORIZE_MODEL_FILE), taking L−50 as [1,1,S,S] and returning a*b* [1,2,h,w] (the
 * layout of Zhang et al.'s models).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import type { Engine, EngineContext } from './types.js';
import { boxMean, decodeRgb, guidedFilter, resizePlane, resizeRgb, runOnRgb, type Rgb } from './image.js';
import { labToRgb, rgbToLab } from './lab.js';
import { writePsd } from './psd.js';
import { externalSession } from './models.js';
import { detectFaces } from './faces.js';
import {
  cloudColour,
  earthColour,
  outdoorOf,
  sceneRegions,
  skinColour,
  skyColour,
  skyColourAt,
  smoothstep,
  vegColour,
  vegColourAt,
} from './colorRegions.js';
import { limitsFor } from '../../src/shared/domain/plans.js';
import type { ParamsOf } from '../../src/shared/domain/modules.js';
import { REASON } from '../../src/shared/domain/reasons.js';

const EXEMPLAR_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets', 'exemplars');

interface Exemplar {
  name: string;
  L: Float32Array;
  A: Float32Array;
  B: Float32Array;
  sd: Float32Array;
  w: number;
  h: number;
  hist: Float32Array;
  meanSd: number;
}

function localSd(L: Float32Array, w: number, h: number): Float32Array {
  const m = boxMean(L, w, h, 2);
  const sq = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) sq[i] = L[i]! * L[i]!;
  const m2 = boxMean(sq, w, h, 2);
  const out = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) out[i] = Math.sqrt(Math.max(0, m2[i]! - m[i]! * m[i]!));
  return out;
}

function histogram(L: Float32Array): Float32Array {
  const hgram = new Float32Array(16);
  for (const v of L) hgram[Math.min(15, Math.max(0, Math.floor(v / 6.25)))]! += 1 / L.length;
  return hgram;
}

let exemplars: Promise<Exemplar[]> | undefined;
function loadExemplars(): Promise<Exemplar[]> {
  exemplars ??= Promise.all(
    readdirSync(EXEMPLAR_DIR)
      .filter((f) => f.endsWith('.jpg'))
      .sort()
      .map(async (f) => {
        const img = await decodeRgb(readFileSync(path.join(EXEMPLAR_DIR, f)));
        const [L, A, B] = rgbToLab(img.data, img.w * img.h);
        const sd = localSd(L, img.w, img.h);
        return { name: f.replace(/\.jpg$/, ''), L, A, B, sd, w: img.w, h: img.h, hist: histogram(L), meanSd: mean(sd) };
      }),
  );
  return exemplars;
}

const mean = (a: Float32Array) => a.reduce((s, v) => s + v, 0) / a.length;
const std = (a: Float32Array, m: number) => Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0) / a.length);

/** Ranks exemplars by luminance-histogram L1 distance plus texture difference. */
async function rankExemplars(L: Float32Array, sd: Float32Array): Promise<Exemplar[]> {
  const all = await loadExemplars();
  const hist = histogram(L);
  const ms = mean(sd);
  const score = (e: Exemplar) =>
    e.hist.reduce((s, v, i) => s + Math.abs(v - hist[i]!), 0) + Math.abs(e.meanSd - ms) / 10;
  return [...all].sort((a, b) => score(a) - score(b));
}

interface Sample {
  l: number;
  s: number;
  a: number;
  b: number;
}

/** Exemplar colours the region priors already cover (blue sky, green leaves): kept out of the transfer for the rest. */
const regionColoured = (l: number, a: number, b: number) => (b < -8 && l > 35) || (a < -6 && b > 4);

function jitteredSamples(e: Exemplar, count: number, mu: number, sigma: number, seed: number, rest = false): Sample[] {
  const muE = mean(e.L);
  const sdE = std(e.L, muE) || 1;
  const k = Math.ceil(Math.sqrt(count));
  const out: Sample[] = [];
  let s = seed;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
  for (let gy = 0; gy < k; gy++)
    for (let gx = 0; gx < k; gx++) {
      const x = Math.min(e.w - 1, Math.floor(((gx + rnd()) / k) * e.w));
      const y = Math.min(e.h - 1, Math.floor(((gy + rnd()) / k) * e.h));
      const i = y * e.w + x;
      if (rest && regionColoured(e.L[i]!, e.A[i]!, e.B[i]!)) continue;
      // luminance remapping (Welsh §2): exemplar L moved to the target's mean and spread
      out.push({ l: ((e.L[i]! - muE) * sigma) / sdE + mu, s: (e.sd[i]! * sigma) / sdE, a: e.A[i]!, b: e.B[i]! });
    }
  return out;
}

/** Welsh transfer at working resolution: returns a*, b* planes for L. */
async function transferChroma(
  L: Float32Array,
  w: number,
  h: number,
  best: boolean,
  rest = false,
): Promise<{ A: Float32Array; B: Float32Array; exemplar: string }> {
  const sd = localSd(L, w, h);
  const ranked = await rankExemplars(L, sd);
  const mu = mean(L);
  const sigma = std(L, mu) || 1;
  const used = ranked; // pooling every exemplar measured better than the top 3 (fewer off hues)
  const samples = used.flatMap((e, i) => jitteredSamples(e, best ? 1024 : 256, mu, sigma, 17 + i, rest));
  const A = new Float32Array(w * h),
    B = new Float32Array(w * h);
  for (let i = 0; i < L.length; i++) {
    const l = L[i]!,
      s = sd[i]!;
    let bestD = Infinity,
      bi = 0;
    for (let j = 0; j < samples.length; j++) {
      const sm = samples[j]!;
      const d = 0.5 * (sm.l - l) ** 2 + 0.5 * (sm.s - s) ** 2;
      if (d < bestD) {
        bestD = d;
        bi = j;
      }
    }
    A[i] = samples[bi]!.a;
    B[i] = samples[bi]!.b;
  }
  // chroma follows luminance edges but not its texture
  const r = Math.max(2, Math.round(Math.max(w, h) / 60));
  return {
    A: guidedFilter(L, A, w, h, r, 25),
    B: guidedFilter(L, B, w, h, r, 25),
    exemplar: used.map((e) => e.name).join('+'),
  };
}

async function onnxChroma(
  file: string,
  L: Float32Array,
  w: number,
  h: number,
  ctx: EngineContext,
): Promise<{ A: Float32Array; B: Float32Array }> {
  const s = await externalSession(ctx.modelsDir, file, ctx.threads);
  const x = Float32Array.from(L, (v) => v - 50);
  const out = (await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', x, [1, 1, h, w]) }))[s.outputNames[0]!]!;
  const [, c, oh, ow] = out.dims as number[];
  if (c !== 2) throw new Error(`${file} must output [1,2,h,w], got ${out.dims.join('×')}`);
  const d = out.data as Float32Array;
  return {
    A: await resizePlane(d.subarray(0, oh! * ow!), ow!, oh!, w, h),
    B: await resizePlane(d.subarray(oh! * ow!), ow!, oh!, w, h),
  };
}

/** 'regions' = the engine; 'welsh' = the plain exemplar transfer it replaced, kept as the quality baseline. */
type ColorizeMethod = 'regions' | 'welsh';

/** The operator's own colorization model, when there is one: this file in MODELS_DIR replaces the regions. */
export const COLORIZE_MODEL_FILE = 'colorize.onnx';

export interface ColorizeOptions {
  /** default 'regions' */
  method?: ColorizeMethod;
  /** an ONNX colorizer (path absolute or relative to ctx.modelsDir); default: COLORIZE_MODEL_FILE when it exists there, else none */
  model?: string | null;
}

const operatorModel = (modelsDir: string) =>
  existsSync(path.resolve(modelsDir, COLORIZE_MODEL_FILE)) ? COLORIZE_MODEL_FILE : null;

/** Region analysis size (long side): enough for texture and sky shape, cheap at any input size. */
const ANALYSIS = 320;
/**
 * Where the scene is not understood: a gentle warm-neutral tone (a*, b* at mid luminance) instead
 * of a guessed hue. Chosen on the development split of the scene photos
 * (scripts/quality/colorize-photos.ts): the unknown parts of most photos are warm (wood, soil,
 * skin, stone); (2, 7) beat (0.5, 2), (1, 4) and (3, 10) on mean error without raising the worst photo much.
 */
const NEUTRAL: [number, number] = [2, 7];
/**
 * Share of the picture darker than L* 25 over which the warm-neutral tone fades out (ramp): a dark
 * picture (under water, blue hour, night) is as often cool as warm. Development split (79 photos):
 * the dolphin ×1.14 and the rocket ×1.15 came under ×1.10 with the mean unchanged (12.5 %);
 * a stronger tone (×1.5) or one per luminance and texture bin fitted on half the photos won
 * 1–2 points of mean on the photos it was fitted on and lost them on the other half (free ×4.5).
 */
const DARK_PICTURE: [number, number] = [0.4, 0.7];

/** The warm-neutral tone of the unknown parts: strongest in the mid-tones. */
function neutralColour(L: number): [number, number] {
  const k = Math.max(0, Math.min(1, L / 30, (100 - L) / 30));
  return [NEUTRAL[0] * k, NEUTRAL[1] * k];
}

async function regionChroma(
  img: Rgb,
  Ls: Float32Array,
  sw: number,
  sh: number,
  best: boolean,
  ctx: EngineContext,
): Promise<{ A: Float32Array; B: Float32Array }> {
  const k = Math.min(1, ANALYSIS / Math.max(img.w, img.h));
  const aw = Math.max(1, Math.round(img.w * k)),
    ah = Math.max(1, Math.round(img.h * k));
  const small = await resizeRgb(img, aw, ah, 'lanczos3');
  const [La] = rgbToLab(small.data, aw * ah);
  const faces = await detectFaces(img, ctx.modelsDir, ctx.threads);
  const reg = sceneRegions(La, aw, ah, faces, k, undefined, best);
  const [sky, veg, skin, cloud, earth] = await Promise.all(
    [reg.sky, reg.veg, reg.skin, reg.cloud, reg.earth].map((p) => resizePlane(p, aw, ah, sw, sh)),
  );
  const outdoor = outdoorOf(reg.sky);
  // the warm-neutral tone fades out in a dark picture
  let dark = 0;
  for (const l of Ls) if (l < 25) dark++;
  const tone = 1 - smoothstep(dark / Ls.length, ...DARK_PICTURE);
  const A = new Float32Array(sw * sh),
    B = new Float32Array(sw * sh);
  for (let i = 0; i < A.length; i++) {
    const l = Ls[i]!,
      y = Math.floor(i / sw) / sh;
    const ws = sky![i]!,
      wv = veg![i]!,
      wk = skin![i]!,
      wc = Math.min(cloud![i]!, Math.max(0, 1 - ws - wv - wk));
    // best: bare ground gets earth tones and sky and vegetation their colours by position too
    const we = best ? Math.min(earth![i]!, Math.max(0, 1 - ws - wv - wk - wc)) : 0;
    const wr = Math.max(0, 1 - ws - wv - wk - wc - we);
    const [sa, sb] = best ? skyColourAt(l, y / reg.horizon) : skyColour(l);
    const [va, vb] = best ? vegColourAt(l, y, outdoor) : vegColour(l, outdoor);
    const [ka, kb] = skinColour(l),
      [ea, eb] = earthColour(l),
      [ca, cb] = cloudColour(l);
    // the rest is not understood: no guessed hue, a gentle warm-neutral tone
    const [na, nb] = neutralColour(l);
    A[i] = ws * sa + wv * va + wk * ka + wc * ca + we * ea + wr * tone * na;
    B[i] = ws * sb + wv * vb + wk * kb + wc * cb + we * eb + wr * tone * nb;
  }
  const r = Math.max(1, Math.round(Math.max(sw, sh) / 80));
  return { A: guidedFilter(Ls, A, sw, sh, r, 20), B: guidedFilter(Ls, B, sw, sh, r, 20) };
}

export async function colorizeRgb(
  img: Rgb,
  renderFactor: number,
  best: boolean,
  ctx: EngineContext,
  opts: ColorizeOptions = {},
): Promise<{ out: Rgb; exemplar: string }> {
  const method = opts.method ?? 'regions';
  const side = Math.max(16, renderFactor * 16);
  const k = Math.min(1, side / Math.max(img.w, img.h));
  const sw = Math.max(1, Math.round(img.w * k)),
    sh = Math.max(1, Math.round(img.h * k));
  const small = await resizeRgb(img, sw, sh, 'lanczos3');
  const [Ls] = rgbToLab(small.data, sw * sh);
  let exemplar = 'onnx';
  let A: Float32Array, B: Float32Array;
  const model = opts.model === undefined ? operatorModel(ctx.modelsDir) : opts.model;
  if (model) ({ A, B } = await onnxChroma(model, Ls, sw, sh, ctx));
  else if (method === 'welsh') ({ A, B, exemplar } = await transferChroma(Ls, sw, sh, best));
  else {
    ({ A, B } = await regionChroma(img, Ls, sw, sh, best, ctx));
    exemplar = 'regions';
  }
  ctx.onProgress(0.6);
  const [L] = rgbToLab(img.data, img.w * img.h);
  let Af = await resizePlane(A, sw, sh, img.w, img.h);
  let Bf = await resizePlane(B, sw, sh, img.w, img.h);
  if (best && method === 'regions' && k < 1) {
    // best: chroma snapped to the full-resolution edges, so colour does not bleed across outlines
    const r = Math.max(2, Math.round(Math.max(img.w, img.h) / 250));
    Af = guidedFilter(L, Af, img.w, img.h, r, 30);
    Bf = guidedFilter(L, Bf, img.w, img.h, r, 30);
  }
  // near-black and near-white carry little chroma in real photos: fade it there
  for (let i = 0; i < L.length; i++) {
    const l = L[i]!;
    const f = Math.min(1, l / 25, (100 - l) / 12);
    Af[i]! *= Math.max(0, f);
    Bf[i]! *= Math.max(0, f);
  }
  return { out: { w: img.w, h: img.h, data: labToRgb(L, Af, Bf) }, exemplar };
}

interface ColorizeSettings {
  renderFactor: number;
  best: boolean;
  psd: boolean;
  /** JPEG quality of the result */
  quality: number;
}

function colorizeEngineFor<M extends 'colorize' | 'colorize_pro'>(
  module: M,
  settings: (params: ParamsOf<M>) => ColorizeSettings,
): Engine<M> {
  return {
    module,
    kind: 'classical',
    describe:
      'scene regions (sky, clouds, vegetation, skin; best: ground, sky across wires, edge-snapped chroma) with colour priors, a gentle warm-neutral tone on the rest, at render_factor×16 px laid on full-resolution luminance; PSD with original + colorized layers',
    async run(input, params, ctx) {
      const s = settings(params);
      // the job layer already refuses these; the engine keeps the rule too (defence in depth)
      if (s.psd && !limitsFor(ctx.level).psd) throw new Error(REASON.psdProOnly);
      return runOnRgb(input, ctx, async (img) => {
        ctx.onProgress(0.05);
        const { out } = await colorizeRgb(img, s.renderFactor, s.best, ctx);
        const layers = [
          { name: 'Original', rgb: img.data },
          { name: 'Colorized', rgb: out.data },
        ];
        const extras = s.psd ? { psd: { data: writePsd(img.w, img.h, layers, out.data), format: 'psd' } } : undefined;
        return { image: out, quality: s.quality, ...(extras ? { extras } : {}) };
      });
    },
  };
}

export const colorizeEngine = colorizeEngineFor('colorize', (p) => ({
  renderFactor: p.render_factor,
  best: p.isBest,
  psd: p.psd,
  quality: p.quality,
}));
/** colorize_pro is always the best mode and has no quality setting: its JPEG is written at the top quality. */
export const colorizeProEngine = colorizeEngineFor('colorize_pro', (p) => ({
  renderFactor: p.render_factor,
  best: true,
  psd: p.psd,
  quality: 100,
}));
