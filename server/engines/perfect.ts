/**
 * perfect (perfect_2k): automatic retouch.
 * Neural (the engine): MAXIM retouching (FiveK expert C), or MAXIM low-light enhancement (LOL)
 * when the picture is dark — that is the se-night preset's tone step — run on a reduced copy and
 * carried to full resolution by a colour guided filter (maxim.ts).
 * Classical (`perfectRgb`, kept for the quality comparison): white balance (gray-world on
 * mid-tones, limited gain), levels (0.5 % / 99.5 % luma percentiles stretched to 0..255 with a
 * soft gamma for dark pictures), local contrast (large-radius unsharp on luma), mild guided-filter
 * denoise and a light sharpen.
 */
import type { Engine } from './types.js';
import { clamp, estimateNoise, fromPlanes, guidedFilter, luma, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';
import { maximTone } from './maxim.js';

/** Mean luma (0..255) below which a picture counts as low-light and gets the LOL-trained model. */
export const LOW_LIGHT_MEAN_LUMA = 60;

export function isLowLight(img: Rgb): boolean {
  const y = luma(img);
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i]!;
  return s / y.length < LOW_LIGHT_MEAN_LUMA;
}

function percentile(hist: Uint32Array, n: number, q: number): number {
  let s = 0;
  for (let i = 0; i < hist.length; i++) {
    s += hist[i]!;
    if (s >= q * n) return i;
  }
  return hist.length - 1;
}

export function perfectRgb(img: Rgb): Rgb {
  const { w, h } = img;
  const p = toPlanes(img);
  const n = w * h;
  // white balance from pixels that are neither clipped nor near black
  let sr = 0, sg = 0, sb = 0, cnt = 0;
  for (let i = 0; i < n; i++) {
    const r = p[0]![i]!, g = p[1]![i]!, b = p[2]![i]!;
    const m = (r + g + b) / 3;
    if (m > 20 && m < 235) {
      sr += r; sg += g; sb += b; cnt++;
    }
  }
  if (cnt > 0) {
    const avg = (sr + sg + sb) / (3 * cnt);
    const gains = [sr, sg, sb].map((s) => clamp(avg / (s / cnt), 0.8, 1.25));
    // half-strength correction: keeps intended moods (sunsets) while fixing casts
    for (let c = 0; c < 3; c++) {
      const gn = 1 + (gains[c]! - 1) * 0.6;
      for (let i = 0; i < n; i++) p[c]![i]! *= gn;
    }
  }
  const ycc = rgbToYcc(p);
  const y = ycc[0]!;
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) hist[clamp(Math.round(y[i]!), 0, 255)]!++;
  const lo = percentile(hist, n, 0.005);
  const hi = Math.max(lo + 32, percentile(hist, n, 0.995));
  const mean = y.reduce((a, v) => a + v, 0) / n;
  const gamma = mean < 90 ? 0.8 : mean > 170 ? 1.1 : 1;
  const scale = 255 / (hi - lo);
  for (let i = 0; i < n; i++) {
    const v = clamp((y[i]! - lo) * scale, 0, 255);
    const nv = 255 * Math.pow(v / 255, gamma);
    const ratio = y[i]! > 1 ? nv / y[i]! : 1;
    y[i] = nv;
    // keep saturation: chroma follows luma gain, gently
    ycc[1]![i]! *= 1 + (Math.min(ratio, 2) - 1) * 0.5;
    ycc[2]![i]! *= 1 + (Math.min(ratio, 2) - 1) * 0.5;
  }
  const sigma = estimateNoise(y, w, h);
  let yy: Float32Array = guidedFilter(y, y, w, h, 1, (0.8 * Math.max(1, sigma)) ** 2);
  const big = Math.max(8, Math.round(Math.max(w, h) / 60));
  yy = unsharp(yy, w, h, big, 0.35, 0);
  yy = unsharp(yy, w, h, 1, 0.5, 1 + sigma);
  ycc[0] = yy;
  return fromPlanes(yccToRgb(ycc), w, h);
}

export const perfectEngine: Engine<'perfect'> = {
  module: 'perfect',
  kind: 'neural',
  describe: 'MAXIM retouching (or MAXIM low-light enhancement for dark pictures) on a reduced copy, carried to full resolution by a colour guided filter',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      const task = isLowLight(img) ? 'enhancement' : 'retouching';
      return { image: await maximTone(img, task, ctx.modelsDir, ctx.threads, (f) => ctx.onProgress(0.95 * f)) };
    }),
};
