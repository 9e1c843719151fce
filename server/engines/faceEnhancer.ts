/**
 * face_enhancer (FaceEnhancerStable): BlazeFace finds the faces and their six keypoints (eyes, nose,
 * mouth, ears), FaceMesh their 468 landmarks (eye, brow, lip and mouth-opening contours; when its face
 * flag is low, ellipses around the keypoints stand in). Per face, on a crop around it, in YCbCr:
 *  - a skin mask from the face's own chroma (a Gaussian around the median Cb/Cr of its centre),
 *  - skin smoothing that keeps edges and some pores: a guided filter on luma, then 30 % of the fine
 *    texture put back, only where the mask says skin and away from the features,
 *  - even tone: skin chroma pulled towards its smooth local mean (blotches and redness fade),
 *  - features (eyes and brows, mouth: lips and teeth) get a detail boost and local contrast,
 *  - a little local contrast over the face and a luma lift when the face is under-exposed,
 * blended with a wide feathered ellipse, so no edge of the effect is visible. The whole picture
 * also gets a gentle version (light detail and local contrast); with no face, only that.
 */
import type { Engine } from './types.js';
import { fastBlur, fromPlanes, gaussianBlur, guidedFilter, rgbToYcc, runOnRgb, toPlanes, yccToRgb, type Rgb } from './image.js';
import { detectFaces, faceMesh, MESH_FEATURES, type Face, type FaceMesh } from './faces.js';

const smoothstep = (x: number, a: number, b: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
/** Soft limit of a correction to ±m: big edges are not over-driven (no halos). */
const soft = (d: number, m: number) => m * Math.tanh(d / m);

/** Light detail and local contrast for the whole picture (the "gentle version"). */
function gentle(y: Float32Array, w: number, h: number): void {
  const side = Math.max(w, h);
  const fine = gaussianBlur(y, w, h, Math.max(0.8, side / 900));
  const broad = fastBlur(y, w, h, Math.max(4, side / 40));
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + soft(0.15 * (y[i]! - fine[i]!), 3) + soft(0.08 * (y[i]! - broad[i]!), 4);
}

/** Even-odd fill of a closed polygon (image pixels) into a rw×rh mask whose top-left is (x0, y0); pixel centres decide. */
export function fillPolygon(mask: Float32Array, rw: number, rh: number, x0: number, y0: number, poly: [number, number][]): void {
  const xs: number[] = [];
  for (let r = 0; r < rh; r++) {
    const py = y0 + r + 0.5;
    xs.length = 0;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [ax, ay] = poly[i]!, [bx, by] = poly[j]!;
      if (ay > py !== by > py) xs.push(ax + ((py - ay) / (by - ay)) * (bx - ax));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const c0 = Math.max(0, Math.ceil(xs[k]! - x0 - 0.5)), c1 = Math.min(rw - 1, Math.floor(xs[k + 1]! - x0 - 0.5));
      for (let c = c0; c <= c1; c++) mask[r * rw + c] = 1;
    }
  }
}

/** Feature masks of one face on its crop, from FaceMesh contours: soft, widened a little (lashes, lip line). */
interface FeatureMasks {
  /** eyes and brows, for detail and contrast (and no smoothing) */
  feat: Float32Array;
  /** the lips with the mouth opening (lips get richer) */
  lips: Float32Array;
  /** the mouth opening (teeth get whiter there) */
  inner: Float32Array;
}

function meshMasks(mesh: FaceMesh, rw: number, rh: number, x0: number, y0: number, size: number): FeatureMasks {
  const n = rw * rh;
  const poly = (idx: readonly number[]) => idx.map((i) => mesh.points[i]!);
  const soft2 = (m: Float32Array, sigma: number, gain: number) => {
    const b = gaussianBlur(m, rw, rh, Math.max(0.6, sigma));
    for (let k = 0; k < n; k++) b[k] = Math.min(1, b[k]! * gain);
    return b;
  };
  const eyes = new Float32Array(n), lips = new Float32Array(n), inner = new Float32Array(n);
  for (const f of [MESH_FEATURES.rightEye, MESH_FEATURES.leftEye, MESH_FEATURES.rightBrow, MESH_FEATURES.leftBrow]) fillPolygon(eyes, rw, rh, x0, y0, poly(f));
  fillPolygon(lips, rw, rh, x0, y0, poly(MESH_FEATURES.lipsOuter));
  fillPolygon(inner, rw, rh, x0, y0, poly(MESH_FEATURES.mouthInner));
  // ×2 after the blur widens each mask by about one sigma and keeps a soft edge
  return { feat: soft2(eyes, size * 0.03, 2), lips: soft2(lips, size * 0.02, 2), inner: soft2(inner, size * 0.01, 1.5) };
}

