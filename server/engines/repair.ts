/**
 * repair (old photo repair): finds scratches and dust and paints them out, before the colour and
 * enlarge steps of se-old-repair.
 *  - the defect net (scratchNet.ts, our own U-Net) finds scratches and specks, also on busy texture;
 *    its long finds count only if they run nearly straight; the classical finds below are added
 *    where the net does not call them the photo (findDefects).
 *  - scratches (classical): an oriented bar detector on luma at 16 angles — a pixel brighter (darker) than
 *    BOTH sides of it at ±d px across the angle, so step edges (horizons, outlines) never respond
 *    and lines wider than ~2d px (masts, trunks) neither — averaged along the angle over ±L px: a
 *    scratch keeps its response along its length, texture (grass, foliage, rock) averages out.
 *    Minus the along-line mean of the signed difference of the two sides: a real line beside an
 *    edge (a highlight on a tripod leg, one wire of a pair, a gap between planks) has sides that
 *    differ the same way all along; a scratch lies on one background, its sides differ at random.
 *    The result must stand out of the local texture (the pointwise response of the surroundings,
 *    the candidates left out) and the noise; hysteresis follows a scratch from its strong parts
 *    through textured and faint stretches; a kept run is long (≥ short side / 10), grey (a
 *    scratch greys what it crosses; a coloured stalk keeps its own hue) and straight (a scratch
 *    runs along one or two directions; a tyre's rim or a collar ring turns).
 *  - dust (classical): a pixel brighter (darker) than every point of an even ring around it, in a small
 *    component, grown over the speck's rim.
 *  - inpainting: each hole pixel is interpolated across the hole along 8 directions from the first
 *    good pixels on either side; directions whose two ends agree (an edge or a texture line crossing
 *    the scratch) and short spans weigh most, so crossing edges continue through the repair.
 */
import type { Engine } from './types.js';
import { boxMean, clamp, estimateNoise, luma, runOnRgb, type Rgb } from './image.js';
import { scratchLogit } from './scratchNet.js';

export interface DefectOptions {
  /** scale of the detector (1 up to ~1600 px short side, then 2, 3): side distance d = 2s px */
  scale?: number;
}

const ANGLES = 16;
/** weight of the along-line side difference (scene structure) against the bar response */
const ASYM = 1;
/** a line pixel stands out of the local texture by WF (weak, followed) or SF (seed) times */
const WF = 1.2,
  SF = 2.5;
/**
 * A line is kept as a scratch only if this share of its pixels lies along at most two directions
 * (each ±1 of the 16 angles: two straight scratches may cross). Film and print scratches run nearly
 * straight (the measuring ones turn by ≤ 0.12 rad); a tyre's rim, a collar ring or a lattice turns
 * through many angles. Measured on both repair sets (docs/lab/quality.md): removal unchanged,
 * clean photos repainted less (motorcycle 29.3 → 32.5 dB, rocket 32.2 → 36.3 dB).
 */
const STRAIGHT = 0.75;
/** how far the bright (dark) bar maps move from luma towards the darkest (brightest) channel */
const CHANNEL_SHIFT = 0.5;

/** Integer (dx, dy) taps of a centred segment of ±len px along angle a (duplicates dropped). */
function segment(a: number, len: number): [number, number][] {
  const out: [number, number][] = [];
  const seen = new Set<string>();
  for (let t = -len; t <= len; t++) {
    const p: [number, number] = [Math.round(t * Math.cos(a)), Math.round(t * Math.sin(a))];
    const k = p.join(',');
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  return out;
}

/**
 * Means of three maps along a digital straight line of ±len px at angle a, centred on each pixel
 * (edges clamped): the image is sheared so that the line becomes a row (column), then each row is a
 * running sum — O(1) per pixel whatever the length. Along the major axis the line has 2R+1 pixels,
 * R = round(len·|cos|) (|sin| for steep angles), one per column (row), as a rasterised segment.
 * The line passes up to ½ px off a pixel's centre, so callers recompute the few pixels that matter
 * with the exact centred segment.
 */
function lineMeans(a: number, len: number, w: number, h: number, src: Maps, out: Maps, tmp: Maps, tmpOut: Maps): void {
  if (Math.abs(Math.sin(a)) > Math.abs(Math.cos(a))) {
    // steep: along the rows of the transposed maps (the sheared columns would stride through memory)
    for (let j = 0; j < 3; j++) transpose(src[j], w, h, tmp[j]);
    lineMeansAlongRows(Math.PI / 2 - a, len, h, w, tmp, tmpOut);
    for (let j = 0; j < 3; j++) transpose(tmpOut[j], h, w, out[j]);
  } else lineMeansAlongRows(a, len, w, h, src, out);
}

type Maps = [Float32Array, Float32Array, Float32Array];

/** dst (h×w) = src (w×h) transposed, in cache-sized blocks. */
function transpose(src: Float32Array, w: number, h: number, dst: Float32Array): void {
  const B = 32;
  for (let y0 = 0; y0 < h; y0 += B)
    for (let x0 = 0; x0 < w; x0 += B) {
      const y1 = Math.min(h, y0 + B),
        x1 = Math.min(w, x0 + B);
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) dst[x * h + y] = src[y * w + x]!;
    }
}

