/**
 * cartoonize (CartoonizeStable): the look of a cel-shaded cartoon, not a posterisation.
 *  1. Edge-preserving smoothing: three passes of a colour guided filter (guided by luma), so skin,
 *     fur and foliage texture go while object outlines stay.
 *  2. Flat colour with soft shading: luma is cut into a few tone bands with soft steps (cel shading),
 *     the band map is cleaned by a majority filter so no islands or speckle remain, a quarter of the
 *     smooth shading is kept for volume; chroma is smoothed further and saturated.
 *  3. Ink: Canny-style edges of the smoothed picture (Sobel on luma + chroma, non-maximum suppression,
 *     hysteresis), strokes shorter than a minimum length dropped, then drawn anti-aliased with a width
 *     that follows the picture size. Inside BlazeFace faces the thresholds are lower, so eyes,
 *     nose and mouth are drawn.
 */
import type { Engine } from './types.js';
import { detectFaces, type Face } from './faces.js';
import { boxMean, fromPlanes, gaussianBlur, guidedFilter, rgbToYcc, runOnRgb, toPlanes, yccToRgb, type Rgb } from './image.js';

const smoothstep = (x: number, a: number, b: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Tone bands: band index per pixel, with the band count chosen from the luma spread. */
function toneBands(y: Float32Array, bands: number): { idx: Uint8Array; lo: number; step: number } {
  const sorted = Float32Array.from(y).sort();
  const lo = sorted[Math.floor(sorted.length * 0.02)]!, hi = sorted[Math.floor(sorted.length * 0.98)]!;
  const step = Math.max(8, (hi - lo) / bands);
  const idx = new Uint8Array(y.length);
  for (let i = 0; i < y.length; i++) idx[i] = Math.max(0, Math.min(bands + 1, Math.floor((y[i]! - lo) / step) + 1));
  return { idx, lo, step };
}

/** Majority filter on a small label map: every pixel takes the most frequent label around it. */
function majority(idx: Uint8Array, labels: number, w: number, h: number, r: number): Uint8Array {
  const best = new Float32Array(idx.length).fill(-1);
  const out = idx.slice();
  const ind = new Float32Array(idx.length);
  for (let b = 0; b <= labels; b++) {
    for (let i = 0; i < idx.length; i++) ind[i] = idx[i] === b ? 1 : 0;
    const m = boxMean(ind, w, h, r);
    for (let i = 0; i < idx.length; i++) if (m[i]! > best[i]!) { best[i] = m[i]!; out[i] = b; }
  }
  return out;
}

const sobX = (p: Float32Array, i: number, w: number) => p[i - w + 1]! + 2 * p[i + 1]! + p[i + w + 1]! - p[i - w - 1]! - 2 * p[i - 1]! - p[i + w - 1]!;
const sobY = (p: Float32Array, i: number, w: number) => p[i + w - 1]! + 2 * p[i + w]! + p[i + w + 1]! - p[i - w - 1]! - 2 * p[i - w]! - p[i - w + 1]!;

/** Thin, continuous edge map (1 = ink centre line) from Sobel + non-max suppression + hysteresis. */
function inkLines(y: Float32Array, cb: Float32Array, cr: Float32Array, w: number, h: number, minLen: number, sens?: Float32Array): Uint8Array {
  const n = w * h;
  const mag = new Float32Array(n), dir = new Uint8Array(n);
  for (let yy = 1; yy < h - 1; yy++)
    for (let x = 1; x < w - 1; x++) {
      const i = yy * w + x;
      const gx = sobX(y, i, w), gy = sobY(y, i, w), bx = sobX(cb, i, w), by = sobY(cb, i, w), rx = sobX(cr, i, w), ry = sobY(cr, i, w);
      const X = gx + 0.7 * (Math.abs(bx) > Math.abs(rx) ? bx : rx), Y = gy + 0.7 * (Math.abs(by) > Math.abs(ry) ? by : ry);
      mag[i] = Math.hypot(X, Y) / 4;
      const a = ((Math.atan2(Y, X) * 180) / Math.PI + 180) % 180;
      dir[i] = a < 22.5 || a >= 157.5 ? 0 : a < 67.5 ? 1 : a < 112.5 ? 2 : 3;
    }
  const nms = new Float32Array(n);
  const off = [1, w + 1, w, w - 1];
  for (let yy = 1; yy < h - 1; yy++)
    for (let x = 1; x < w - 1; x++) {
      const i = yy * w + x, o = off[dir[i]!]!;
      if (mag[i]! >= mag[i + o]! && mag[i]! >= mag[i - o]!) nms[i] = mag[i]!;
    }
  // thresholds from the picture itself: strong = top few per cent of edge pixels, weak = half of it
  const vals = Array.from(nms.filter((v) => v > 1)).sort((a, b) => a - b);
  const high = Math.max(9, vals[Math.floor(vals.length * 0.85)] ?? 9), low = high * 0.4;
  const edge = new Uint8Array(n), stack: number[] = [];
  // inside faces the thresholds drop (eyes, mouth and nose are soft edges but must be drawn)
  if (sens) for (let i = 0; i < n; i++) nms[i] = nms[i]! * sens[i]!;
  for (let i = 0; i < n; i++) if (nms[i]! >= high && !edge[i]) {
    edge[i] = 1;
    stack.push(i);
    while (stack.length) {
      const j = stack.pop()!;
      for (const d of [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1]) {
        const k = j + d;
        if (k > 0 && k < n && !edge[k] && nms[k]! >= low) { edge[k] = 1; stack.push(k); }
      }
    }
  }
  // drop short strokes (texture crumbs, speckle)
  const seen = new Uint8Array(n), comp: number[] = [];
  for (let s = 0; s < n; s++) {
    if (!edge[s] || seen[s]) continue;
    comp.length = 0;
    seen[s] = 1;
    stack.push(s);
    while (stack.length) {
      const j = stack.pop()!;
      comp.push(j);
      for (const d of [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1]) {
        const k = j + d;
        if (k > 0 && k < n && edge[k] && !seen[k]) { seen[k] = 1; stack.push(k); }
      }
    }
    if (comp.length < (sens && sens[s]! > 1 ? minLen / 3 : minLen)) for (const j of comp) edge[j] = 0;
  }
  return edge;
}

export function cartoonRgb(img: Rgb, faces: Face[] = [], bands = 4): Rgb {
  const { w, h } = img;
  const n = w * h;
  const side = Math.max(w, h);
  let p = toPlanes(img);
  const r = Math.max(2, Math.round(side / 200));
  for (let it = 0; it < 2; it++) {
    const guide = rgbToYcc(p)[0]!;
    p = p.map((c) => guidedFilter(guide, c, w, h, r, 250));
  }
  const [ys, cbs, crs] = rgbToYcc(p) as [Float32Array, Float32Array, Float32Array];
  // tone bands on a further-smoothed luma, cleaned so no band islands (blotches) remain
  const yb = guidedFilter(ys, ys, w, h, r * 3, 400);
  const { idx, lo, step } = toneBands(yb, bands);
  let clean = majority(idx, bands + 1, w, h, Math.max(2, Math.round(side / 200)));
  clean = majority(clean, bands + 1, w, h, Math.max(2, Math.round(side / 200)));
  // soft band edges: the band's flat level, blurred a little across the band boundary
  const flat = new Float32Array(n);
  for (let i = 0; i < n; i++) flat[i] = lo + (clean[i]! - 0.5) * step;
  const flatS = gaussianBlur(flat, w, h, Math.max(1, side / 300));
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) Y[i] = 0.6 * flatS[i]! + 0.4 * ys[i]! + 6; // some of the shading; cartoons are bright
  // flat, saturated chroma
  const rc = Math.max(4, Math.round(side / 80));
  const cb = guidedFilter(yb, cbs, w, h, rc, 150), cr = guidedFilter(yb, crs, w, h, rc, 150);
  for (let i = 0; i < n; i++) { cb[i] = cb[i]! * 1.25; cr[i] = cr[i]! * 1.25; }
  // ink
  // edges of a slightly blurred copy: wood grain and fur stripes stay below the thresholds
  const eσ = Math.max(0.7, side / 700);
  let sens: Float32Array | undefined;
  if (faces.length) {
    sens = new Float32Array(n).fill(1);
    for (const f of faces) {
      const cx = f.x + f.w / 2, cy = f.y + f.h * 0.55;
      for (let yy = Math.max(0, Math.floor(f.y)); yy < Math.min(h, f.y + f.h * 1.05); yy++)
        for (let x = Math.max(0, Math.floor(f.x)); x < Math.min(w, f.x + f.w); x++)
          if (Math.hypot((x - cx) / (f.w * 0.45), (yy - cy) / (f.h * 0.5)) < 1) sens[yy * w + x] = 2;
    }
  }
  const edge = inkLines(gaussianBlur(ys, w, h, eσ), gaussianBlur(cbs, w, h, eσ), gaussianBlur(crs, w, h, eσ), w, h, Math.max(16, Math.round(side / 18)), sens);
  const width = Math.max(0.9, side / 550);
  const e = new Float32Array(n);
  for (let i = 0; i < n; i++) e[i] = edge[i]!;
  const eb = gaussianBlur(e, w, h, width);
  const peak = 1 / (Math.sqrt(2 * Math.PI) * width); // a line's blurred centre value
  for (let i = 0; i < n; i++) {
    const a = smoothstep(eb[i]! / peak, 0.12, 0.55);
    Y[i] = Y[i]! * (1 - 0.88 * a);
    cb[i] = cb[i]! * (1 - 0.8 * a);
    cr[i] = cr[i]! * (1 - 0.8 * a);
  }
  return fromPlanes(yccToRgb([Y, cb, cr]), w, h);
}

export const cartoonizeEngine: Engine<'cartoonize'> = {
  module: 'cartoonize',
  kind: 'classical',
  describe: 'cel shading: guided-filter smoothing, cleaned tone bands with soft shading, saturated flat chroma, Canny ink lines drawn anti-aliased',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      ctx.onProgress(0.1);
      const faces = await detectFaces(img, ctx.modelsDir, ctx.threads);
      ctx.onProgress(0.2);
      return { image: cartoonRgb(img, faces) };
    }),
};
