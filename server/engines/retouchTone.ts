/**
 * Classical tone corrections that perfect wraps around the MAXIM network (perfect.ts):
 *  - `liftFade`: per-channel levels. Each channel's dark end (0.5th percentile) goes to a common
 *    black and its bright end (99.5th percentile) to a common white, which takes out a haze (raised
 *    black), a faded range and a cast that differs between shadows and highlights (a warm tint
 *    scales red up and blue down). The stretch is limited (gain ≤ 2.2, shift ≤ 80 levels) and a
 *    channel is only stretched as far as its range is really compressed, so a photo that already
 *    spans the range is left alone.
 *  - `greyWorldMid`: a half-strength grey-world gain on mid-tones (limited), for casts the levels
 *    leave.
 */
import { clamp, type Rgb } from './image.js';

function channelHist(img: Rgb, c: number): Uint32Array {
  const h = new Uint32Array(256);
  for (let i = c; i < img.data.length; i += 3) h[img.data[i]!]!++;
  return h;
}

function pct(hist: Uint32Array, n: number, q: number): number {
  let s = 0;
  for (let i = 0; i < 256; i++) if ((s += hist[i]!) >= q * n) return i;
  return 255;
}

export interface LiftOptions {
  /** tail share clipped at each end */
  tail?: number;
  /** target black and white */
  black?: number;
  white?: number;
  /** 0..1: how much of the measured correction is applied */
  strength?: number;
  /** 0..1: how much of the per-channel difference (the cast) is corrected on top of the common stretch */
  cast?: number;
}

/** Per-channel levels towards a common black and white (see the module comment). */
export function liftFade(img: Rgb, o: LiftOptions = {}): Rgb {
  const tail = o.tail ?? 0.005,
    black = o.black ?? 4,
    white = o.white ?? 250,
    s = o.strength ?? 1;
  const n = img.w * img.h;
  const cast = o.cast ?? 1;
  const lut: Uint8Array[] = [];
  const los: number[] = [],
    his: number[] = [];
  for (let c = 0; c < 3; c++) {
    const hist = channelHist(img, c);
    los.push(pct(hist, n, tail));
    his.push(pct(hist, n, 1 - tail));
  }
  // the common range (all channels together) and each channel's own, mixed by `cast`
  const cLo = Math.min(...los),
    cHi = Math.max(...his);
  for (let c = 0; c < 3; c++) {
    const lo = cLo + (los[c]! - cLo) * cast,
      hi = Math.max(lo + 16, cHi + (his[c]! - cHi) * cast);
    // full correction: lo → black, hi → white; limited gain and shift, then blended by strength
    let gain = (white - black) / (hi - lo);
    gain = clamp(gain, 1 / 2.2, 2.2);
    let off = black - lo * gain;
    off = clamp(off, -80 * gain, 80);
    const g = 1 + (gain - 1) * s,
      b = off * s;
    const t = new Uint8Array(256);
    for (let v = 0; v < 256; v++) t[v] = clamp(Math.round(v * g + b), 0, 255);
    lut.push(t);
  }
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i += 3) {
    out[i] = lut[0]![img.data[i]!]!;
    out[i + 1] = lut[1]![img.data[i + 1]!]!;
    out[i + 2] = lut[2]![img.data[i + 2]!]!;
  }
  return { w: img.w, h: img.h, data: out };
}
