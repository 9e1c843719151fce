/**
 * Synthetic scratches and dust for measuring old-photo repair (tests and `npm run quality`):
 * deterministic thin anti-aliased lines, slightly curved (mostly near-vertical, like film scratches,
 * some at any angle)
 * and small specks, bright or dark, drawn onto a picture. Returns the picture and a mask of the
 * pixels the defects changed by more than 8 grey levels.
 */
import { boxMean, type Rgb } from './image.js';

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

export function addScratches(
  img: Rgb,
  opts: { lines?: number; specks?: number; seed?: number } = {},
): { img: Rgb; mask: Uint8Array } {
  const { w, h } = img;
  const rnd = rng(opts.seed ?? 7);
  const alpha = new Float32Array(w * h); // coverage 0..1
  const tone = new Float32Array(w * h); // target value where covered
  const paint = (x: number, y: number, a: number, v: number) => {
    const X = Math.round(x),
      Y = Math.round(y);
    if (X < 0 || Y < 0 || X >= w || Y >= h || a <= alpha[Y * w + X]!) return;
    alpha[Y * w + X] = a;
    tone[Y * w + X] = v;
  };
  const lines = opts.lines ?? Math.max(3, Math.round((w * h) / 20000));
  for (let k = 0; k < lines; k++) {
    const bright = rnd() < 0.6;
    const v = bright ? 215 + 40 * rnd() : 15 + 40 * rnd();
    const width = 0.8 + 1.6 * rnd(); // 0.8–2.4 px
    const vertical = rnd() < 0.6;
    const ang = vertical ? Math.PI / 2 + (rnd() - 0.5) * 0.15 : rnd() * Math.PI;
    const len = (0.3 + 0.6 * rnd()) * (vertical ? h : Math.min(w, h));
    const x0 = rnd() * w,
      y0 = rnd() * h * (vertical ? 0.5 : 1);
    const strength = 0.6 + 0.4 * rnd();
    // slightly curved: the direction turns by up to ±0.12 rad over the whole length
    const bend = (rnd() - 0.5) * 0.24;
    let cx = x0,
      cy = y0;
    for (let t = 0; t < len; t += 0.5) {
      const a = ang + bend * (t / len - 0.5);
      const dx = Math.cos(a),
        dy = Math.sin(a);
      cx += dx * 0.5;
      cy += dy * 0.5;
      for (let o = -2; o <= 2; o += 0.5) {
        const d = Math.abs(o);
        const a = strength * Math.max(0, Math.min(1, width / 2 + 0.5 - d));
        if (a > 0) paint(cx - dy * o, cy + dx * o, a, v);
      }
    }
  }
  const specks = opts.specks ?? Math.max(5, Math.round((w * h) / 4000));
  for (let k = 0; k < specks; k++) {
    const v = rnd() < 0.5 ? 240 : 20;
    const r = 0.7 + 2.0 * rnd();
    const cx = rnd() * w,
      cy = rnd() * h;
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++)
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const d = Math.hypot(x - cx, y - cy);
        paint(x, y, Math.max(0, Math.min(1, r + 0.5 - d)), v);
      }
  }
  const data = Uint8Array.from(img.data);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const a = alpha[i]!;
    if (a <= 0) continue;
    let diff = 0;
    for (let c = 0; c < 3; c++) {
      const nv = Math.round((1 - a) * img.data[i * 3 + c]! + a * tone[i]!);
      diff = Math.max(diff, Math.abs(nv - img.data[i * 3 + c]!));
      data[i * 3 + c] = nv;
    }
    if (diff > 16) mask[i] = 1;
  }
  return { img: { w, h, data }, mask };
}

/**
 * Share of the scratch pixels that are repaired: a pixel counts when the repaired picture is
 * within max(10, ¼ of the defect's contrast) of the clean one (luma).
 */
export function scratchRemoval(clean: Rgb, scratched: Rgb, repaired: Rgb, mask: Uint8Array): number {
  let n = 0,
    ok = 0;
  const L = (d: Uint8Array, i: number) => 0.299 * d[i * 3]! + 0.587 * d[i * 3 + 1]! + 0.114 * d[i * 3 + 2]!;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    n++;
    const c = L(clean.data, i);
    const defect = Math.abs(L(scratched.data, i) - c);
    if (Math.abs(L(repaired.data, i) - c) <= Math.max(10, defect / 4)) ok++;
  }
  return n ? ok / n : 1;
}

/**
 * Contrast of the thin structures of `clean` (pixels > 20 grey levels off their 7×7 mean) in `img`:
 * the mean |luma − 7×7 mean| over those pixels. A repair that keeps real lines (stalks, wires)
 * leaves it near its value on the clean photo; one that paints them out drops it.
 */
export function lineContrast(clean: Rgb, img: Rgb): { pixels: number; clean: number; after: number } {
  const L = (im: Rgb) => {
    const y = new Float32Array(im.w * im.h);
    for (let i = 0; i < y.length; i++)
      y[i] = 0.299 * im.data[i * 3]! + 0.587 * im.data[i * 3 + 1]! + 0.114 * im.data[i * 3 + 2]!;
    return { y, m: boxMean(y, im.w, im.h, 3) };
  };
  const a = L(clean),
    b = L(img);
  let n = 0,
    sa = 0,
    sb = 0;
  for (let i = 0; i < a.y.length; i++) {
    const va = Math.abs(a.y[i]! - a.m[i]!);
    if (va <= 20) continue;
    n++;
    sa += va;
    sb += Math.abs(b.y[i]! - b.m[i]!);
  }
  return { pixels: n, clean: n ? sa / n : 0, after: n ? sb / n : 0 };
}
