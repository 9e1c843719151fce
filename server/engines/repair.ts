/**
 * repair (old photo repair): finds scratches and dust and paints them out, before the colour and
 * enlarge steps of se-old-repair.
 *  - detection: morphological top-hat (bright) and black-hat (dark) of luma with a square of side
 *    2r+1, so only structures thinner than that respond (lines, specks), never step edges; a pixel
 *    is a defect when its response is well above the noise floor AND well above the response of
 *    its neighbourhood, so textured areas (hair, grass), which respond everywhere, are left alone.
 *  - inpainting: multi-scale normalised convolution (Knutsson & Westin 1993) of the defect-free
 *    pixels: each hole pixel takes the Gaussian-weighted mean of the good pixels around it, the
 *    narrowest Gaussian that has enough support winning, so thin scratches are filled from 1–2 px
 *    away and only wide spots reach further.
 */
import type { Engine } from './types.js';
import { boxMean, clamp, estimateNoise, gaussianBlur, luma, morph, runOnRgb, type Rgb } from './image.js';

export interface DefectOptions {
  /** half-size of the structuring element: defects up to ~2r px wide are found */
  radius?: number;
  /** response must exceed this many noise σ (and an absolute floor of 12 grey levels) */
  k?: number;
  /** response must exceed this multiple of its neighbourhood's mean response */
  contrast?: number;
}

/** 1 where a scratch or dust speck is, 0 elsewhere (dilated by 1 px to take anti-aliased rims). */
export function detectDefects(img: Rgb, opts: DefectOptions = {}): Uint8Array {
  const { w, h } = img;
  const y = luma(img);
  const r = opts.radius ?? clamp(Math.round(Math.min(w, h) / 500), 1, 4);
  const sigma = estimateNoise(y, w, h);
  const t = Math.max(16, (opts.k ?? 4) * sigma);
  const tSpeck = Math.max(36, 2 * t);
  const c = opts.contrast ?? 3;
  const hats = (rad: number) => {
    const open = morph(morph(y, w, h, rad, 'min'), w, h, rad, 'max');
    const close = morph(morph(y, w, h, rad, 'max'), w, h, rad, 'min');
    const top = new Float32Array(y.length), bot = new Float32Array(y.length);
    for (let i = 0; i < y.length; i++) {
      top[i] = y[i]! - open[i]!;
      bot[i] = close[i]! - y[i]!;
    }
    // neighbourhood activity: a window several times the element, so a defect does not dominate it
    const R = 4 * rad + 4;
    return { top, bot, topMean: boxMean(top, w, h, R), botMean: boxMean(bot, w, h, R) };
  };
  // scratches (thin, element r): a straight run of strong response (the mean along the best of 24
  // directions over ±L px) in a long connected run; specks (up to ~2r+5 px wide, element r+2): a
  // small strong response with nothing else detected around it
  const ln = hats(r);
  const sp = hats(r + 2);
  const L = 15; // ±15 px straight; longer runs are checked on the components below
  const lineTop = directionalMean(ln.top, w, h, L), lineBot = directionalMean(ln.bot, w, h, L);
  const raw = new Uint8Array(y.length);
  const speck = new Uint8Array(y.length);
  for (let i = 0; i < y.length; i++) {
    const strongTop = ln.top[i]! > t && ln.top[i]! > c * ln.topMean[i]!;
    const strongBot = ln.bot[i]! > t && ln.bot[i]! > c * ln.botMean[i]!;
    if ((strongTop && lineTop[i]! > Math.max(0.6 * t, c * ln.topMean[i]!)) || (strongBot && lineBot[i]! > Math.max(0.6 * t, c * ln.botMean[i]!))) raw[i] = 1;
    else if ((sp.top[i]! > tSpeck && sp.top[i]! > c * sp.topMean[i]!) || (sp.bot[i]! > tSpeck && sp.bot[i]! > c * sp.botMean[i]!)) speck[i] = 1;
  }
  // a scratch is long: short runs (eyes, lettering, twigs) are dropped
  const minLength = Math.max(24, Math.round(Math.min(w, h) / 12));
  filterComponents(raw, w, h, 0, (_a, length) => length >= minLength);
  // a speck is small and alone
  const m = Math.max(8, 3 * (r + 2));
  filterComponents(speck, w, h, m, (_a, length, others) => length <= 3 * (r + 2) && others < 0.01);
  for (let i = 0; i < y.length; i++) raw[i] |= speck[i]!;
  // grow by one pixel: the faint anti-aliased rim of a scratch is part of it
  const mask = new Uint8Array(y.length);
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      if (!raw[yy * w + x]) continue;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx, Y = yy + dy;
          if (X >= 0 && Y >= 0 && X < w && Y < h) mask[Y * w + X] = 1;
        }
    }
  return mask;
}

