/**
 * What an input photo is, read from its own bytes and pixels, and the rule that turns it into the
 * share of the enlarge engine's "mixed" net (trained on blur, sensor noise and JPEG) against its
 * "clean" net (fine-tuned on bicubic-only pairs: ~0.5 dB sharper on clean inputs, but it redraws JPEG
 * blocks and noise). Plain typed-array code, no Node or DOM API.
 *
 * The measures:
 *  - the JPEG's own luma quantization table (DQT segment) as an IJG-equivalent quality 1..100;
 *  - blockiness on the 8-px grid (gridBlockiness): the luma step across block edges over the step
 *    at the blocks' midlines, 1 for a clean picture; it also catches a PNG that was a JPEG once;
 *  - the noise in the picture's flattest parts (flatNoise), so texture is not taken for noise.
 * The thresholds were set on crops of five mate-backgrounds photos (Storm, YellowFlower, GreenMeadow,
 * LadyBird, Wood) downscaled by 2, saved as PNG, as JPEG at q 60–98 and with Gaussian noise σ 1–8, each
 * enlarged by both nets and by their even blend (Y-PSNR against the photo, 16-px blockiness); never on
 * a benchmark set.
 */
import { clamp } from './planes.js';

/** The quantization tables of a baseline or progressive JPEG, by table id (natural order is irrelevant here). */
export function jpegQuantTables(bytes: Uint8Array): Map<number, number[]> | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const tables = new Map<number, number[]>();
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return tables.size ? tables : undefined;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // start of scan: every DQT a decoder needs came before
    const len = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (len < 2 || i + 2 + len > bytes.length) break;
    if (marker === 0xdb) {
      let p = i + 4;
      const end = i + 2 + len;
      while (p < end) {
        const pq = bytes[p]! >> 4,
          tq = bytes[p]! & 15;
        const n = pq ? 128 : 64;
        if (p + 1 + n > end) break;
        const t: number[] = [];
        for (let k = 0; k < 64; k++)
          t.push(pq ? (bytes[p + 1 + 2 * k]! << 8) | bytes[p + 2 + 2 * k]! : bytes[p + 1 + k]!);
        tables.set(tq, t);
        p += 1 + n;
      }
    }
    i += 2 + len;
  }
  return tables.size ? tables : undefined;
}

/** The JPEG standard's (Annex K) luma table in zigzag order, the one IJG's quality setting scales. */
const STD_LUMA_ZIGZAG = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51, 61,
  60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121,
  112, 100, 120, 92, 101, 103, 99,
];

/**
 * IJG-equivalent quality (1..100) of a JPEG's luma table (id 0): the quality whose scaling of the
 * standard table is nearest in the sum of the entries (what libjpeg, libvips and most cameras' tables
 * follow closely; a camera's own table gets the quality of the same overall coarseness). Undefined
 * for a file that is not a JPEG.
 */
export function jpegQuality(bytes: Uint8Array): number | undefined {
  const t = jpegQuantTables(bytes)?.get(0);
  if (!t) return undefined;
  const sum = t.reduce((a, b) => a + b, 0);
  let best = 100,
    err = Infinity;
  for (let q = 1; q <= 100; q++) {
    const scale = q < 50 ? 5000 / q : 200 - 2 * q;
    let s = 0;
    for (const v of STD_LUMA_ZIGZAG) s += clamp(Math.floor((v * scale + 50) / 100), 1, 255);
    const e = Math.abs(s - sum);
    if (e < err) {
      err = e;
      best = q;
    }
  }
  return best;
}

/**
 * Blockiness on a grid of `period` px from the top-left corner: the mean absolute luma step across
 * the grid lines (between columns / rows period·k − 1 and period·k) divided by the mean step at the
 * grid's midlines (between period·k + period/2 − 1 and period·k + period/2), both directions. ≈ 1 for
 * a natural picture; a JPEG's 8×8 blocks raise it on the 8-px grid, and an x2 enlargement that carries
 * them raises it on the 16-px grid of the output.
 */
export function gridBlockiness(y: Float32Array, w: number, h: number, period = 8): number {
  const half = period >> 1;
  let across = 0,
    na = 0,
    mid = 0,
    nm = 0;
  for (let r = 0; r < h; r++) {
    const row = r * w;
    for (let x = period; x < w; x += period) {
      across += Math.abs(y[row + x]! - y[row + x - 1]!);
      na++;
    }
    for (let x = half; x < w; x += period) {
      mid += Math.abs(y[row + x]! - y[row + x - 1]!);
      nm++;
    }
  }
  for (let r = period; r < h; r += period)
    for (let x = 0; x < w; x++) {
      across += Math.abs(y[r * w + x]! - y[(r - 1) * w + x]!);
      na++;
    }
  for (let r = half; r < h; r += period)
    for (let x = 0; x < w; x++) {
      mid += Math.abs(y[r * w + x]! - y[(r - 1) * w + x]!);
      nm++;
    }
  return na && nm && mid > 0 ? across / na / (mid / nm) : 1;
}