function lineMeansAlongRows(a: number, len: number, w: number, h: number, src: Maps, out: Maps): void {
  const c = Math.cos(a),
    s = Math.sin(a);
  // |slope| ≤ 1: major axis u = x, minor v = y
  const U = w,
    V = h;
  const m = s / c;
  const R = Math.max(1, Math.round(len * Math.abs(c)));
  const inv = 1 / (2 * R + 1);
  const [s0, s1, s2] = src,
    [o0, o1, o2] = out;
  const shift = new Int32Array(U + 2 * R);
  for (let u = -R; u < U + R; u++) shift[u + R] = Math.round(u * m);
  let lo = 0,
    hi = 0;
  for (let u = 0; u < U; u++) {
    lo = Math.min(lo, shift[u + R]!);
    hi = Math.max(hi, shift[u + R]!);
  }
  const P0 = new Float64Array(U + 2 * R + 1),
    P1 = new Float64Array(U + 2 * R + 1),
    P2 = new Float64Array(U + 2 * R + 1);
  // row r of the sheared image holds the pixels (u, r + shift(u))
  for (let r = -hi; r < V - lo; r++) {
    // the pixels of this row inside the picture (shift is monotonic), and the window around them
    let u0 = 0,
      u1 = U - 1;
    while (u0 < U && (r + shift[u0 + R]! < 0 || r + shift[u0 + R]! >= V)) u0++;
    while (u1 > u0 && (r + shift[u1 + R]! < 0 || r + shift[u1 + R]! >= V)) u1--;
    if (u0 >= U) continue;
    P0[u0] = P1[u0] = P2[u0] = 0;
    let a0 = 0,
      a1 = 0,
      a2 = 0;
    for (let u = u0 - R; u <= u1 + R; u++) {
      const uu = u < 0 ? 0 : u >= U ? U - 1 : u;
      let vv = r + shift[u + R]!;
      vv = vv < 0 ? 0 : vv >= V ? V - 1 : vv;
      const i = uu + vv * w,
        o = u + R + 1;
      P0[o] = a0 += s0[i]!;
      P1[o] = a1 += s1[i]!;
      P2[o] = a2 += s2[i]!;
    }
    for (let u = u0; u <= u1; u++) {
      const v = r + shift[u + R]!;
      const i = u + v * w,
        e = u + 2 * R + 1;
      o0[i] = (P0[e]! - P0[u]!) * inv;
      o1[i] = (P1[e]! - P1[u]!) * inv;
      o2[i] = (P2[e]! - P2[u]!) * inv;
    }
  }
}

/** Values of y at i + (dx, dy), edges clamped. */
const at = (y: Float32Array, w: number, h: number, x: number, yy: number, dx: number, dy: number) => {
  const X = x + dx,
    Y = yy + dy;
  return y[(Y < 0 ? 0 : Y >= h ? h - 1 : Y) * w + (X < 0 ? 0 : X >= w ? w - 1 : X)]!;
};

/** One picture as the detector sees it: its maps, its scale and its thresholds. */
interface Detector {
  w: number;
  h: number;
  n: number;
  /** luma, and the maps the bright / dark bar tests read (see barMaps) */
  y: Float32Array;
  yB: Float32Array;
  yD: Float32Array;
  /** detector scale (DefectOptions.scale) */
  s: number;
  /** side distance: lines up to ~2d−1 px wide respond, wider ones (masts, trunks, plank gaps) not */
  d: number;
  /** ±L px along the line */
  L: number;
  /** noise level of the luma */
  sigma: number;
  /** weak and strong bar thresholds */
  tLo: number;
  tHi: number;
}

/** The best bar responses over the ANGLES (step 1). */
interface Bars {
  /** best pointwise |bar| over angles: the texture's activity */
  point: Float32Array;
  /** best pointwise bright / dark response */
  pB: Float32Array;
  pD: Float32Array;
  /** best response averaged along its line, less the sides' asymmetry; and that line's angle index */
  mB: Float32Array;
  mD: Float32Array;
  kB: Uint8Array;
  kD: Uint8Array;
}

/** 1 where a scratch or dust speck is, 0 elsewhere (rims included). */
export function detectDefects(img: Rgb, opts: DefectOptions = {}): Uint8Array {
  const det = detector(img, opts);
  const bars = barResponses(det);
  const texture = localTexture(det, bars);
  const lines = scratchLines(img, det, bars, texture);
  const specks = dustSpecks(det, texture);
  return withRims(lines, specks, det.w, det.h);
}

function detector(img: Rgb, opts: DefectOptions): Detector {
  const { w, h } = img;
  const y = luma(img);
  const { yB, yD } = barMaps(img, y);
  const s = opts.scale ?? detectorScale(w, h);
  const sigma = estimateNoise(y, w, h);
  return {
    w,
    h,
    n: w * h,
    y,
    yB,
    yD,
    s,
    d: 2 * s,
    L: 8 * s,
    sigma,
    tLo: Math.max(8, 3 * sigma),
    tHi: Math.max(18, 6 * sigma),
  };
}

/**
 * A scratch greys what it crosses: a bright one pulls a colour towards white, so its darkest
 * channel rises more than its luma (white on a yellow petal: blue 0 → 230, luma +30); a dark one
 * towards black, so its brightest channel falls most. The bar test reads bright lines on luma
 * moved halfway to the darkest channel and dark lines halfway to the brightest (all the way
 * found more scratches on colour photos but flagged more real lines: lattice masts on a blue sky,
 * lit plank edges). On grey pictures both maps are the luma.
 */
