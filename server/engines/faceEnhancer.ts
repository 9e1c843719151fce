/**
 * face_enhancer (FaceEnhancerStable): restoration, not smoothing. BlazeFace finds the
 * faces, FaceMesh their 468 landmarks. Per face, a square crop around the head is
 *  1. enlarged ×2 by the enlarge engine (our super-resolution net, with its noise suppression and
 *     blur removal at their defaults), so eyes, lashes, hair and skin texture are drawn at twice the
 *     resolution (small heads only: up to ENLARGE_UP_TO px a side),
 *  2. cleaned by the denoise engine (our denoising net) at a light setting (JPEG blocks and noise go,
 *     pores stay),
 *  3. reduced back to the crop's size and sharpened there by sharpen_auto (our deblur net; its whole
 *     change is kept, see restoreCrop),
 *  4. blended into the picture with a soft, feathered mask:
 *     the face oval from the FaceMesh landmarks at full weight, the head around it (hair, ears)
 *     at part weight, fading to nothing before the crop's edge.
 * The engines are called through their own engine functions, so their nets (and any newer ones)
 * are what restores the face. Nothing outside the masks changes, no feature is darkened or
 * outlined, and no skin is smoothed beyond what the denoiser removes as noise. With no face the
 * whole picture goes through the same steps.
 */
import type { EngineContext, EngineImage } from './types.js';
import { decodeRgb, encode, gaussianBlur, psnr, resizeRgb, type Rgb } from './image.js';
import { pixelEngine } from './pixelEngine.js';
import { facesWithMeshes, type Face, type FaceMesh } from './faces.js';
import { enlargeEngine } from './enlarge.js';
import { denoiseEngine } from './denoise.js';
import { sharpenAutoEngine } from './sharpenAuto.js';
import { defaultParams } from '../../src/shared/domain/modules.js';

/** FaceMesh's face-oval landmarks in order around the face (forehead, temple, jaw, chin and back). */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
] as const;

/** Crop side as a multiple of the face box's larger side: the head with its hair. */
const CROP = 2;
/** Weight of the restoration on the head around the face oval (hair, ears, neck). */
const HEAD_WEIGHT = 0.8;
/**
 * The denoiser's remove_noise on the enlarged crop: light, so skin keeps its pores. Measured on the
 * synthetic low-quality astronaut (scripts/quality/face-enhance.ts): denoising first at 30 / 60 / 100
 * before the enlarge gave less face detail at ½ size (+0.6 %, −17 %, +18 %) than this order at 35 (+20 %;
 * +30 % with the nets of commit 21645b5).
 */
const FACE_DENOISE = 35;
/**
 * The same on a soft face restored at 1/k (restoreCrop): there the enlarge net also redraws the grain and dust
 * of an old print, so a little more goes (35 → 60 kept the face detail, 32.9 → 31.5 on Adele's crop, and
 * calmed the skin).
 */
const SOFT_FACE_DENOISE = 60;

/** Even-odd fill of a closed polygon (image pixels) into a rw×rh mask whose top-left is (x0, y0); pixel centres decide. */
export function fillPolygon(
  mask: Float32Array,
  rw: number,
  rh: number,
  x0: number,
  y0: number,
  poly: [number, number][],
): void {
  const xs: number[] = [];
  for (let r = 0; r < rh; r++) {
    const py = y0 + r + 0.5;
    xs.length = 0;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [ax, ay] = poly[i]!,
        [bx, by] = poly[j]!;
      if (ay > py !== by > py) xs.push(ax + ((py - ay) / (by - ay)) * (bx - ax));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const c0 = Math.max(0, Math.ceil(xs[k]! - x0 - 0.5)),
        c1 = Math.min(rw - 1, Math.floor(xs[k + 1]! - x0 - 0.5));
      for (let c = c0; c <= c1; c++) mask[r * rw + c] = 1;
    }
  }
}