/**
 * Noise σ (luma levels) in the flattest parts of the picture: Immerkær's operator averaged over
 * `block`×`block` blocks, the `pct` quantile of the blocks (by default 8 px and the 5th percentile). Texture lifts every block of a textured area,
 * so unlike a whole-picture mean it does not read a detailed photo with some flat parts as noisy; a
 * picture with no flat part reads its finest texture.
 */
export function flatNoise(y: Float32Array, w: number, h: number, block = 8, pct = 0.05): number {
  const B = block;
  const vals: number[] = [];
  for (let by = 1; by + B < h; by += B)
    for (let bx = 1; bx + B < w; bx += B) {
      let s = 0;
      for (let r = by; r < by + B; r++)
        for (let c = bx; c < bx + B; c++) {
          const i = r * w + c;
          s += Math.abs(
            y[i - w - 1]! -
              2 * y[i - w]! +
              y[i - w + 1]! -
              2 * y[i - 1]! +
              4 * y[i]! -
              2 * y[i + 1]! +
              y[i + w - 1]! -
              2 * y[i + w]! +
              y[i + w + 1]!,
          );
        }
      vals.push((s * Math.sqrt(Math.PI / 2)) / (6 * B * B));
    }
  if (!vals.length) return 0;
  vals.sort((a, b) => a - b);
  return vals[Math.floor(vals.length * pct)]!;
}

export interface InputGrade {
  /** IJG-equivalent quality of a JPEG's luma table; undefined for PNG (or another lossless format) */
  jpegQuality?: number;
  /** gridBlockiness on the 8-px grid */
  blockiness: number;
  /** flatNoise σ */
  noise: number;
  /** the picture's pixels: how much evidence the blockiness and the noise rest on */
  pixels: number;
}

export function gradeInput(bytes: Uint8Array, y: Float32Array, w: number, h: number): InputGrade {
  const q = jpegQuality(bytes);
  return {
    ...(q === undefined ? {} : { jpegQuality: q }),
    blockiness: gridBlockiness(y, w, h, 8),
    noise: flatNoise(y, w, h),
    pixels: w * h,
  };
}

/**
 * JPEG quality up to which the mixed net is taken whole: up to q 92 it is as good as or better than a
 * blend in PSNR and the only one without blocks (the clean net redraws them: 16-px blockiness 1.15–1.8
 * after x2 against 1.0–1.1). Above it the share falls linearly to MIXED_AT_100 at q 100: at q 95–98
 * the blend of the two measured best (docs/lab/quality.md has the figures).
 */
const MIXED_TO_QUALITY = 92;
const MIXED_AT_100 = 0.1;
/**
 * 8-px blockiness from which on blocks count (clean photos read 0.98–1.06), and at which the mixed net
 * is taken whole (a PNG that was a JPEG at q 75 reads 1.24–1.5, 1.12 where texture hides the blocks).
 */
const BLOCKS_FROM = 1.07;
const BLOCKS_FULL = 1.25;
/**
 * Flat-area noise σ from which on noise counts, and at which the mixed net is taken whole: a clean
 * downscaled photo reads 0.24–0.35, Gaussian σ 1 0.58–0.66 (the clean net as good as the blend, the
 * mixed one 0.2–0.7 dB below), σ 2 1.04–1.11 (the blend best), σ 3 1.51–1.61 (the clean net 3–7 dB
 * below the mixed one).
 */
const NOISE_FROM = 0.65;
const NOISE_FULL = 1.5;

/**
 * Pixels from which on the blockiness and the noise are taken as read; below, their excess over a clean
 * picture counts in proportion (pixels / GRADE_FULL_PIXELS). On small clean pictures both read high by
 * chance and from texture: the 16 calibration photos and skimage pictures downscaled by MATLAB bicubic
 * to 80–160 px read blockiness up to 1.20 and noise up to 1.6 (w up to 1), at 256 px and more ≤ 1.09 / 0.6.
 */
export const GRADE_FULL_PIXELS = 100_000;

/**
 * The mixed net's share w in [0, 1] for a graded input (0 = the clean net alone, 1 = the mixed net
 * alone, in between the two outputs blended): the largest of what the quantization table, the
 * blockiness and the noise each say, the last two weighed by the picture's size (GRADE_FULL_PIXELS).
 */
export function mixedShare(g: InputGrade): number {
  const fromQ =
    g.jpegQuality === undefined
      ? 0
      : 1 - (1 - MIXED_AT_100) * clamp((g.jpegQuality - MIXED_TO_QUALITY) / (100 - MIXED_TO_QUALITY), 0, 1);
  const c = Math.min(1, g.pixels / GRADE_FULL_PIXELS);
  const fromBlocks = clamp((1 + (g.blockiness - 1) * c - BLOCKS_FROM) / (BLOCKS_FULL - BLOCKS_FROM), 0, 1);
  const fromNoise = clamp((g.noise * c - NOISE_FROM) / (NOISE_FULL - NOISE_FROM), 0, 1);
  return Math.max(fromQ, fromBlocks, fromNoise);
}
