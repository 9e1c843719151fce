/**
 * MAXIM (Tu et al. 2022) networks converted from @upscalerjs/maxim-* (convert/tfgraphStatic.ts,
 * one ONNX file per fixed input size). Two ways to use them:
 * - tone/colour tasks (retouching, low-light enhancement): the network runs once on a reduced copy;
 *   its mapping is fitted as a per-pixel 3×3 colour affine (He et al.'s colour-guide guided
 *   filter) at low resolution, the coefficients are upsampled and applied to the full-resolution
 *   photo, so edges and detail come from the original and the cost does not grow with megapixels;
 * - pixel tasks (denoising): fixed-size tiles at full resolution, cross-faded where they overlap.
 */
import * as ort from 'onnxruntime-node';
import { MAXIM_SIZES, maximFile, session, type MaximTask } from './models.js';
import { boxMean, resizePlane, resizeRgb, type Rgb } from './image.js';

const MAXIM_TILE = MAXIM_SIZES.denoising[0]![0];

/** Runs one fixed-size MAXIM model on HWC 0..1 pixels; returns HWC 0..1 (not clipped). */
async function infer(sess: ort.InferenceSession, x: Float32Array, h: number, w: number): Promise<Float32Array> {
  const res = await sess.run({ [sess.inputNames[0]!]: new ort.Tensor('float32', x, [1, h, w, 3]) });
  return res[sess.outputNames[0]!]!.data as Float32Array;
}

function transposeRgb(img: Rgb): Rgb {
  const out = new Uint8Array(img.data.length);
  for (let y = 0; y < img.h; y++)
    for (let x = 0; x < img.w; x++)
      for (let c = 0; c < 3; c++) out[(x * img.h + y) * 3 + c] = img.data[(y * img.w + x) * 3 + c]!;
  return { w: img.h, h: img.w, data: out };
}

/** HWC float copy of `img` (0..1), reflected out to h×w. */
function padReflect(img: Rgb, h: number, w: number): Float32Array {
  const out = new Float32Array(h * w * 3);
  const refl = (v: number, n: number) => {
    if (n === 1) return 0;
    const p = 2 * (n - 1);
    v = ((v % p) + p) % p;
    return v < n ? v : p - v;
  };
  for (let y = 0; y < h; y++) {
    const sy = refl(y, img.h);
    for (let x = 0; x < w; x++) {
      const s = (sy * img.w + refl(x, img.w)) * 3;
      const o = (y * w + x) * 3;
      out[o] = img.data[s]! / 255;
      out[o + 1] = img.data[s + 1]! / 255;
      out[o + 2] = img.data[s + 2]! / 255;
    }
  }
  return out;
}

export interface ToneOptions {
  /** guided-filter radius at the reduced size */
  radius?: number;
  /** regularisation of the local colour affine (0..1 pixel units) */
  eps?: number;
}

/** Global tone/colour network on a reduced copy, carried to full resolution by a locally fitted colour affine. */
export async function maximTone(
  img: Rgb,
  task: 'retouching' | 'enhancement',
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  opts: ToneOptions = {},
): Promise<Rgb> {
  // One landscape model serves both orientations: a portrait copy is run transposed.
  const [H, W] = MAXIM_SIZES[task][0]!;
  const portrait = img.h > img.w;
  const k = Math.min(W / (portrait ? img.h : img.w), H / (portrait ? img.w : img.h), 1);
  const w = Math.max(1, Math.round(img.w * k));
  const h = Math.max(1, Math.round(img.h * k));
  const small = k < 1 ? await resizeRgb(img, w, h, 'lanczos3') : img;
  const sess = await session(modelsDir, maximFile(task, H, W), threads);
  onProgress(0.1);
  const y = await infer(sess, padReflect(portrait ? transposeRgb(small) : small, H, W), H, W);
  onProgress(0.8);
  // low-resolution guide (input) and target (network output) planes, 0..1
  const I = [0, 1, 2].map(() => new Float32Array(w * h));
  const P = [0, 1, 2].map(() => new Float32Array(w * h));
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      const o = (portrait ? x * W + yy : yy * W + x) * 3;
      for (let c = 0; c < 3; c++) {
        I[c]![i] = small.data[i * 3 + c]! / 255;
        P[c]![i] = Math.min(1, Math.max(0, y[o + c]!));
      }
    }
  const r = opts.radius ?? Math.max(2, Math.round(Math.max(w, h) / 64));
  const coef = colourAffine(I, P, w, h, r, opts.eps ?? 1e-3);
  const up = k < 1 ? await Promise.all(coef.map((p) => resizePlane(p, w, h, img.w, img.h))) : coef;
  onProgress(0.9);
  return applyAffine(img, up);
}

/**
 * He et al.'s guided filter with a colour guide, one output channel at a time:
 * P_c ≈ A_c·I + b_c in each (2r+1)² window, coefficients averaged over the windows covering a pixel.
 * Returns 12 planes: A (row-major 3×3, output channel × input channel) then b.
 */