export interface FaceCrop {
  x0: number;
  y0: number;
  w: number;
  h: number;
}

/** The square crop around a face (clipped to the picture). */
export function faceCrop(f: Face, w: number, h: number): FaceCrop {
  const side = Math.round(Math.max(f.w, f.h) * CROP);
  const cx = f.x + f.w / 2,
    cy = f.y + f.h * 0.45;
  const x0 = Math.max(0, Math.round(cx - side / 2)),
    y0 = Math.max(0, Math.round(cy - side / 2));
  return { x0, y0, w: Math.min(w, x0 + side) - x0, h: Math.min(h, y0 + side) - y0 };
}

/**
 * The blend mask of one face on its crop, 0..1: the face oval (FaceMesh, or an ellipse from the
 * BlazeFace box) at 1, a head ellipse around it at HEAD_WEIGHT, feathered; 0 at the crop's border.
 */
export function faceMask(f: Face, mesh: FaceMesh | undefined, c: FaceCrop): Float32Array {
  const n = c.w * c.h;
  const size = Math.max(f.w, f.h);
  const oval = new Float32Array(n);
  if (mesh)
    fillPolygon(
      oval,
      c.w,
      c.h,
      c.x0,
      c.y0,
      FACE_OVAL.map((i) => mesh.points[i]!),
    );
  else {
    const cx = f.x + f.w / 2,
      cy = f.y + f.h * 0.45;
    for (let r = 0; r < c.h; r++)
      for (let q = 0; q < c.w; q++)
        if (Math.hypot((c.x0 + q + 0.5 - cx) / (f.w * 0.55), (c.y0 + r + 0.5 - cy) / (f.h * 0.7)) < 1)
          oval[r * c.w + q] = 1;
  }
  const head = new Float32Array(n);
  const hx = f.x + f.w / 2,
    hy = f.y + f.h * 0.35;
  for (let r = 0; r < c.h; r++)
    for (let q = 0; q < c.w; q++)
      if (Math.hypot((c.x0 + q + 0.5 - hx) / (size * 0.72), (c.y0 + r + 0.5 - hy) / (size * 0.85)) < 1)
        head[r * c.w + q] = HEAD_WEIGHT;
  const m = new Float32Array(n);
  for (let i = 0; i < n; i++) m[i] = Math.max(oval[i]!, head[i]!);
  const soft = gaussianBlur(m, c.w, c.h, Math.max(1, size * 0.06));
  // whatever the blur spread to the crop's border fades out before it (the crop is the effect's limit)
  const edge = Math.max(2, size * 0.08);
  for (let r = 0; r < c.h; r++)
    for (let q = 0; q < c.w; q++) {
      const d = Math.min(q, r, c.w - 1 - q, c.h - 1 - r);
      soft[r * c.w + q] = soft[r * c.w + q]! * Math.min(1, d / edge);
    }
  return soft;
}

function cropOf(img: Rgb, c: FaceCrop): Rgb {
  const data = new Uint8Array(c.w * c.h * 3);
  for (let r = 0; r < c.h; r++)
    data.set(img.data.subarray(((c.y0 + r) * img.w + c.x0) * 3, ((c.y0 + r) * img.w + c.x0 + c.w) * 3), r * c.w * 3);
  return { w: c.w, h: c.h, data };
}

const asInput = async (img: Rgb): Promise<EngineImage> => ({
  data: await encode(img, 'png'),
  width: img.w,
  height: img.h,
  format: 'png',
});

/**
 * Crop side (px) up to which the crop is enlarged ×2 before it is cleaned and sharpened. A larger
 * head already has its detail in the picture; enlarging it would only cost time (a 2048² portrait's
 * 1000-px head took 39 s with the ×2 pass), so it is cleaned and sharpened at its own size.
 */
const ENLARGE_UP_TO = 400;