function barMaps(img: Rgb, y: Float32Array): { yB: Float32Array; yD: Float32Array } {
  const n = y.length;
  const yB = new Float32Array(n),
    yD = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = img.data[i * 3]!,
      g = img.data[i * 3 + 1]!,
      b = img.data[i * 3 + 2]!;
    yB[i] = y[i]! + CHANNEL_SHIFT * (Math.min(r, g, b) - y[i]!);
    yD[i] = y[i]! + CHANNEL_SHIFT * (Math.max(r, g, b) - y[i]!);
  }
  return { yB, yD };
}

/** Step 1: the oriented bar response, pointwise (best over angles) and averaged along each angle. */
function barResponses(det: Detector): Bars {
  const { n } = det;
  const bars: Bars = {
    point: new Float32Array(n),
    pB: new Float32Array(n),
    pD: new Float32Array(n),
    mB: new Float32Array(n).fill(-Infinity),
    mD: new Float32Array(n).fill(-Infinity),
    kB: new Uint8Array(n),
    kD: new Uint8Array(n),
  };
  const bright = new Float32Array(n),
    dark = new Float32Array(n),
    sideDiff = new Float32Array(n);
  const avg = new Float32Array(n),
    avgD = new Float32Array(n),
    avgSide = new Float32Array(n);
  const buffers = () => [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as Maps;
  const tmpIn = buffers(),
    tmpOut = buffers();
  for (let k = 0; k < ANGLES; k++) {
    const a = (k * Math.PI) / ANGLES;
    pointwiseBars(det, a, bars, sideDiff, bright, dark);
    // sides that differ the same way all along (a line beside an edge, a highlight on a tripod
    // leg, one wire of a pair) are scene structure; a scratch lies on one background, whose
    // texture makes its sides differ at random
    lineMeans(a, det.L, det.w, det.h, [sideDiff, bright, dark], [avgSide, avg, avgD], tmpIn, tmpOut);
    exactWhereItCounts(det, a, [sideDiff, bright, dark], [avgSide, avg, avgD]);
    keepBest(avg, avgSide, bars.mB, bars.kB, k);
    keepBest(avgD, avgSide, bars.mD, bars.kD, k);
  }
  return bars;
}

/**
 * At angle a, each pixel's bright and dark bar responses (the pixel against the two sides d px
 * across the line) and the difference of the sides; the pointwise bests are kept in `bars`.
 */
function pointwiseBars(
  det: Detector,
  a: number,
  bars: Bars,
  sideDiff: Float32Array,
  bright: Float32Array,
  dark: Float32Array,
): void {
  const { w, h, y, yB, yD, d, tHi } = det;
  const { point, pB, pD } = bars;
  const nx = -Math.sin(a),
    ny = Math.cos(a);
  const side = [d, d + 1].map((t) => [Math.round(t * nx), Math.round(t * ny)] as const);
  const o1 = side[0]![1] * w + side[0]![0],
    o2 = side[1]![1] * w + side[1]![0];
  const m = d + 1;
  for (let yy = 0; yy < h; yy++) {
    const inner = yy >= m && yy < h - m;
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      let l = 0,
        r = 0,
        lB = 0,
        rB = 0,
        lD = 0,
        rD = 0;
      if (inner && x >= m && x < w - m) {
        l = 0.5 * (y[i + o1]! + y[i + o2]!);
        r = 0.5 * (y[i - o1]! + y[i - o2]!);
        lB = 0.5 * (yB[i + o1]! + yB[i + o2]!);
        rB = 0.5 * (yB[i - o1]! + yB[i - o2]!);
        lD = 0.5 * (yD[i + o1]! + yD[i + o2]!);
        rD = 0.5 * (yD[i - o1]! + yD[i - o2]!);
      } else {
        for (const [dx, dy] of side) {
          l += at(y, w, h, x, yy, dx, dy);
          r += at(y, w, h, x, yy, -dx, -dy);
          lB += at(yB, w, h, x, yy, dx, dy);
          rB += at(yB, w, h, x, yy, -dx, -dy);
          lD += at(yD, w, h, x, yy, dx, dy);
          rD += at(yD, w, h, x, yy, -dx, -dy);
        }
        l *= 0.5;
        r *= 0.5;
        lB *= 0.5;
        rB *= 0.5;
        lD *= 0.5;
        rD *= 0.5;
      }
      const b = yB[i]! - Math.max(lB, rB),
        dk = Math.min(lD, rD) - yD[i]!;
      sideDiff[i] = l - r;
      // a strongly negative tap (texture across the line) must not veto a whole segment
      bright[i] = Math.max(b, -tHi);
      dark[i] = Math.max(dk, -tHi);
      if (b > pB[i]!) pB[i] = b;
      if (dk > pD[i]!) pD[i] = dk;
      const p = Math.max(b, dk);
      if (p > point[i]!) point[i] = p;
    }
  }
}

/**
 * The sheared line of lineMeans passes up to ½ px off some pixels' centres: where the response may
 * count (within half the weak threshold), the exact centred segment decides.
 */
