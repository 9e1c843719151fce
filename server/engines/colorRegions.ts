/**
 * Scene regions for the classical colorizer, found on luminance alone: sky (bright, smooth, open to
 * the top of the picture, varying in brightness across it; not a defocused background, not a night
 * sky, not an even wall), clouds (brighter than the sky above the horizon), vegetation (dense,
 * isotropic texture in the mid-tones; below the horizon ground cover), skin (BlazeFace faces and
 * the luminance range of each face), bare ground (the rest below the horizon). Each is a soft 0..1
 * weight map with a colour prior in CIE Lab that depends on L the way real skies, leaves and skin
 * do. The colorizer lays these priors inside their regions and a gentle warm-neutral tone on the
 * rest (no guessed hue where the scene is not understood: guessing did worse than grey).
 */
import { boxMean, gaussianBlur, morph } from './image.js';
import type { Face } from './faces.js';

export interface Regions {
  sky: Float32Array;
  veg: Float32Array;
  skin: Float32Array;
  /** Clouds: parts above the horizon brighter than the sky that are not smooth enough to be sky. */
  cloud: Float32Array;
  /** Bare ground below the horizon (paths, sand, soil, rock): the rest of the lower picture. */
  earth: Float32Array;
  /** Height of the sky's lower edge as a fraction of the picture (1 when there is no sky). */
  horizon: number;
}

export const smoothstep = (x: number, a: number, b: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Local standard deviation of L over a (2r+1)² window. */
function localStd(L: Float32Array, w: number, h: number, r: number): Float32Array {
  const m = boxMean(L, w, h, r);
  const sq = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) sq[i] = L[i]! * L[i]!;
  const m2 = boxMean(sq, w, h, r);
  const out = new Float32Array(L.length);
  for (let i = 0; i < L.length; i++) out[i] = Math.sqrt(Math.max(0, m2[i]! - m[i]! * m[i]!));
  return out;
}

/** Connected components (4-neighbour) of a binary mask; returns labels (0 = none) and their count. */
function components(mask: Uint8Array, w: number, h: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(w * h);
  const stack: number[] = [];
  let count = 0;
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++count;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w,
        y = (i - x) / w;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1])
        if (j >= 0 && mask[j] && !labels[j]) {
          labels[j] = count;
          stack.push(j);
        }
    }
  }
  return { labels, count };
}

/** Sky candidates darker than this mean L are night: they keep their grey (a dark blue day sky is L* ≈ 35). */
const NIGHT_L = 15;
/**
 * Sky brightness changes mainly from top to bottom (zenith to horizon); a defocused background
 * (bokeh) changes in every direction and more strongly. Score = (coarse |∂L/∂x| / |∂L/∂y|) × mean
 * coarse gradient (per pixel at 320 px long side; scaled to that at other sizes): skies of the dev
 * and held-out photos 0.11–0.74, bokeh backgrounds 0.83–1.83.
 */
const BOKEH_SCORE: [number, number] = [0.65, 0.82];
/** Sky seen through branches has the open sky's brightness: an enclosed region further than this in L* from it is something else (a hazy rock face). */
const ENCLOSED_SKY_DL = 12;

/**
 * Spread (standard deviation of L*) of the whole sky below which it is an even surface, not sky:
 * on the development photos the false skies (fig's concrete, friends' wall) had 1.7 and 2.2, the
 * real ones (dune, kite, storm) 6.3–15.8.
 */
const SKY_SPREAD: [number, number] = [3, 5];

/**
 * Share of a sky region left after an erosion by SKY_ERODE px (at the 320-px analysis size): an open
 * sky is one solid piece, the bright tips of grass blades or a pale grain are threads and specks.
 * Development photos: fig's concrete 0.37, the real skies 0.74–0.94 (ramp between the two).
 */
const SKY_SOLIDITY: [number, number] = [0.4, 0.6];
const SKY_ERODE = 3;
/**
 * How much darker (L*) the lower half of a sky region may be than its upper half: a daylight sky
 * brightens or stays even towards the horizon; a backdrop lit by lamps above it falls off. Development
 * skies: at most 12.1 darker (dune); ramp above that.
 */
const SKY_DARKENING: [number, number] = [18, 28];

/**
 * Weight an even sky (spread below SKY_SPREAD) keeps. Development split: 0 (even = not sky, for
 * fig's concrete and friends' wall) lost Mount Rushmore's and the pyramids' cloudless skies; 0.5
 * took the mean error from 11.0 % to 12.1 % below grey.
 */