/**
 * Enhances one face: reads luma from `src`, blends its result into `Y` (the gently enhanced picture) and edits chroma in place.
 * With a FaceMesh the eye/brow/lip/teeth masks follow the contours; without, ellipses around BlazeFace's keypoints.
 */
function enhanceOne(src: Float32Array, Y: Float32Array, Cb: Float32Array, Cr: Float32Array, w: number, h: number, f: Face, mesh?: FaceMesh): void {
  const cx = f.x + f.w / 2, cy = f.y + f.h * 0.45;
  const rx = f.w * 0.78, ry = f.h * 0.98; // forehead to chin, cheeks to ears
  const x0 = Math.max(0, Math.floor(cx - rx)), x1 = Math.min(w, Math.ceil(cx + rx));
  const y0 = Math.max(0, Math.floor(cy - ry)), y1 = Math.min(h, Math.ceil(cy + ry));
  const rw = x1 - x0, rh = y1 - y0;
  if (rw < 8 || rh < 8) return;
  const n = rw * rh;
  const y = new Float32Array(n), cb = new Float32Array(n), cr = new Float32Array(n);
  for (let r = 0; r < rh; r++) {
    const s = (y0 + r) * w + x0;
    y.set(src.subarray(s, s + rw), r * rw);
    cb.set(Cb.subarray(s, s + rw), r * rw);
    cr.set(Cr.subarray(s, s + rw), r * rw);
  }
  const size = Math.min(f.w, f.h);
  // skin model from the centre of the face (cheeks, nose), robust to eyes and mouth
  const sCb: number[] = [], sCr: number[] = [], sY: number[] = [];
  for (let r = 0; r < rh; r++)
    for (let c = 0; c < rw; c++) {
      const gx = x0 + c, gy = y0 + r;
      if (Math.hypot((gx - cx) / (f.w * 0.3), (gy - (f.y + f.h * 0.55)) / (f.h * 0.3)) < 1) {
        const k = r * rw + c;
        sCb.push(cb[k]!); sCr.push(cr[k]!); sY.push(y[k]!);
      }
    }
  const mCb = median(sCb), mCr = median(sCr), mY = median(sY);
  // the smoothed face: guided filter keeps edges (eyelids, nostrils, lips) and flattens skin texture
  const rad = Math.max(2, Math.round(size / 28));
  const smooth = guidedFilter(y, y, rw, rh, rad, 90);
  const fine = gaussianBlur(y, rw, rh, Math.max(0.7, size / 160));
  const broad = fastBlur(y, rw, rh, Math.max(3, size / 6));
  const cbS = fastBlur(cb, rw, rh, size / 12), crS = fastBlur(cr, rw, rh, size / 12);
  // under-exposed faces are lifted towards a mid-tone skin level
  const lift = mY < 125 ? Math.min(35, (125 - mY) * 0.6) : 0;
  const [reye, leye, , mouth] = f.landmarks;
  const feats: { p: [number, number]; rx: number; ry: number; dy: number }[] = [];
  if (reye) feats.push({ p: reye, rx: size * 0.2, ry: size * 0.17, dy: -size * 0.05 }); // eye and brow
  if (leye) feats.push({ p: leye, rx: size * 0.2, ry: size * 0.17, dy: -size * 0.05 });
  if (mouth) feats.push({ p: mouth, rx: size * 0.27, ry: size * 0.14, dy: 0 }); // lips and teeth
  const masks = mesh ? meshMasks(mesh, rw, rh, x0, y0, size) : undefined;
  const skinMap = new Float32Array(n);
  for (let k = 0; k < n; k++)
    skinMap[k] = (1 - smoothstep(Math.hypot(cb[k]! - mCb, cr[k]! - mCr), 6, 14)) * smoothstep(y[k]!, mY * 0.35, mY * 0.6);
  // the exposure lift follows the skin (softly), so the background around the head is not lit up
  const skinSoft = fastBlur(skinMap, rw, rh, Math.max(2, size / 15));
  for (let r = 0; r < rh; r++)
    for (let c = 0; c < rw; c++) {
      const gx = x0 + c, gy = y0 + r, k = r * rw + c, i = gy * w + gx;
      const d = Math.hypot((gx - cx) / rx, (gy - cy) / ry);
      const m = 1 - smoothstep(d, 0.6, 1); // wide feather: the effect fades out, never stops
      if (m <= 0) continue;
      let feat = 0;
      if (masks) feat = Math.max(masks.feat[k]!, masks.lips[k]!);
      else for (const ft of feats) feat = Math.max(feat, 1 - smoothstep(Math.hypot((gx - ft.p[0]) / ft.rx, (gy - ft.p[1] - ft.dy) / ft.ry), 0.55, 1));
      const skin = skinMap[k]!;
      const v = y[k]!;
      // 1. skin smoothing, 30 % of the fine texture (pores) back
      const smoothed = smooth[k]! + 0.25 * (v - fine[k]!) * (1 - smoothstep(Math.abs(v - smooth[k]!), 6, 16));
      let out = v + skin * (1 - feat) * 0.9 * (smoothed - v);
      // 2. features: detail and contrast
      out += feat * (soft(1.1 * (v - fine[k]!), 14) + soft(0.45 * (v - broad[k]!), 14));
      // 3. local contrast and exposure over the face
      // (a little glow on the skin even for a well exposed face)
      out += 0.2 * soft(v - broad[k]!, 20) + (lift * (0.2 + 0.8 * Math.min(1, skinSoft[k]! * 1.5)) + 5 * skin) * Math.sin((Math.PI * Math.min(250, Math.max(5, v))) / 255);
      // teeth: bright, low-chroma pixels in the mouth get whiter
      const mouthIn = masks ? masks.inner[k]! : mouth ? 1 - smoothstep(Math.hypot((gx - mouth[0]) / (size * 0.2), (gy - mouth[1]) / (size * 0.09)), 0.6, 1) : 0;
      const teeth = mouthIn * smoothstep(v, mY, mY + 25) * (1 - smoothstep(Math.hypot(cb[k]!, cr[k]!), 8, 20));
      // 4. even tone: skin chroma towards its smooth mean; lips a little richer
      const mouthW = masks ? masks.lips[k]! : mouth ? 1 - smoothstep(Math.hypot((gx - mouth[0]) / (size * 0.25), (gy - mouth[1]) / (size * 0.12)), 0.5, 1) : 0;
      const tone = skin * (1 - feat) * 0.5;
      out += teeth * 6;
      Y[i] = (1 - m) * Y[i]! + m * out;
      Cb[i] = Cb[i]! + m * (tone * (cbS[k]! - cb[k]!) + (mouthW * (1 - teeth) * 0.15 - teeth * 0.5) * cb[k]!);
      Cr[i] = Cr[i]! + m * (tone * (crS[k]! - cr[k]!) + (mouthW * (1 - teeth) * 0.15 - teeth * 0.5) * cr[k]!);
    }
}