function exactWhereItCounts(det: Detector, a: number, src: Maps, out: Maps): void {
  const { w, h, L, tLo } = det;
  const [sideDiff, bright, dark] = src,
    [avgSide, avg, avgD] = out;
  const taps = segment(a, L),
    inv = 1 / taps.length;
  const off = Int32Array.from(taps.map(([x, y]) => y * w + x));
  const mx = Math.max(...taps.map(([x]) => Math.abs(x))),
    my = Math.max(...taps.map(([, y]) => Math.abs(y)));
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      if (Math.max(avg[i]!, avgD[i]!) - ASYM * Math.abs(avgSide[i]!) <= 0.25 * tLo) continue;
      let s0 = 0,
        s1 = 0,
        s2 = 0;
      if (yy >= my && yy < h - my && x >= mx && x < w - mx)
        for (let j = 0; j < off.length; j++) {
          const q = i + off[j]!;
          s0 += sideDiff[q]!;
          s1 += bright[q]!;
          s2 += dark[q]!;
        }
      else
        for (const [dx, dy] of taps) {
          const X = x + dx,
            Y = yy + dy;
          const q = (Y < 0 ? 0 : Y >= h ? h - 1 : Y) * w + (X < 0 ? 0 : X >= w ? w - 1 : X);
          s0 += sideDiff[q]!;
          s1 += bright[q]!;
          s2 += dark[q]!;
        }
      avgSide[i] = s0 * inv;
      avg[i] = s1 * inv;
      avgD[i] = s2 * inv;
    }
}

/** best[i] = the line response at angle index k where it beats the best so far (less the sides' asymmetry). */
function keepBest(avg: Float32Array, avgSide: Float32Array, best: Float32Array, bestK: Uint8Array, k: number): void {
  for (let i = 0; i < best.length; i++) {
    const v = avg[i]! - ASYM * Math.abs(avgSide[i]!);
    if (v > best[i]!) {
      best[i] = v;
      bestK[i] = k;
    }
  }
}

/** Step 2: the local texture, mean pointwise activity around each pixel with the candidates left out (normalised convolution). */
function localTexture(det: Detector, bars: Bars): Float32Array {
  const { w, h, n, d, tLo } = det;
  const R = 4 * d;
  const cand = new Float32Array(n),
    act = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const c = Math.max(bars.mB[i]!, bars.mD[i]!) > tLo ? 0 : 1;
    cand[i] = c;
    act[i] = c * bars.point[i]!;
  }
  const wAct = boxMean(cand, w, h, R),
    sAct = boxMean(act, w, h, R);
  const texture = new Float32Array(n);
  for (let i = 0; i < n; i++) texture[i] = wAct[i]! > 0.05 ? sAct[i]! / wAct[i]! : Infinity;
  return texture;
}

/** Step 3: scratches by hysteresis, strong seeds grown through weak pixels of the same polarity; long, grey and straight lines only. */
function scratchLines(img: Rgb, det: Detector, bars: Bars, texture: Float32Array): Uint8Array {
  const { w, h, n, d, tLo, tHi } = det;
  const lines = new Uint8Array(n);
  const chroma = achromaticResidual(img, bars.mB, bars.mD, tLo, d);
  for (const [m, p, angle] of [
    [bars.mB, bars.pB, bars.kB],
    [bars.mD, bars.pD, bars.kD],
  ] as const) {
    const weak = new Uint8Array(n),
      strong = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = m[i]!,
        t = texture[i]!;
      // on the ridge itself (a segment crossing a scratch beside it averages above zero too)
      if (v > tLo && v > WF * t && p[i]! > 0.5 * v) {
        weak[i] = 1;
        if (v > tHi && v > SF * t) strong[i] = 1;
      }
    }
    const minLength = Math.max(20, Math.round(Math.min(w, h) / 10));
    keepComponents(weak, w, h, (comp, length) => {
      if (length < minLength) return false;
      let seeds = 0,
        off = 0;
      for (const i of comp) {
        seeds += strong[i]!;
        off += chroma[i]!;
      }
      // a scratch only greys what it crosses: a coloured line (a stalk, a wire of colour) is real;
      // and it runs nearly straight: a line that turns (a tyre's rim, a collar ring, a lattice) is real
      return seeds >= 0.2 * comp.length && off / comp.length < 10 && straightShare(comp, angle) >= STRAIGHT;
    });
    for (let i = 0; i < n; i++) lines[i] |= weak[i]!;
  }
  return lines;
}