/**
 * How soft a crop is, as the factor it loses nothing at: the crop reduced by k and enlarged back (Lanczos) still
 * matches it to SOFT_AT[k] dB, so its finest octaves hold no detail (only blur, and grain the reduction
 * averages away). Measured on head crops (PSNR of that round trip at k = 2 / 3): blurred real faces
 * (GFPGAN's test crops) 41.2 / 40.6, 37.2 / 36.7, 41.5 / 41.0; sharp or merely compressed ones (the
 * astronaut, the cameraman, a halftone print, GFPGAN's whole photos) 24.3 to 35.8 / 23.8 to 34.6.
 */
const SOFT_AT: Readonly<Record<2 | 3, number>> = { 3: 36, 2: 34 };

async function missingOctaves(crop: Rgb): Promise<1 | 2 | 3> {
  if (Math.min(crop.w, crop.h) < 48) return 1;
  const roundTrip = async (k: number) => {
    const small = await resizeRgb(crop, Math.round(crop.w / k), Math.round(crop.h / k), 'lanczos3');
    return psnr((await resizeRgb(small, crop.w, crop.h, 'lanczos3')).data, crop.data);
  };
  if ((await roundTrip(3)) >= SOFT_AT[3]) return 3;
  return (await roundTrip(2)) >= SOFT_AT[2] ? 2 : 1;
}

/**
 * The crop restored by the enlarge (×2, small heads) → denoise → sharpen_auto engines, back at its own
 * size. sharpen_auto's whole change is kept (it was half while its net was the earlier one, which drew
 * the JPEG block grid of a ⅓-size face: detail 3548 against the clean picture's 2466). With the deblur
 * net that landed (pixmill-deblur-v1), scripts/quality/face-enhance.ts, half → whole:
 *  - real low-quality faces (GFPGAN's test inputs, not in the repository): face-oval detail on the
 *    blurred crops Adele +42 % → +101 %, Julia Roberts +32 % → +84 %, Justin Timberlake +20 % → +49 %;
 *    eye luma change −0.3 to +0.14 levels (no dark outline), border halo ≤ 0.04 levels;
 *  - synthetic (astronaut ½ and ⅓, JPEG q30): detail ½ 1521 → 1695 (clean 1601), ⅓ 2039 → 2221 (clean
 *    2466: the block grid is not drawn), face PSNR against the clean picture ½ 27.91 → 27.65, ⅓ 27.25
 *    → 27.10 (input 28.13 / 27.33), halo ½ 1.14 → 1.17, ⅓ 1.09 → 1.12.
 * Half looked soft beside the input on the real faces; whole is visibly crisper without a halo.
 * sharpen_auto runs after the reduction, at the picture's own scale: run on the ×2 crop, half of what it
 * restored was averaged away again by the reduction. On a degraded half-size astronaut (blur σ 1.2,
 * noise σ 6, JPEG q35; 50-px face) the mean change in the face oval went 0.81 → 2.28 levels, its detail
 * 169 → 243 (clean 1599), PSNR against the clean face 24.62 → 25.23 dB (24.83 before); the cameraman
 * (64-px face) 0.37 → 1.26 levels, 30.33 → 31.10 dB. Still a modest change on such faces.
 * A head soft all over (missingOctaves) is restored at 1/3 or 1/2 of its size instead: on GFPGAN's blurred
 * real crops (not in the repository) face-oval detail Adele 10.8 → 31.5 (21.8 before), Julia Roberts
 * 14.1 → 33.3 (25.6), Justin Timberlake 5.5 → 16.6 (8.1), eyes ×3.4 / ×2.8 / ×2.7; eye luma change
 * −0.4 to −0.2, border halo ≤ 0.09 levels. At 1:1 eyes, lashes, teeth and hair strands are visibly crisper;
 * the grain and dust of an old print come out crisper too. 1/4 (x4 from a quarter) drew worm-like
 * lines on the skin and was not kept.
 */