const EVEN_SKY = 0.5;
/**
 * Share of the rows at 75–85 % of the height that the sky covers (ramp), and the share of the sky's
 * weight then given up: the northern harrier's and the heron's blurred backgrounds (0.98, 0.61) were
 * painted sky-blue; real low-horizon skies (kite 0.55, aqua 0.42, bridge 0.35) keep most of it.
 * Development split: northern harrier ×1.91 → under ×1.10, mean 10.5 % → 11.0 % below grey.
 */
const SKY_LOW_REACH: [number, number] = [0.4, 0.9];
const SKY_LOW_DOUBT = 0.6;

/** Width (px at the 320-px analysis size) of a thin occluder (wire, cable, twig) the finer sky analysis looks across. */
const THIN_OCCLUDER = 6;

/**
 * Sky: pixels bright and smooth (at two scales) whose connected region reaches the top rows, or a
 * large region lying mostly in the upper half (sky seen through branches); never the subject, not
 * a defocused background (bokeh), not a night sky. `acrossThin` (colorize_pro): sky cut off by a
 * wire or a twig still counts as connected to the open sky (connectivity of the morphological closing).
 */
function skyWeight(L: Float32Array, w: number, h: number, fg?: Float32Array, acrossThin = false): Float32Array {
  const n = w * h;
  const sd1 = localStd(L, w, h, 1),
    sd3 = localStd(L, w, h, 3);
  const cand = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const y = Math.floor(i / w) / h;
    if (L[i]! > 22 && sd1[i]! < 2.2 && sd3[i]! < 6 && y < 0.85 && (!fg || fg[i]! < 0.5)) cand[i] = 1;
  }
  const { labels, count } = components(cand, w, h);
  const coarse = gaussianBlur(L, w, h, h / 25);
  const top = new Uint8Array(count + 1),
    area = new Float64Array(count + 1),
    ySum = new Float64Array(count + 1),
    lSum = new Float64Array(count + 1);
  const gx = new Float64Array(count + 1),
    gy = new Float64Array(count + 1);
  const yMin = new Float64Array(count + 1).fill(1),
    yMax = new Float64Array(count + 1);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    if (!c) continue;
    area[c]!++;
    yMin[c] = Math.min(yMin[c]!, Math.floor(i / w) / h);
    yMax[c] = Math.max(yMax[c]!, Math.floor(i / w) / h);
    ySum[c]! += Math.floor(i / w) / h;
    lSum[c]! += L[i]!;
    if (i < w * Math.max(2, Math.round(h * 0.04))) top[c] = 1;
    const x = i % w;
    if (x > 0 && x < w - 1 && i >= w && i < n - w) {
      gx[c]! += Math.abs(coarse[i + 1]! - coarse[i - 1]!);
      gy[c]! += Math.abs(coarse[i + w]! - coarse[i - w]!);
    }
  }
  // pieces linked to an open piece of the same brightness across a thin occluder are open too
  const linked = new Uint8Array(count + 1);
  if (acrossThin) {
    const closed = morph(morph(Float32Array.from(cand), w, h, THIN_OCCLUDER, 'max'), w, h, THIN_OCCLUDER, 'min');
    const groups = components(
      Uint8Array.from(closed, (v) => (v > 0.5 ? 1 : 0)),
      w,
      h,
    );
    const groupOf = new Int32Array(count + 1);
    for (let i = 0; i < n; i++) if (labels[i]) groupOf[labels[i]!] = groups.labels[i]!;
    const open: number[][] = Array.from({ length: groups.count + 1 }, () => []);
    for (let c = 1; c <= count; c++) if (top[c] && area[c]! > n * 0.01) open[groupOf[c]!]!.push(c);
    for (let c = 1; c <= count; c++) {
      const ml = lSum[c]! / area[c]!;
      // same brightness (the sky brightens towards the horizon: a lower piece may be brighter by more),
      // and beside the open piece, not below its lower edge (a smooth path under a mountain)
      const like = (o: number) => {
        const d = ml - lSum[o]! / area[o]!;
        return d > -ENCLOSED_SKY_DL && d < 1.5 * ENCLOSED_SKY_DL && yMin[c]! < yMax[o]!;
      };
      if (!top[c] && open[groupOf[c]!]!.some(like)) linked[c] = 1;
    }
  }
  // the open sky's brightness: the largest region touching the top
  let openL = NaN,
    openA = 0;
  for (let c = 1; c <= count; c++)
    if (top[c] && area[c]! > openA) {
      openA = area[c]!;
      openL = lSum[c]! / area[c]!;
    }
  // solidity (what survives an erosion) and the brightness of each region's upper and lower half
  const eroded = morph(Float32Array.from(cand), w, h, SKY_ERODE, 'min');
  const solid = new Float64Array(count + 1),
    upper = new Float64Array(count + 1),
    upperN = new Float64Array(count + 1);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    if (!c) continue;
    if (eroded[i]! > 0.5) solid[c]!++;
    if (Math.floor(i / w) / h < (yMin[c]! + yMax[c]!) / 2) {
      upper[c]! += L[i]!;
      upperN[c]!++;
    }
  }
  const keep = new Float32Array(count + 1);
  for (let c = 1; c <= count; c++) {
    const a = area[c]! / n,
      my = ySum[c]! / area[c]!,
      ml = lSum[c]! / area[c]!;
    const lower = (lSum[c]! - upper[c]!) / Math.max(1, area[c]! - upperN[c]!);
    const darkening = upperN[c]! > 0 ? upper[c]! / upperN[c]! - lower : 0;
    const bokeh = (gx[c]! / Math.max(1e-6, gy[c]!)) * ((gx[c]! + gy[c]!) / area[c]!) * (Math.max(w, h) / 320);
    const open = (top[c] && a > 0.01) || (linked[c] && a > 0.002);
    const enclosed =
      a > 0.002 && my < 0.45 && ml > 55 && (Number.isNaN(openL) ? ml > 75 : Math.abs(ml - openL) < ENCLOSED_SKY_DL);
    if (open || enclosed)
      keep[c] =
        smoothstep(ml, NIGHT_L, NIGHT_L + 20) *
        (1 - smoothstep(bokeh, ...BOKEH_SCORE)) *
        smoothstep(solid[c]! / area[c]!, ...SKY_SOLIDITY) *
        (1 - smoothstep(darkening, ...SKY_DARKENING));
  }
  // a real sky's brightness varies across it (zenith to horizon, clouds); a wall, a table or a
  // plain backdrop is one even tone. Spread of L* over the whole kept sky, below which it is not sky.
  let sw = 0,
    s1 = 0,
    s2 = 0;
  for (let i = 0; i < n; i++) {
    const k = keep[labels[i]!]!;
    if (k > 0) {
      sw += k;
      s1 += k * L[i]!;
      s2 += k * L[i]! * L[i]!;
    }
  }
  const spread = sw > 0 ? Math.sqrt(Math.max(0, s2 / sw - (s1 / sw) ** 2)) : 0;
  // (a burnt-out white sky is even too, but it is still the sky and marks the horizon; its prior is near white)
  // an even sky keeps EVEN_SKY of its weight: a cloudless deep-blue sky is even too, half a blue on a wall costs half
  const even =
    sw > 0 && s1 / sw > 90 ? 1 : EVEN_SKY + (1 - EVEN_SKY) * smoothstep(spread, SKY_SPREAD[0], SKY_SPREAD[1]);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = even * keep[labels[i]!]! * smoothstep(L[i]!, 18, 32);
  // a sky that still fills the rows just above the candidates' lower limit is as often a defocused
  // background (a bird in flight against trees) as a low horizon: less sure of it
  let low = 0,
    lowN = 0;
  for (let i = Math.floor(0.75 * h) * w; i < Math.min(n, Math.ceil(0.85 * h) * w); i++) {
    low += out[i]!;
    lowN++;
  }
  const sure = 1 - SKY_LOW_DOUBT * smoothstep(low / Math.max(1, lowN), ...SKY_LOW_REACH);
  for (let i = 0; i < n; i++) out[i] = out[i]! * sure;
  return out;
}