/** Step 4: dust, brighter or darker than the whole ring around it, small and alone; grown over its rim. */
function dustSpecks(det: Detector, texture: Float32Array): Uint8Array {
  const { w, h, n, y, s, sigma } = det;
  const specks = new Uint8Array(n);
  const rho = 2 * s + 2;
  const ring: [number, number][] = [];
  for (let k = 0; k < 16; k++)
    ring.push([Math.round(rho * Math.cos((k * Math.PI) / 8)), Math.round(rho * Math.sin((k * Math.PI) / 8))]);
  const tSpeck = Math.max(24, 6 * sigma);
  const ringOff = Int32Array.from(ring.map(([dx, dy]) => dy * w + dx));
  for (let yy = 0; yy < h; yy++) {
    const inner = yy >= rho && yy < h - rho;
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      let lo = Infinity,
        hi = -Infinity;
      if (inner && x >= rho && x < w - rho)
        for (let k = 0; k < ringOff.length; k++) {
          const v = y[i + ringOff[k]!]!;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      else
        for (const [dx, dy] of ring) {
          const v = at(y, w, h, x, yy, dx, dy);
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      const v = y[i]!;
      const resp = Math.max(v - hi, lo - v);
      // on an even surround: a highlight among leaves has a ring of lit and shaded parts
      if (resp > tSpeck && resp > 3 * texture[i]! && hi - lo < 0.5 * resp) specks[i] = 1;
    }
  }
  keepComponents(specks, w, h, (comp, length) => length <= 2 * rho);
  // grow each speck over its rim: neighbours that differ from the ring's level the same way
  return growSpecks(y, specks, w, h, rho, Math.max(8, 3 * sigma));
}

/** Step 5: the mask, with the anti-aliased rim of a scratch as part of it (lines grown by one pixel). */
function withRims(lines: Uint8Array, specks: Uint8Array, w: number, h: number): Uint8Array {
  const mask = new Uint8Array(w * h);
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      if (specks[i]) mask[i] = 1;
      if (!lines[i]) continue;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx,
            Y = yy + dy;
          if (X >= 0 && Y >= 0 && X < w && Y < h) mask[Y * w + X] = 1;
        }
    }
  return mask;
}

/**
 * Share of a line's pixels whose best bar angle (index into the ANGLES) lies within ±1 of the line's
 * most common angle or of its second mode: ~1 for one straight line or two crossing ones, lower for a
 * line that turns.
 */
function straightShare(comp: number[], angle: Uint8Array): number {
  const hist = new Float32Array(ANGLES);
  for (const i of comp) hist[angle[i]!]!++;
  const around = (k: number) => hist[(k + ANGLES - 1) % ANGLES]! + hist[k]! + hist[(k + 1) % ANGLES]!;
  let first = 0;
  for (let k = 1; k < ANGLES; k++) if (around(k) > around(first)) first = k;
  const firstCount = around(first);
  for (const d of [-1, 0, 1]) hist[(first + d + ANGLES) % ANGLES] = 0;
  let second = 0;
  for (let k = 0; k < ANGLES; k++) second = Math.max(second, around(k));
  return (firstCount + second) / comp.length;
}

/**
 * Per pixel, how far its chroma is from a greyed copy of its surroundings' chroma: a scratch mixes
 * the picture with grey (C = (1−a)·C_around, residual ≈ 0), a real coloured line has its own hue.
 * The surroundings: box mean of the chroma of pixels off the line candidates.
 */
function achromaticResidual(img: Rgb, mB: Float32Array, mD: Float32Array, t: number, d: number): Float32Array {
  const { w, h, data } = img;
  const n = w * h;
  const cb = new Float32Array(n),
    cr = new Float32Array(n),
    off = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = data[i * 3]!,
      g = data[i * 3 + 1]!,
      b = data[i * 3 + 2]!;
    const o = Math.max(mB[i]!, mD[i]!) > t ? 0 : 1;
    off[i] = o;
    cb[i] = o * (-0.1687 * r - 0.3313 * g + 0.5 * b);
    cr[i] = o * (0.5 * r - 0.4187 * g - 0.0813 * b);
  }
  const R = d + 3;
  const mo = boxMean(off, w, h, R),
    mb = boxMean(cb, w, h, R),
    mr = boxMean(cr, w, h, R);
  const res = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = data[i * 3]!,
      g = data[i * 3 + 1]!,
      b = data[i * 3 + 2]!;
    const pb = -0.1687 * r - 0.3313 * g + 0.5 * b,
      pr = 0.5 * r - 0.4187 * g - 0.0813 * b;
    if (mo[i]! < 1e-3) continue;
    const sb = mb[i]! / mo[i]!,
      sr = mr[i]! / mo[i]!;
    const ss = sb * sb + sr * sr;
    const k = ss > 1e-6 ? clamp((pb * sb + pr * sr) / ss, 0, 1) : 0;
    res[i] = Math.hypot(pb - k * sb, pr - k * sr);
  }
  return res;
}

/** Grows speck seeds by up to rho px into pixels beyond `t` of the level just outside the speck. */
function growSpecks(y: Float32Array, seeds: Uint8Array, w: number, h: number, rho: number, t: number): Uint8Array {
  const out = new Uint8Array(seeds.length);
  const seen = new Uint8Array(seeds.length);
  for (let s0 = 0; s0 < seeds.length; s0++) {
    if (!seeds[s0] || seen[s0]) continue;
    const cx = s0 % w,
      cy = (s0 / w) | 0;
    // level of the surroundings: mean of a ring at 2·rho
    let bg = 0,
      cnt = 0;
    for (let k = 0; k < 24; k++) {
      const X = Math.round(cx + 2 * rho * Math.cos((k * Math.PI) / 12)),
        Y = Math.round(cy + 2 * rho * Math.sin((k * Math.PI) / 12));
      if (X >= 0 && Y >= 0 && X < w && Y < h) {
        bg += y[Y * w + X]!;
        cnt++;
      }
    }
    if (!cnt) continue;
    bg /= cnt;
    const sign = y[s0]! > bg ? 1 : -1;
    const tt = Math.max(t, 0.3 * Math.abs(y[s0]! - bg));
    const stack = [s0];
    seen[s0] = 1;
    while (stack.length) {
      const i = stack.pop()!;
      out[i] = 1;
      const x = i % w,
        yy = (i / w) | 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx,
            Y = yy + dy;
          if (X < 0 || Y < 0 || X >= w || Y >= h || Math.abs(X - cx) > rho || Math.abs(Y - cy) > rho) continue;
          const j = Y * w + X;
          if (seen[j]) continue;
          if (seeds[j] || sign * (y[j]! - bg) > tt) {
            seen[j] = 1;
            stack.push(j);
          } else out[j] = 1; // the faint outer rim
        }
    }
  }
  return out;
}