async function restoreCrop(crop: Rgb, ctx: EngineContext): Promise<Rgb> {
  const sub: EngineContext = { ...ctx, output: 'png', onProgress: () => {} };
  const k = await missingOctaves(crop);
  const enlarge = async (img: Rgb, scale: 2 | 4) =>
    enlargeEngine.run(await asInput(img), { ...defaultParams('enlarge'), scale }, sub);
  // A head soft all over (an old print, a blurred or upscaled photo) is restored at 1/k of its size, where its
  // blur is about the one-pixel softness our nets undo, and enlarged back (×2, or ×4 and reduced below)
  const up =
    k > 1
      ? await enlarge(
          await resizeRgb(crop, Math.max(8, Math.round(crop.w / k)), Math.max(8, Math.round(crop.h / k)), 'lanczos3'),
          k === 2 ? 2 : 4,
        )
      : Math.max(crop.w, crop.h) <= ENLARGE_UP_TO
        ? await enlarge(crop, 2)
        : await asInput(crop);
  const removeNoise = k > 1 ? SOFT_FACE_DENOISE : FACE_DENOISE;
  const cleanUp = await decodeRgb(
    (await denoiseEngine.run(up, { ...defaultParams('denoise'), remove_noise: removeNoise, sharpen: 0 }, sub)).data,
  );
  const clean =
    cleanUp.w === crop.w && cleanUp.h === crop.h ? cleanUp : await resizeRgb(cleanUp, crop.w, crop.h, 'lanczos3');
  return decodeRgb((await sharpenAutoEngine.run(await asInput(clean), defaultParams('sharpen_auto'), sub)).data);
}

/**
 * Restores each face in place of a copy of `img`; `meshes[i]` is face i's FaceMesh or undefined (an
 * ellipse stands in). A picture with no face is restored whole by the same engines (the feature is
 * also the site's "image enhancer"), so it never comes back unchanged.
 */
export async function enhanceFaces(
  img: Rgb,
  faces: Face[],
  meshes: (FaceMesh | undefined)[],
  ctx: EngineContext,
): Promise<Rgb> {
  if (!faces.length) return restoreCrop(img, ctx);
  const out = new Uint8Array(img.data);
  for (const [k, f] of faces.entries()) {
    const c = faceCrop(f, img.w, img.h);
    if (c.w < 8 || c.h < 8) continue;
    const crop = cropOf(img, c);
    const restored = await restoreCrop(crop, ctx);
    const m = faceMask(f, meshes[k], c);
    for (let r = 0; r < c.h; r++)
      for (let q = 0; q < c.w; q++) {
        const a = m[r * c.w + q]!;
        if (a <= 0) continue;
        const i = ((c.y0 + r) * img.w + c.x0 + q) * 3,
          j = (r * c.w + q) * 3;
        // blend onto what is in the picture now (faces may share a crop's corner)
        for (let ch = 0; ch < 3; ch++)
          out[i + ch] = Math.round(out[i + ch]! + a * (restored.data[j + ch]! - out[i + ch]!));
      }
    ctx.onProgress(0.3 + (0.65 * (k + 1)) / faces.length);
  }
  return { w: img.w, h: img.h, data: out };
}

/** The engine's work on pixels: the faces and their landmarks found, then each restored (enhanceFaces). */
async function enhancePicture(img: Rgb, ctx: EngineContext): Promise<Rgb> {
  ctx.onProgress(0.05);
  const { faces, meshes } = await facesWithMeshes(img, ctx.modelsDir, ctx.threads);
  ctx.onProgress(0.3);
  return enhanceFaces(img, faces, meshes, ctx);
}

export const faceEnhancerEngine = pixelEngine(
  'face_enhancer',
  'neural',
  'BlazeFace faces + FaceMesh landmarks; each head crop restored at ×2 by the enlarge net, the denoise net (light) and sharpen_auto, reduced back and blended with a feathered face-oval + head mask; the rest of the picture unchanged; with no face the whole picture restored the same way',
  async (img, _params, ctx) => ({ image: await enhancePicture(img, ctx) }),
);