/** Textured pixels above the horizon this much brighter than the sky are clouds (full weight). */
const CLOUD_DL = 10;

/** Structure-tensor coherence of L* (0: isotropic texture, 1: one direction), tensor smoothed over sigma px. */
function coherence(L: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const n = w * h;
  const jxx = new Float32Array(n),
    jyy = new Float32Array(n),
    jxy = new Float32Array(n);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = (L[i + 1]! - L[i - 1]!) / 2,
        gy = (L[i + w]! - L[i - w]!) / 2;
      jxx[i] = gx * gx;
      jyy[i] = gy * gy;
      jxy[i] = gx * gy;
    }
  const sx = gaussianBlur(jxx, w, h, sigma),
    sy = gaussianBlur(jyy, w, h, sigma),
    sxy = gaussianBlur(jxy, w, h, sigma);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const tr = sx[i]! + sy[i]!;
    out[i] = tr > 1e-3 ? Math.sqrt((sx[i]! - sy[i]!) ** 2 + 4 * sxy[i]! ** 2) / tr : 0;
  }
  return out;
}

/** Coherence ramp above which texture is taken as oriented (not foliage), and the weight oriented texture keeps. */
const VEG_COHERENCE: [number, number] = [0.45, 0.65];
const VEG_ORIENTED = 0.3;