export function colourAffine(
  I: Float32Array[],
  P: Float32Array[],
  w: number,
  h: number,
  r: number,
  eps: number,
): Float32Array[] {
  const n = w * h;
  const mean = (a: Float32Array) => boxMean(a, w, h, r);
  const prod = (a: Float32Array, b: Float32Array) => {
    const o = new Float32Array(n);
    for (let i = 0; i < n; i++) o[i] = a[i]! * b[i]!;
    return o;
  };
  const mI = I.map(mean);
  const mP = P.map(mean);
  const pairs: [number, number][] = [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 1],
    [1, 2],
    [2, 2],
  ];
  const mII = pairs.map(([a, b]) => mean(prod(I[a]!, I[b]!)));
  const mIP = [0, 1, 2].map((c) => [0, 1, 2].map((j) => mean(prod(I[j]!, P[c]!))));
  const A = Array.from({ length: 9 }, () => new Float32Array(n));
  const B = [0, 1, 2].map(() => new Float32Array(n));
  for (let i = 0; i < n; i++) {
    const m0 = mI[0]![i]!,
      m1 = mI[1]![i]!,
      m2 = mI[2]![i]!;
    const s00 = mII[0]![i]! - m0 * m0 + eps,
      s01 = mII[1]![i]! - m0 * m1,
      s02 = mII[2]![i]! - m0 * m2;
    const s11 = mII[3]![i]! - m1 * m1 + eps,
      s12 = mII[4]![i]! - m1 * m2,
      s22 = mII[5]![i]! - m2 * m2 + eps;
    // inverse of the symmetric 3×3 covariance
    const c00 = s11 * s22 - s12 * s12,
      c01 = s02 * s12 - s01 * s22,
      c02 = s01 * s12 - s02 * s11;
    const c11 = s00 * s22 - s02 * s02,
      c12 = s01 * s02 - s00 * s12,
      c22 = s00 * s11 - s01 * s01;
    const det = s00 * c00 + s01 * c01 + s02 * c02;
    const inv = 1 / det;
    for (let c = 0; c < 3; c++) {
      const mp = mP[c]![i]!;
      const v0 = mIP[c]![0]![i]! - m0 * mp,
        v1 = mIP[c]![1]![i]! - m1 * mp,
        v2 = mIP[c]![2]![i]! - m2 * mp;
      const a0 = (c00 * v0 + c01 * v1 + c02 * v2) * inv;
      const a1 = (c01 * v0 + c11 * v1 + c12 * v2) * inv;
      const a2 = (c02 * v0 + c12 * v1 + c22 * v2) * inv;
      A[c * 3]![i] = a0;
      A[c * 3 + 1]![i] = a1;
      A[c * 3 + 2]![i] = a2;
      B[c]![i] = mp - a0 * m0 - a1 * m1 - a2 * m2;
    }
  }
  return [...A, ...B].map(mean);
}

function applyAffine(img: Rgb, coef: Float32Array[]): Rgb {
  const n = img.w * img.h;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const r = img.data[i * 3]! / 255,
      g = img.data[i * 3 + 1]! / 255,
      b = img.data[i * 3 + 2]! / 255;
    for (let c = 0; c < 3; c++) {
      const v = 255 * (coef[c * 3]![i]! * r + coef[c * 3 + 1]![i]! * g + coef[c * 3 + 2]![i]! * b + coef[9 + c]![i]!);
      out[i * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  return { w: img.w, h: img.h, data: out };
}

/** Tile origins along an axis of length n for fixed tiles of size t overlapping by at least `ov`. */
function origins(n: number, t: number, ov: number): number[] {
  if (n <= t) return [0];
  const k = Math.ceil((n - ov) / (t - ov));
  return Array.from({ length: k }, (_, i) => Math.round((i * (n - t)) / (k - 1)));
}

/**
 * Full-resolution MAXIM on fixed MAXIM_TILE tiles overlapping by `overlap` px; each tile's
 * weight ramps linearly over its margins, so seams are cross-faded (weights renormalised).
 */
export async function maximTiled(
  img: Rgb,
  task: MaximTask,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  overlap = 32,
): Promise<Rgb> {
  const T = MAXIM_TILE;
  const sess = await session(modelsDir, maximFile(task, T, T), threads);
  const { w, h } = img;
  const acc = new Float32Array(w * h * 3);
  const wsum = new Float32Array(w * h);
  const xs = origins(w, T, overlap);
  const ys = origins(h, T, overlap);
  const ramp = (p: number, len: number, lo: boolean, hi: boolean) => {
    const m = overlap / 2;
    let v = 1;
    if (lo) v = Math.min(v, (p + 0.5) / m);
    if (hi) v = Math.min(v, (len - p - 0.5) / m);
    return Math.max(1e-3, Math.min(1, v));
  };
  let done = 0;
  for (const y0 of ys)
    for (const x0 of xs) {
      const tw = Math.min(T, w - x0),
        th = Math.min(T, h - y0);
      const crop: Rgb = { w: tw, h: th, data: new Uint8Array(tw * th * 3) };
      for (let y = 0; y < th; y++)
        crop.data.set(img.data.subarray(((y0 + y) * w + x0) * 3, ((y0 + y) * w + x0 + tw) * 3), y * tw * 3);
      const o = await infer(sess, padReflect(crop, T, T), T, T);
      for (let y = 0; y < th; y++) {
        const wy = ramp(y, th, y0 > 0, y0 + th < h);
        for (let x = 0; x < tw; x++) {
          const wgt = wy * ramp(x, tw, x0 > 0, x0 + tw < w);
          const i = (y0 + y) * w + x0 + x;
          const j = (y * T + x) * 3;
          acc[i * 3]! += wgt * o[j]!;
          acc[i * 3 + 1]! += wgt * o[j + 1]!;
          acc[i * 3 + 2]! += wgt * o[j + 2]!;
          wsum[i]! += wgt;
        }
      }
      onProgress(++done / (xs.length * ys.length));
    }
  const out = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++)
    for (let c = 0; c < 3; c++) {
      const v = (255 * acc[i * 3 + c]!) / wsum[i]!;
      out[i * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  return { w, h, data: out };
}
