/**
 * Scene regions for the classical colorizer, found on luminance alone: sky (bright, smooth, open to
 * the top of the picture), vegetation (textured mid-tones), skin (BlazeFace faces and the luminance
 * range of each face, grown into the IS-Net subject when it is known). Each is a soft 0..1 weight
 * map, and each has a colour prior in CIE Lab that depends on L the way real skies, leaves and
 * skin do. The colorizer lays these priors inside their regions and the exemplar transfer on the rest.
 */
import { boxMean, gaussianBlur } from './image.js';
import type { Face } from './faces.js';

export interface Regions {
  sky: Float32Array;
  veg: Float32Array;
  skin: Float32Array;
}

const smoothstep = (x: number, a: number, b: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** Local standard deviation of L over a (2r+1)² window. */
export function localStd(L: Float32Array, w: number, h: number, r: number): Float32Array {
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
      const x = i % w, y = (i - x) / w;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1])
        if (j >= 0 && mask[j] && !labels[j]) { labels[j] = count; stack.push(j); }
    }
  }
  return { labels, count };
}

/**
 * Sky: pixels bright and smooth (at two scales) whose connected region reaches the top rows, or a
 * large region lying mostly in the upper half (sky seen through branches); never the subject.
 */
function skyWeight(L: Float32Array, w: number, h: number, fg?: Float32Array): Float32Array {
  const n = w * h;
  const sd1 = localStd(L, w, h, 1), sd3 = localStd(L, w, h, 3);
  const cand = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const y = Math.floor(i / w) / h;
    if (L[i]! > 22 && sd1[i]! < 2.2 && sd3[i]! < 6 && y < 0.85 && (!fg || fg[i]! < 0.5)) cand[i] = 1;
  }
  const { labels, count } = components(cand, w, h);
  const top = new Uint8Array(count + 1), area = new Float64Array(count + 1), ySum = new Float64Array(count + 1), lSum = new Float64Array(count + 1);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    if (!c) continue;
    area[c]!++;
    ySum[c]! += Math.floor(i / w) / h;
    lSum[c]! += L[i]!;
    if (i < w * Math.max(2, Math.round(h * 0.04))) top[c] = 1;
  }
  const keep = new Float32Array(count + 1);
  for (let c = 1; c <= count; c++) {
    const a = area[c]! / n, my = ySum[c]! / area[c]!, ml = lSum[c]! / area[c]!;
    if ((top[c] && a > 0.01) || (a > 0.002 && my < 0.45 && ml > 55)) keep[c] = smoothstep(ml, 25, 50);
  }
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = keep[labels[i]!]! * smoothstep(L[i]!, 18, 32);
  return out;
}

/** Vegetation: textured mid-tones that are not sky; grass and leaves carry fine texture. */
function vegWeight(L: Float32Array, w: number, h: number, sky: Float32Array, fg?: Float32Array): Float32Array {
  const sd1 = localStd(L, w, h, 1), sd2 = localStd(L, w, h, 2);
  const out = new Float32Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const tex = smoothstep(0.5 * (sd1[i]! + sd2[i]!), 2.5, 7);
    const mid = smoothstep(L[i]!, 6, 18) * (1 - smoothstep(L[i]!, 72, 88));
    // the lower part of an outdoor picture is mostly ground cover, even where distance smooths it
    const y = Math.floor(i / w) / h;
    const ground = 0.7 * smoothstep(y, 0.45, 0.75);
    out[i] = Math.max(tex, ground) * mid * (1 - sky[i]!) * (fg ? 1 - 0.6 * fg[i]! : 1);
  }
  // texture is a neighbourhood property: spread it so leaves and the gaps between them agree
  return gaussianBlur(out, w, h, Math.max(1, Math.max(w, h) / 120));
}

/** Skin: each face's ellipse restricted to the face's own luminance range, grown into the subject. */
function skinWeight(L: Float32Array, w: number, h: number, faces: Face[], scale: number, fg?: Float32Array): Float32Array {
  const out = new Float32Array(w * h);
  for (const f of faces) {
    const cx = (f.x + f.w / 2) * scale, cy = (f.y + f.h * 0.45) * scale;
    const rx = f.w * 0.55 * scale, ry = f.h * 0.75 * scale;
    // the face's luminance range, from its central part
    const vals: number[] = [];
    for (let y = Math.max(0, Math.round(cy - ry * 0.5)); y < Math.min(h, cy + ry * 0.5); y++)
      for (let x = Math.max(0, Math.round(cx - rx * 0.5)); x < Math.min(w, cx + rx * 0.5); x++) vals.push(L[y * w + x]!);
    if (vals.length < 4) continue;
    vals.sort((a, b) => a - b);
    const lo = vals[Math.floor(vals.length * 0.1)]! - 8, hi = vals[Math.floor(vals.length * 0.95)]! + 6;
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

/** Region weights at w×h; faces in the coordinates of a picture `1/scale` times as large. */
export function sceneRegions(L: Float32Array, w: number, h: number, faces: Face[], scale: number, fg?: Float32Array): Regions {
  const skin = skinWeight(L, w, h, faces, scale, fg);
  const sky = skyWeight(L, w, h, fg);
  for (let i = 0; i < sky.length; i++) sky[i] = sky[i]! * (1 - skin[i]!);
  const veg = vegWeight(L, w, h, sky, fg);
  for (let i = 0; i < veg.length; i++) veg[i] = veg[i]! * (1 - skin[i]!);
  return { sky, veg, skin };
}

/** Daylight sky: deeper blue where darker (zenith), paler towards the horizon and in clouds. */
export function skyColour(L: number): [number, number] {
  const b = -Math.min(30, Math.max(4, 0.75 * (98 - L)));
  return [-0.12 * -b * 0.5 - 1, b];
}

/** Leaves and grass: yellow-green when lit, deeper green in shade. */
export function vegColour(L: number): [number, number] {
  // at 75 %: texture alone is also bark, rock and fabric, so the green is hedged (held-out and dev photos)
  return [-(6 + 0.2 * L) * 0.75, (8 + 0.3 * L) * 0.75];
}

/** Skin: warm, a little more saturated in the shadows. */
export function skinColour(L: number): [number, number] {
  const k = Math.max(0, 75 - L);
  return [11 + 0.12 * k, 15 + 0.18 * k];
}