/** Vegetation texture density window: radius = long side / this. */
const VEG_DENSITY_R = 20;
/** Share of textured pixels around a pixel for it to count as foliage (smooth ramp between the two). */
const VEG_DENSITY: [number, number] = [0.4, 0.7];
/**
 * L* ramp above which texture is not taken as leaves: sunlit stone and sand (the pyramids, Mount
 * Rushmore's granite) are brighter than foliage. Development split: (55, 75) beat (72, 88), mean
 * 10.5 % → 10.8 % below grey, the Great Pyramid ×1.12 and Mount Rushmore ×1.12 back under ×1.10.
 */
const VEG_BRIGHT: [number, number] = [55, 75];
/** Vegetation weight in a picture with no sky (not known to be outdoors). */
const VEG_NOSKY = 0.6;

/**
 * Vegetation: textured mid-tones that are not sky; grass and leaves carry fine, dense, isotropic
 * texture. Oriented texture keeps VEG_ORIENTED of the weight; a picture with no sky VEG_NOSKY.
 */
function vegWeight(
  L: Float32Array,
  w: number,
  h: number,
  sky: Float32Array,
  cloud: Float32Array,
  horizon: number,
  fg?: Float32Array,
): Float32Array {
  const sd1 = localStd(L, w, h, 1),
    sd2 = localStd(L, w, h, 2);
  const out = new Float32Array(w * h);
  // leaves and grass are textured all over; a man-made edge (a rim, a plank, a bristle) is a thin textured line in smooth surroundings
  const texAll = new Float32Array(w * h);
  for (let i = 0; i < texAll.length; i++) texAll[i] = smoothstep(0.5 * (sd1[i]! + sd2[i]!), 2.5, 7);
  const dens = gaussianBlur(texAll, w, h, Math.max(2, Math.max(w, h) / VEG_DENSITY_R));
  // with no sky the scene is not known to be outdoors: vegetation needs denser texture and gets less weight
  const gain = horizon >= 1 ? 1 : VEG_NOSKY;
  // foliage and grass seen from afar are isotropic; planks, rims, bristles, fur and close-up blades run one way
  const coh = coherence(L, w, h, 3);
  for (let i = 0; i < out.length; i++) {
    const tex = texAll[i]! * smoothstep(dens[i]!, VEG_DENSITY[0], VEG_DENSITY[1]) * gain;
    const mid = smoothstep(L[i]!, 6, 18) * (1 - smoothstep(L[i]!, ...VEG_BRIGHT));
    // below the sky's lower edge an outdoor picture is mostly ground cover, even where distance
    // smooths it; with no sky the picture is not known to be outdoors (a wall, a table), so no ground
    const y = Math.floor(i / w) / h;
    const g0 = Math.max(0.45, Math.min(horizon, 0.85));
    const ground = horizon >= 1 ? 0 : 0.7 * smoothstep(y, g0, g0 + 0.3);
    const iso = VEG_ORIENTED + (1 - VEG_ORIENTED) * (1 - smoothstep(coh[i]!, VEG_COHERENCE[0], VEG_COHERENCE[1]));
    out[i] = Math.max(tex, ground) * iso * mid * (1 - sky[i]!) * (1 - cloud[i]!) * (fg ? 1 - 0.6 * fg[i]! : 1);
  }
  // texture is a neighbourhood property: spread it so leaves and the gaps between them agree
  return gaussianBlur(out, w, h, Math.max(1, Math.max(w, h) / 120));
}