/** Keeps the 8-connected components of `m` that `keepIf` accepts (pixels, longest box side). */
function keepComponents(
  m: Uint8Array,
  w: number,
  h: number,
  keepIf: (comp: number[], length: number) => boolean,
): void {
  const seen = new Uint8Array(m.length);
  const stack: number[] = [];
  for (let s = 0; s < m.length; s++) {
    if (!m[s] || seen[s]) continue;
    const comp: number[] = [];
    stack.push(s);
    seen[s] = 1;
    let x0 = w,
      y0 = h,
      x1 = 0,
      y1 = 0;
    while (stack.length) {
      const i = stack.pop()!;
      comp.push(i);
      const x = i % w,
        y = (i / w) | 0;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const X = x + dx,
            Y = y + dy;
          if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
          const j = Y * w + X;
          if (m[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    if (!keepIf(comp, Math.max(x1 - x0 + 1, y1 - y0 + 1))) for (const i of comp) m[i] = 0;
  }
}

/** Cubic Hermite curve at s ∈ [0, 1] from p0 (slope m0) to p1 (slope m1), slopes per unit s. */
const hermite = (s: number, p0: number, m0: number, p1: number, m1: number) => {
  const s2 = s * s,
    s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * m1;
};

const DIRS: [number, number][] = [
  [1, 0],
  [2, 1],
  [1, 1],
  [1, 2],
  [0, 1],
  [-1, 2],
  [-1, 1],
  [-2, 1],
];

/**
 * Fills the masked pixels: per hole pixel, along 8 directions, the first good pixel on each side
 * (up to `reach` steps); the two are interpolated at the pixel, weighted by how well they agree
 * (luma) and how short the span is. The curve through the hole is cubic (Hermite), its slopes at
 * the ends taken from the next good pixel beyond each end, so a gradient or a texture's rise keeps
 * its course across the scratch; it is held within the two ends' values (no overshoot, no halo),
 * and is linear where a next pixel is missing. Measured against linear on the repair sets
 * (docs/lab/quality.md). Holes no direction spans (image borders, wide blots) fall back to
 * multi-scale normalised convolution (box means).
 */
export function inpaint(img: Rgb, mask: Uint8Array, reach = 12): Rgb {
  const { w, h, data } = img;
  const n = w * h;
  const out = Uint8Array.from(data);
  const y = luma(img);
  const sigma = 3 * Math.max(4, estimateNoise(y, w, h)); // ends may differ by texture, not only noise
  const left = new Uint8Array(n);
  const acc = [0, 0, 0];
  /** steps from (x, y) along (dx, dy) to the first good pixel, −1 if none within reach */
  const firstGood = (x: number, yy: number, dx: number, dy: number) => {
    for (let t = 1; t <= reach; t++) {
      const X = x + t * dx,
        Y = yy + t * dy;
      if (X < 0 || Y < 0 || X >= w || Y >= h) return -1;
      if (!mask[Y * w + X]) return t;
    }
    return -1;
  };
  const goodAt = (X: number, Y: number) => (X < 0 || Y < 0 || X >= w || Y >= h || mask[Y * w + X] ? -1 : Y * w + X);
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      if (!mask[i]) continue;
      let wsum = 0;
      acc[0] = acc[1] = acc[2] = 0;
      for (const [dx, dy] of DIRS) {
        const step = Math.hypot(dx, dy);
        const ta = firstGood(x, yy, dx, dy),
          tb = firstGood(x, yy, -dx, -dy);
        if (ta < 0 || tb < 0) continue;
        const a = (yy + ta * dy) * w + x + ta * dx,
          b = (yy - tb * dy) * w + x - tb * dx;
        const da = ta * step,
          db = tb * step;
        const a2 = goodAt(x + (ta + 1) * dx, yy + (ta + 1) * dy),
          b2 = goodAt(x - (tb + 1) * dx, yy - (tb + 1) * dy);
        // the ends agree in value and, where the next pixels are known, in slope: a texture line
        // crossing the scratch along this direction continues on both sides with the same rise
        let d2 = (y[a]! - y[b]!) ** 2;
        if (a2 >= 0 && b2 >= 0) d2 = 0.5 * (d2 + (y[a2]! - y[a]! - (y[b]! - y[b2]!)) ** 2);
        const span = da + db;
        const wt = Math.exp(-d2 / (4 * sigma * sigma)) / (span * span * span);
        const s = db / span; // position from b (0) to a (1)
        const k = span / step; // one pixel step in units of s
        for (let c = 0; c < 3; c++) {
          const pa = data[a * 3 + c]!,
            pb = data[b * 3 + c]!;
          let v = s * pa + (1 - s) * pb; // linear: the nearer end weighs more
          if (a2 >= 0 && b2 >= 0) {
            // slopes in the direction b → a: from the pixel beyond b to b, from a to the pixel beyond a
            v = hermite(s, pb, (pb - data[b2 * 3 + c]!) * k, pa, (data[a2 * 3 + c]! - pa) * k);
            v = clamp(v, Math.min(pa, pb), Math.max(pa, pb));
          }
          acc[c]! += wt * v;
        }
        wsum += wt;
      }
      if (wsum > 0) {
        for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(clamp(acc[c]! / wsum, 0, 255));
      } else left[i] = 1;
    }
  if (left.some((v) => v)) fillNormalised(out, w, h, mask, left);
  return { w, h, data: out };
}

/** Multi-scale normalised convolution (box means) of the good pixels into the `todo` ones (in place). */
function fillNormalised(data: Uint8Array, w: number, h: number, mask: Uint8Array, todo: Uint8Array): void {
  const n = w * h;
  const good = new Float32Array(n);
  for (let i = 0; i < n; i++) good[i] = mask[i] ? 0 : 1;
  for (const s of [2, 4, 8, 16, 32]) {
    // box means (running sums: O(1) per pixel at any radius, so a 34 MP picture stays cheap)
    const wsum = boxMean(good, w, h, s);
    const ch = [0, 1, 2].map((c) => {
      const p = new Float32Array(n);
      for (let i = 0; i < n; i++) p[i] = good[i] ? data[i * 3 + c]! : 0;
      return boxMean(p, w, h, s);
    });
    const minW = s === 32 ? 1e-6 : 0.25;
    let left = 0;
    for (let i = 0; i < n; i++) {
      if (!todo[i]) continue;
      if (wsum[i]! < minW) {
        left++;
        continue;
      }
      for (let c = 0; c < 3; c++) data[i * 3 + c] = Math.round(clamp(ch[c]![i]! / wsum[i]!, 0, 255));
      todo[i] = 0;
    }
    if (!left) return;
  }
}

/**
 * Detector scale for a picture: 1 up to ~1600 px short side, then 2, 3 (the side distance and
 * the length along the line grow with it).
 */
const detectorScale = (w: number, h: number): number => clamp(Math.round(Math.min(w, h) / 1600 + 0.5), 1, 3);

/** Box average over f×f blocks (the last partial block averages what it has). */
function shrink(img: Rgb, f: number): Rgb {
  const { w, h, data } = img;
  const W = Math.ceil(w / f),
    H = Math.ceil(h / f);
  const acc = new Float32Array(W * H * 3),
    cnt = new Float32Array(W * H);
  for (let y = 0; y < h; y++) {
    const Y = ((y / f) | 0) * W;
    for (let x = 0; x < w; x++) {
      const j = Y + ((x / f) | 0),
        i = (y * w + x) * 3;
      acc[j * 3] += data[i]!;
      acc[j * 3 + 1] += data[i + 1]!;
      acc[j * 3 + 2] += data[i + 2]!;
      cnt[j]!++;
    }
  }
  const out = new Uint8Array(W * H * 3);
  for (let j = 0; j < W * H; j++) for (let c = 0; c < 3; c++) out[j * 3 + c] = Math.round(acc[j * 3 + c]! / cnt[j]!);
  return { w: W, h: H, data: out };
}

/** Where the repair runs its learned part: the job's models folder and threads. */
export interface RepairOptions {
  modelsDir: string;
  threads: number;
  /** overrides the search scale (tests of the large-picture path on small crops) */
  shrinkBy?: number;
}

/**
 * The defect net's log-odds: its own finds are the components of pixels above NET_LOW that hold a
 * pixel above NET_SEED (hysteresis: a faint stretch counts when it continues a sure one); the
 * classical detector's finds are added, except pixels at or below NET_CLEAN (the net is sure they
 * are the photo: a lit edge beside a line candidate, a texture highlight). Chosen on photos neither
 * net was trained on nor the validation set holds (scripts/train/data.py, beside SCRATCH; figures in
 * docs/lab/quality.md).
 */
const NET_LOW = -2,
  NET_SEED = 2,
  NET_CLEAN = -3;
/**
 * A net find at least NET_LINE px long (box side) is a scratch only if it turns by at most MAX_TURN
 * (median over its pixels) between points TURN_BASE px apart along itself: a scratch runs nearly
 * straight (the measuring ones turn by ≤ 0.12 rad over ≥ 100 px: ~1° per 16 px), a tyre's rim light or
 * a collar ring of radius ~50 px turns by ~18°. Chosen on the DEV photos (docs/lab/quality.md).
 */
const NET_LINE = 24,
  TURN_BASE = 16,
  MAX_TURN = (9 * Math.PI) / 180;
/** radius (px) of the neighbourhood whose shape gives a find's local direction */
const SHAPE_R = 5;

/**
 * Median turn of a component: per pixel its local direction (the principal axis of the component's
 * own pixels within ±SHAPE_R px), compared with the direction at the component's pixel nearest to
 * TURN_BASE px ahead and behind along it. `label` marks the component's pixels with `id`; `theta`
 * is scratch space of the picture's size.
 */
function medianTurn(comp: number[], w: number, h: number, label: Int32Array, id: number, theta: Float32Array): number {
  for (const i of comp) label[i] = id;
  const inComp = (X: number, Y: number) => X >= 0 && Y >= 0 && X < w && Y < h && label[Y * w + X] === id;
  for (const i of comp) {
    const x = i % w,
      y = (i / w) | 0;
    let n = 0,
      sx = 0,
      sy = 0,
      sxx = 0,
      syy = 0,
      sxy = 0;
    for (let dy = -SHAPE_R; dy <= SHAPE_R; dy++)
      for (let dx = -SHAPE_R; dx <= SHAPE_R; dx++) {
        if (!inComp(x + dx, y + dy)) continue;
        n++;
        sx += dx;
        sy += dy;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
      }
    const mx = sx / n,
      my = sy / n;
    theta[i] = 0.5 * Math.atan2(2 * (sxy / n - mx * my), sxx / n - mx * mx - (syy / n - my * my));
  }
  const turns: number[] = [];
  for (const i of comp) {
    const x = i % w,
      y = (i / w) | 0,
      t = theta[i]!;
    for (const side of [1, -1]) {
      const X0 = Math.round(x + side * TURN_BASE * Math.cos(t)),
        Y0 = Math.round(y + side * TURN_BASE * Math.sin(t));
      let best = -1,
        bestD = Infinity;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++)
          if (inComp(X0 + dx, Y0 + dy) && dx * dx + dy * dy < bestD) {
            bestD = dx * dx + dy * dy;
            best = (Y0 + dy) * w + X0 + dx;
          }
      if (best < 0) continue;
      const d = Math.abs(theta[best]! - t);
      turns.push(d > Math.PI / 2 ? Math.PI - d : d); // directions, not vectors: θ and θ ± π agree
    }
  }
  if (turns.length < 10) return 0;
  turns.sort((p, q) => p - q);
  return turns[turns.length >> 1]!;
}

/**
 * The defects of a picture at the detector's own scale: what the defect net (scratchNet.ts) finds
 * — it follows a scratch through texture where the bar response fades, takes in a speck's soft rim
 * and finds specks on busy ground that fail the classical ring test — and what the classical
 * detector finds where the net does not call it the photo. The net also takes thin bright curves
 * for scratches (a tyre's rim light, a collar ring): its long finds must run nearly straight.
 */
async function findDefects(img: Rgb, opts: RepairOptions): Promise<Uint8Array> {
  const { w, h } = img;
  const found = detectDefects(img, { scale: 1 });
  const logit = await scratchLogit(img, opts.modelsDir, opts.threads);
  const mask = Uint8Array.from(logit, (v) => (v > NET_LOW ? 1 : 0));
  const label = new Int32Array(w * h).fill(-1),
    theta = new Float32Array(w * h);
  keepComponents(mask, w, h, (comp, length) => {
    if (!comp.some((i) => logit[i]! > NET_SEED)) return false;
    return length < NET_LINE || medianTurn(comp, w, h, label, comp[0]!, theta) <= MAX_TURN;
  });
  for (let i = 0; i < mask.length; i++) if (found[i] && logit[i]! > NET_CLEAN) mask[i] = 1;
  return mask;
}

/**
 * Repairs a picture. Large pictures (detector scale s ≥ 2: short side above ~2400 px, the Pro
 * plan's 14 and 34 MP) are searched on an s×-shrunk copy at scale 1 — the same side distance and
 * line length in full-size pixels, s² fewer pixels — and each flagged pixel marks its s×s block,
 * widened by s px, so the filled band is up to ~3s px wider than the defect; the fill runs at full size.
 */
export async function repairRgb(img: Rgb, opts: RepairOptions): Promise<{ out: Rgb; mask: Uint8Array }> {
  const s = opts.shrinkBy ?? detectorScale(img.w, img.h);
  if (s === 1) {
    const mask = await findDefects(img, opts);
    return { out: inpaint(img, mask), mask };
  }
  const small = shrink(img, s);
  const m = await findDefects(small, opts);
  const { w, h } = img;
  // each flagged pixel marks its s×s block widened by s px: a thin scratch's rim may fall in the
  // neighbouring block of the shrunk copy
  const mask = new Uint8Array(w * h);
  for (let Y = 0; Y < small.h; Y++)
    for (let X = 0; X < small.w; X++) {
      if (!m[Y * small.w + X]) continue;
      const x1 = Math.min(w, (X + 2) * s),
        y1 = Math.min(h, (Y + 2) * s);
      for (let y = Math.max(0, (Y - 1) * s); y < y1; y++) mask.fill(1, y * w + Math.max(0, (X - 1) * s), y * w + x1);
    }
  return { out: inpaint(img, mask, 12 * s), mask };
}

export const repairEngine: Engine<'repair'> = {
  module: 'repair',
  kind: 'neural',
  describe:
    'scratch and dust removal: our own defect net (ONNX U-Net) plus oriented bar detection with hysteresis and a dust ring test, directional inpainting',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      ctx.onProgress(0.1);
      const { out } = await repairRgb(img, ctx);
      ctx.onProgress(1);
      return { image: out };
    }),
};
