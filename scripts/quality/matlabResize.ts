/**
 * The measuring conventions of the super-resolution and denoising papers, in one place:
 * MATLAB's `imresize(img, 1/s, 'bicubic')` (Keys cubic a = −0.5, kernel widened by s for
 * antialiasing, symmetric border, rounded to 8 bits), BT.601 luma as MATLAB's `rgb2ycbcr`, the
 * "modcrop" to a multiple of the scale, and PSNR on Y with `s` border pixels shaved.
 */
import type { Rgb } from '../../server/engines/image.js';

const cubic = (x: number) => {
  const a = Math.abs(x),
    a2 = a * a,
    a3 = a2 * a;
  if (a <= 1) return 1.5 * a3 - 2.5 * a2 + 1;
  if (a <= 2) return -0.5 * a3 + 2.5 * a2 - 4 * a + 2;
  return 0;
};

/** Taps of one axis resized by `f` (an integer s, or 1/s): for each output index, input indices and weights. */
function taps(n: number, f: number): { idx: Int32Array; wt: Float64Array; k: number } {
  const out = Math.round(n * f);
  const width = f < 1 ? 4 / f : 4; // cubic support 4, widened by the downscale factor (antialiasing)
  const kern = f < 1 ? (x: number) => f * cubic(f * x) : cubic;
  const k = Math.ceil(width) + 2;
  const idx = new Int32Array(out * k),
    wt = new Float64Array(out * k);
  for (let i = 0; i < out; i++) {
    const u = (i + 1) / f + 0.5 * (1 - 1 / f); // MATLAB's 1-based centre
    const left = Math.floor(u - width / 2);
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const src = left + j; // 1-based
      let m = src - 1;
      // symmetric border: …, 1, 0 | 0, 1, … and …, n−1 | n−1, n−2, …
      while (m < 0 || m >= n) m = m < 0 ? -m - 1 : 2 * n - m - 1;
      const w = kern(u - src);
      idx[i * k + j] = m;
      wt[i * k + j] = w;
      sum += w;
    }
    for (let j = 0; j < k; j++) wt[i * k + j]! /= sum;
  }
  return { idx, wt, k };
}

/** MATLAB-style bicubic resize by `f` (an integer factor s or 1/s; for 1/s the sides are multiples of s). */
export function matlabResize(img: Rgb, f: number): Rgb {
  const { w, h, data } = img;
  const W = Math.round(w * f),
    H = Math.round(h * f);
  const tx = taps(w, f),
    ty = taps(h, f);
  // rows (height) first, then columns, in double precision; one rounding at the end
  const mid = new Float64Array(H * w * 3);
  for (let y = 0; y < H; y++)
    for (let j = 0; j < ty.k; j++) {
      const wgt = ty.wt[y * ty.k + j]!,
        row = ty.idx[y * ty.k + j]! * w * 3,
        o = y * w * 3;
      for (let i = 0; i < w * 3; i++) mid[o + i]! += wgt * data[row + i]!;
    }
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      for (let c = 0; c < 3; c++) {
        let v = 0;
        for (let j = 0; j < tx.k; j++) v += tx.wt[x * tx.k + j]! * mid[(y * w + tx.idx[x * tx.k + j]!) * 3 + c]!;
        out[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
  return { w: W, h: H, data: out };
}

export const matlabDownscale = (img: Rgb, s: number) => matlabResize(img, 1 / s);

/** The top-left crop whose sides are multiples of s. */
export function modcrop(img: Rgb, s: number): Rgb {
  const W = img.w - (img.w % s),
    H = img.h - (img.h % s);
  if (W === img.w && H === img.h) return img;
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) out.set(img.data.subarray(y * img.w * 3, (y * img.w + W) * 3), y * W * 3);
  return { w: W, h: H, data: out };
}

/** PSNR on BT.601 Y (16–235, as MATLAB rgb2ycbcr on doubles: not rounded), `shave` pixels off each border. */
export function psnrY(a: Rgb, b: Rgb, shave: number): number {
  if (a.w !== b.w || a.h !== b.h) throw new Error(`psnrY: ${a.w}×${a.h} vs ${b.w}×${b.h}`);
  const Y = (d: Uint8Array, i: number) => 16 + (65.481 * d[i]! + 128.553 * d[i + 1]! + 24.966 * d[i + 2]!) / 255;
  let se = 0,
    n = 0;
  for (let y = shave; y < a.h - shave; y++)
    for (let x = shave; x < a.w - shave; x++) {
      const i = (y * a.w + x) * 3;
      const d = Y(a.data, i) - Y(b.data, i);
      se += d * d;
      n++;
    }
  return se === 0 ? 99 : 10 * Math.log10((255 * 255 * n) / se);
}