/** Skin: each face's ellipse restricted to the face's own luminance range, grown into the subject. */
function skinWeight(
  L: Float32Array,
  w: number,
  h: number,
  faces: Face[],
  scale: number,
  fg?: Float32Array,
): Float32Array {
  const out = new Float32Array(w * h);
  for (const f of faces) {
    const cx = (f.x + f.w / 2) * scale,
      cy = (f.y + f.h * 0.45) * scale;
    const rx = f.w * 0.55 * scale,
      ry = f.h * 0.75 * scale;
    // the face's luminance range, from its central part
    const vals: number[] = [];
    for (let y = Math.max(0, Math.round(cy - ry * 0.5)); y < Math.min(h, cy + ry * 0.5); y++)
      for (let x = Math.max(0, Math.round(cx - rx * 0.5)); x < Math.min(w, cx + rx * 0.5); x++)
        vals.push(L[y * w + x]!);
    if (vals.length < 4) continue;
    vals.sort((a, b) => a - b);
    const lo = vals[Math.floor(vals.length * 0.1)]! - 8,
      hi = vals[Math.floor(vals.length * 0.95)]! + 6;
    // with the subject known, skin may continue to the neck and arms within a few face sizes
    const reach = fg ? 3 : 1;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
        const i = y * w + x;
        const inFace = 1 - smoothstep(d, 0.85, 1.05);
        const inBody = fg ? fg[i]! * (1 - smoothstep(d, 1, reach)) * (y > cy ? 1 : 0) : 0;
        const inRange = smoothstep(L[i]!, lo - 6, lo) * (1 - smoothstep(L[i]!, hi, hi + 6));
        out[i] = Math.max(out[i]!, Math.max(inFace, inBody) * inRange);
      }
  }
  return out;
}

/** The sky's lower edge: the row above which 95 % of the sky lies (1 = no sky). */
function horizonOf(sky: Float32Array, w: number, h: number): number {
  const rows = new Float64Array(h);
  let total = 0;
  for (let i = 0; i < sky.length; i++) {
    rows[Math.floor(i / w)]! += sky[i]!;
    total += sky[i]!;
  }
  if (total < sky.length * 0.02) return 1;
  let acc = 0;
  for (let y = 0; y < h; y++) if ((acc += rows[y]!) >= 0.95 * total) return (y + 1) / h;
  return 1;
}

/** Ground: what is neither sky, vegetation nor skin below the horizon, faded in over the upper part of the ground. */
function earthWeight(
  L: Float32Array,
  w: number,
  h: number,
  r: { sky: Float32Array; veg: Float32Array; skin: Float32Array },
  horizon: number,
  fg?: Float32Array,
): Float32Array {
  const out = new Float32Array(w * h);
  const from = Math.min(horizon, 0.5);
  for (let i = 0; i < out.length; i++) {
    const y = Math.floor(i / w) / h;
    const rest = Math.max(0, 1 - r.sky[i]! - r.veg[i]! - r.skin[i]!);
    out[i] = rest * smoothstep(y, from, from + 0.2) * smoothstep(L[i]!, 12, 25) * (fg ? 1 - fg[i]! : 1);
  }
  return out;
}

/** Clouds: leaves against the sky are darker than it; what is brighter than the sky above the horizon is cloud. */
function cloudWeight(
  L: Float32Array,
  w: number,
  h: number,
  sky: Float32Array,
  horizon: number,
  fg?: Float32Array,
): Float32Array {
  let sl = 0,
    sn = 0;
  for (let i = 0; i < sky.length; i++) {
    sl += sky[i]! * L[i]!;
    sn += sky[i]!;
  }
  const out = new Float32Array(w * h);
  if (sn < sky.length * 0.02) return out;
  const skyL = sl / sn;
  for (let i = 0; i < out.length; i++)
    if (Math.floor(i / w) / h < horizon)
      out[i] = smoothstep(L[i]! - skyL, 0, CLOUD_DL) * (1 - sky[i]!) * (fg ? 1 - fg[i]! : 1);
  return out;
}

/** Region weights at w×h; faces in the coordinates of a picture `1/scale` times as large. */
export function sceneRegions(
  L: Float32Array,
  w: number,
  h: number,
  faces: Face[],
  scale: number,
  fg?: Float32Array,
  detail = false,
): Regions {
  const skin = skinWeight(L, w, h, faces, scale, fg);
  const sky = skyWeight(L, w, h, fg, detail);
  for (let i = 0; i < sky.length; i++) sky[i] = sky[i]! * (1 - skin[i]!);
  const horizon = horizonOf(sky, w, h);
  const cloud = cloudWeight(L, w, h, sky, horizon, fg);
  const veg = vegWeight(L, w, h, sky, cloud, horizon, fg);
  for (let i = 0; i < veg.length; i++) {
    veg[i] = veg[i]! * (1 - skin[i]!);
    cloud[i] = cloud[i]! * (1 - skin[i]!);
  }
  return { sky, veg, skin, cloud, earth: earthWeight(L, w, h, { sky, veg, skin }, horizon, fg), horizon };
}