/** Per pixel, the largest mean of `p` along a centred segment of ±len px over `dirs` directions. */
function directionalMean(p: Float32Array, w: number, h: number, len: number, dirs = 24): Float32Array {
  const out = new Float32Array(p.length);
  const step = Math.max(1, Math.round(len / 8)); // 17 taps a segment is enough for straight lines
  for (let d = 0; d < dirs; d++) {
    const a = (d * Math.PI) / dirs, dx = Math.cos(a), dy = Math.sin(a);
    const ox: number[] = [], oy: number[] = [];
    for (let t = -len; t <= len; t += step) {
      ox.push(Math.round(t * dx));
      oy.push(Math.round(t * dy));
    }
    const k = ox.length, inv = 1 / k;
    const off = Int32Array.from(ox.map((x, i) => oy[i]! * w + x));
    const mx = Math.max(...ox.map(Math.abs)), my = Math.max(...oy.map(Math.abs));
    for (let y = 0; y < h; y++) {
      const inner = y >= my && y < h - my;
      for (let x = 0; x < w; x++) {
        let s = 0;
        const i = y * w + x;
        if (inner && x >= mx && x < w - mx) for (let j = 0; j < k; j++) s += p[i + off[j]!]!;
        else
          for (let j = 0; j < k; j++) {
            const X = x + ox[j]!, Y = y + oy[j]!;
            s += p[(Y < 0 ? 0 : Y >= h ? h - 1 : Y) * w + (X < 0 ? 0 : X >= w ? w - 1 : X)]!;
          }
        s *= inv;
        if (s > out[i]!) out[i] = s;
      }
    }
  }
  return out;
}

/**
 * Keeps the 8-connected components of `raw` that `keepIf` accepts, given their area, longest
 * bounding-box side, and the share of their bounding box (grown by `margin`) covered by other
 * detections (texture gives clusters; a scratch or speck lies on otherwise undamaged picture).
 */
function filterComponents(raw: Uint8Array, w: number, h: number, margin: number, keepIf: (area: number, length: number, othersShare: number) => boolean): void {
  // integral image of detections
  const I = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += raw[y * w + x]!;
      I[(y + 1) * (w + 1) + x + 1] = I[y * (w + 1) + x + 1]! + row;
    }
  }
  const boxSum = (x0: number, y0: number, x1: number, y1: number) =>
    I[y1 * (w + 1) + x1]! - I[y0 * (w + 1) + x1]! - I[y1 * (w + 1) + x0]! + I[y0 * (w + 1) + x0]!;
  const seen = new Uint8Array(raw.length);
  const stack: number[] = [];
  const comp: number[] = [];
  const m = margin;
  for (let s = 0; s < raw.length; s++) {
    if (!raw[s] || seen[s]) continue;
    comp.length = 0;
    stack.push(s);
    seen[s] = 1;
    let x0 = w, y0 = h, x1 = 0, y1 = 0;
    while (stack.length) {
      const i = stack.pop()!;
      comp.push(i);
      const x = i % w, y = (i / w) | 0;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx, Y = y + dy;
          if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
          const j = Y * w + X;
          if (raw[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    const bx0 = Math.max(0, x0 - m), by0 = Math.max(0, y0 - m), bx1 = Math.min(w, x1 + 1 + m), by1 = Math.min(h, y1 + 1 + m);
    const others = boxSum(bx0, by0, bx1, by1) - comp.length;
    const length = Math.max(x1 - x0 + 1, y1 - y0 + 1);
    if (!keepIf(comp.length, length, others / ((bx1 - bx0) * (by1 - by0)))) for (const i of comp) raw[i] = 2; // 2 = rejected, still counts as "seen" detections for others
  }
  for (let i = 0; i < raw.length; i++) if (raw[i] === 2) raw[i] = 0;
}

/** Fills the masked pixels from the unmasked ones (multi-scale normalised convolution). */
export function inpaint(img: Rgb, mask: Uint8Array): Rgb {
  const { w, h, data } = img;
  const n = w * h;
  const out = Uint8Array.from(data);
  const good = new Float32Array(n);
  for (let i = 0; i < n; i++) good[i] = mask[i] ? 0 : 1;
  const todo = Uint8Array.from(mask);
  let left = todo.reduce((a, b) => a + b, 0);
  for (const s of [1, 2, 4, 8, 16, 32]) {
    if (left === 0) break;
    const wsum = gaussianBlur(good, w, h, s);
    const ch = [0, 1, 2].map((c) => {
      const p = new Float32Array(n);
      for (let i = 0; i < n; i++) p[i] = good[i] ? data[i * 3 + c]! : 0;
      return gaussianBlur(p, w, h, s);
    });
    // enough support (a quarter of the kernel's mass) or the last scale: take it
    const minW = s === 32 ? 1e-6 : 0.25;
    for (let i = 0; i < n; i++) {
      if (!todo[i] || wsum[i]! < minW) continue;
      for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(clamp(ch[c]![i]! / wsum[i]!, 0, 255));
      todo[i] = 0;
      left--;
    }
  }
  return { w, h, data: out };
}

export function repairRgb(img: Rgb): { out: Rgb; mask: Uint8Array } {
  const mask = detectDefects(img);
  return { out: inpaint(img, mask), mask };
}

export const repairEngine: Engine<'repair'> = {
  module: 'repair',
  kind: 'classical',
  describe: 'scratch and dust removal: top-hat / black-hat defect detection, normalised-convolution inpainting',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, (img) => {
      ctx.onProgress(0.1);
      const { out } = repairRgb(img);
      ctx.onProgress(1);
      return { image: out };
    }),
};