/** `meshes[i]` is face i's FaceMesh, or undefined to use its BlazeFace keypoints. */
export function enhanceFaces(img: Rgb, faces: Face[], meshes: (FaceMesh | undefined)[] = []): Rgb {
  const { w, h } = img;
  const [Y, Cb, Cr] = rgbToYcc(toPlanes(img)) as [Float32Array, Float32Array, Float32Array];
  const src = Y.slice();
  gentle(Y, w, h);
  faces.forEach((f, i) => enhanceOne(src, Y, Cb, Cr, w, h, f, meshes[i]));
  return fromPlanes(yccToRgb([Y, Cb, Cr]), w, h);
}

export const faceEnhancerEngine: Engine<'face_enhancer'> = {
  module: 'face_enhancer',
  kind: 'classical',
  describe: 'BlazeFace faces + FaceMesh landmarks (eye/brow/lip/teeth masks; keypoint ellipses when the mesh is unsure): skin-masked edge-aware smoothing, even tone, eye/brow/lip detail and contrast, exposure lift, feathered blend; gentle detail and local contrast elsewhere',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      ctx.onProgress(0.1);
      const faces = await detectFaces(img, ctx.modelsDir, ctx.threads);
      ctx.onProgress(0.3);
      const meshes: (FaceMesh | undefined)[] = [];
      for (const f of faces) meshes.push(await faceMesh(img, f, ctx.modelsDir, ctx.threads));
      ctx.onProgress(0.4);
      return { image: enhanceFaces(img, faces, meshes) };
    }),
};