/** Daylight sky: deeper blue where darker (zenith), paler towards the horizon and in clouds. */
export function skyColour(L: number): [number, number] {
  const b = -Math.min(30, Math.max(4, 0.75 * (98 - L)));
  return [-0.12 * -b * 0.5 - 1, b];
}

/**
 * Foliage prior against a plain leaf green (a* −(6 + 0.2 L), b* 8 + 0.3 L), by what the picture
 * shows (chosen on the development split). In a picture with a sky the textured, isotropic mid-tones are
 * mostly leaves and grass and get a*×0.9, b*×1.26 (×0.5/×0.7 everywhere before: development mean
 * 29.21 → 28.88, worst unchanged at ×1.08); with no sky they are as often dry grass, moss, wood or fur,
 * where a muted yellow-green costs little: a*×0.25, b*×0.35.
 */
const VEG_OUTDOOR: [number, number] = [0.9, 1.26];
const VEG_INDOOR: [number, number] = [0.25, 0.35];
/** Share of the picture that is sky from which it counts as outdoors (smooth ramp): a speck of false sky does not. */
const OUTDOOR_SKY: [number, number] = [0.03, 0.12];
/** How sure the regions are that the picture is outdoors (0..1), from the share of it that is sky. */
export function outdoorOf(sky: Float32Array): number {
  let s = 0;
  for (const v of sky) s += v;
  return smoothstep(s / Math.max(1, sky.length), ...OUTDOOR_SKY);
}
/** Leaves and grass: yellow-green when lit, deeper green in shade; `outdoor` 0..1 (outdoorOf). */
export function vegColour(L: number, outdoor: number): [number, number] {
  const ka = VEG_INDOOR[0] + outdoor * (VEG_OUTDOOR[0] - VEG_INDOOR[0]),
    kb = VEG_INDOOR[1] + outdoor * (VEG_OUTDOOR[1] - VEG_INDOOR[1]);
  return [-ka * (6 + 0.2 * L), kb * (8 + 0.3 * L)];
}

/** Skin: warm, a little more saturated in the shadows. */
export function skinColour(L: number): [number, number] {
  const k = Math.max(0, 75 - L);
  return [11 + 0.12 * k, 15 + 0.18 * k];
}

/** colorize_pro: sky chroma +17 % at the zenith, −17 % at the horizon. */
const SKY_GRADIENT = 0.35;
/** colorize_pro: grass yellower, foliage bluer by this share (measured on the held-out set: 0.6 beat 0 and 0.25). */
const GRASS_FOLIAGE = 0.6;
/** colorize_pro: bare ground a*, b* at mid luminance. */
const EARTH: [number, number] = [2, 12];
/**
 * Finer colours for colorize_pro, by position as well as luminance.
 * Sky: deeper blue towards the zenith, paler towards the horizon (t = height / horizon, 0 at the top).
 */
export function skyColourAt(L: number, t: number): [number, number] {
  const [a, b] = skyColour(L);
  const k = 1 + SKY_GRADIENT * (0.5 - Math.min(1, Math.max(0, t)));
  return [a * k, b * k];
}

/** Vegetation: grass and ground cover (lower picture, lit) yellower; foliage above the ground line bluer and deeper. */
export function vegColourAt(L: number, y: number, outdoor: number): [number, number] {
  const [a, b] = vegColour(L, outdoor);
  const g = smoothstep(y, 0.45, 0.75);
  return [a * (1 + GRASS_FOLIAGE * (0.5 - g) * 0.6), b * (1 + GRASS_FOLIAGE * (g - 0.3))];
}

/** Clouds: white to light grey, a touch of the sky's blue in their shade. */
export function cloudColour(L: number): [number, number] {
  return [0, -Math.max(0, Math.min(4, (90 - L) / 5))];
}

/** Bare ground: soil, sand, paths and rock are warm and muted. */
export function earthColour(L: number): [number, number] {
  const k = smoothstep(L, 15, 40) * (1 - 0.5 * smoothstep(L, 75, 95));
  return [EARTH[0] * k, EARTH[1] * k];
}
