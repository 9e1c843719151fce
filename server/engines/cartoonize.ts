/**
 * cartoonize (CartoonizeStable): edge-preserving smoothing (iterated guided filter per channel,
 * guided by luma), colour quantisation (k-means in RGB on a subsample, k=12, then every pixel to
 * its nearest centre), and line extraction (thresholded difference of Gaussians on luma,
 * dilated once) drawn in dark ink over the flat colours.
 */
import type { Engine } from './types.js';
import { fromPlanes, gaussianBlur, guidedFilter, rgbToYcc, runOnRgb, toPlanes, type Rgb } from './image.js';

function kmeans(p: Float32Array[], n: number, k: number, iters = 8): Float32Array {
  const step = Math.max(1, Math.floor(n / 20000));
  const idx: number[] = [];
  for (let i = 0; i < n; i += step) idx.push(i);
  // deterministic init: spread over luma order
  const order = [...idx].sort((a, b) => p[0]![a]! + p[1]![a]! + p[2]![a]! - (p[0]![b]! + p[1]![b]! + p[2]![b]!));
  const c = new Float32Array(k * 3);
  for (let j = 0; j < k; j++) {
    const i = order[Math.floor(((j + 0.5) / k) * order.length)]!;
    for (let ch = 0; ch < 3; ch++) c[j * 3 + ch] = p[ch]![i]!;
  }
  const sum = new Float64Array(k * 3), cnt = new Float64Array(k);
  for (let it = 0; it < iters; it++) {
    sum.fill(0);
    cnt.fill(0);
    for (const i of idx) {
      const j = nearest(c, k, p[0]![i]!, p[1]![i]!, p[2]![i]!);
      for (let ch = 0; ch < 3; ch++) sum[j * 3 + ch]! += p[ch]![i]!;
      cnt[j]!++;
    }
    for (let j = 0; j < k; j++) if (cnt[j]! > 0) for (let ch = 0; ch < 3; ch++) c[j * 3 + ch] = sum[j * 3 + ch]! / cnt[j]!;
  }
  return c;
}

function nearest(c: Float32Array, k: number, r: number, g: number, b: number): number {
  let best = 0, bd = Infinity;
  for (let j = 0; j < k; j++) {
    const d = (c[j * 3]! - r) ** 2 + (c[j * 3 + 1]! - g) ** 2 + (c[j * 3 + 2]! - b) ** 2;
    if (d < bd) { bd = d; best = j; }
  }
  return best;
}

export function cartoonRgb(img: Rgb, colours = 12): Rgb {
  const { w, h } = img;
  const n = w * h;
  let p = toPlanes(img);
  const r = Math.max(3, Math.round(Math.max(w, h) / 200));
  for (let it = 0; it < 2; it++) {
    const guide = rgbToYcc(p)[0]!;
    p = p.map((c) => guidedFilter(guide, c, w, h, r, 400));
  }
  const centres = kmeans(p, n, colours);
  const out = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const j = nearest(centres, colours, p[0]![i]!, p[1]![i]!, p[2]![i]!);
    // 70 % flat colour, 30 % smoothed shading keeps some volume
    for (let ch = 0; ch < 3; ch++) out[ch]![i] = 0.7 * centres[j * 3 + ch]! + 0.3 * p[ch]![i]!;
  }
  // lines from the smoothed picture, so fur and grain do not turn into ink
  const y = rgbToYcc(p)[0]!;
  const s = Math.max(1, Math.max(w, h) / 500);
  const g1 = gaussianBlur(y, w, h, s), g2 = gaussianBlur(y, w, h, s * 1.6);
  const edge = new Uint8Array(n);
  for (let i = 0; i < n; i++) edge[i] = g2[i]! - g1[i]! > 4 ? 1 : 0;
  // drop isolated specks: keep a pixel only with ≥ 2 edge neighbours
  const ink = new Uint8Array(n);
  for (let yy = 1; yy < h - 1; yy++)
    for (let x = 1; x < w - 1; x++) {
      const i = yy * w + x;
      if (!edge[i]) continue;
      const nb = edge[i - 1]! + edge[i + 1]! + edge[i - w]! + edge[i + w]! + edge[i - w - 1]! + edge[i - w + 1]! + edge[i + w - 1]! + edge[i + w + 1]!;
      if (nb >= 2) ink[i] = 1;
    }
  for (let i = 0; i < n; i++) if (ink[i]) for (let ch = 0; ch < 3; ch++) out[ch]![i] = out[ch]![i]! * 0.2;
  return fromPlanes(out, w, h);
}

export const cartoonizeEngine: Engine<'cartoonize'> = {
  module: 'cartoonize',
  kind: 'classical',
  describe: 'iterated guided-filter smoothing + k-means colour quantisation (12 colours) + DoG ink lines',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, (img) => {
      ctx.onProgress(0.1);
      return { image: cartoonRgb(img) };
    }),
};
