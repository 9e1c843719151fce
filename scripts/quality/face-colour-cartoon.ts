/**
 * Quality measures for face_enhancer, colorize and cartoonize (called from scripts/quality.ts):
 *  - colorize: the 40 held-out scene photos (colorize-photos.ts: every second GCompris photo from
 *    gcompris-qt-data; the 79 development photos are measured by colorize-eval.ts with SPLIT=dev)
 *    turned grey and colorized; per photo the mean a*b* error (Euclidean, CIE Lab) of "no colour",
 *    colorize and colorize_pro, the mean reduction and the worst photo's ratio to grey
 *    (colorize-eval.ts).
 *  - face_enhancer: synthetic low-quality faces (face-enhance.ts): face-oval detail, PSNR against
 *    the clean picture, change outside the mask, overshoot at the mask's border.
 *  - cartoonize is measured in cartoon-retouch.ts (ink in flat regions, stroke length on held-out photos).
 * Adds one row to quality-sheet.png (the rows for face_enhancer and cartoonize are already there) and
 * writes bench/results/face-colour-cartoon-sheet.png (input | output for face and cartoon, with 1:1 face crops).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { colorizeRgb } from '../../server/engines/colorize.js';
import { rgbToLab } from '../../server/engines/lab.js';
import { decodeRgb, type Rgb } from '../../server/engines/image.js';
import { facesWithMeshes, type Face } from '../../server/engines/faces.js';
import { enhanceFaces } from '../../server/engines/faceEnhancer.js';
import { colorizeScenes } from './colorize-eval.js';
import { loadScenePhoto, SCENE_PHOTOS } from './colorize-photos.js';
import { faceEnhanceSection, realFacesSection } from './face-enhance.js';
import type { EngineContext } from '../../server/engines/types.js';

/** The colorize measures live with the scene photos (colorize-photos.ts); re-exported for the tests that use them from here. */
import { abError, greyOf as grey } from './colorize-photos.js';
export { abError, grey };

/** Mean hue angle (degrees) and chroma of the pixels that are blue sky in the truth (b* < −8, L* > 45, upper half). */
export function skyHue(out: Rgb, truth: Rgb): { n: number; hue: number; chroma: number } {
  const [Lt, At, Bt] = rgbToLab(truth.data, truth.w * truth.h);
  const [, A, B] = rgbToLab(out.data, out.w * out.h);
  let a = 0,
    b = 0,
    n = 0;
  for (let i = 0; i < A.length; i++)
    if (Bt[i]! < -8 && Lt[i]! > 45 && Math.abs(At[i]!) < 20 && i < A.length / 2) {
      a += A[i]!;
      b += B[i]!;
      n++;
    }
  if (!n) return { n: 0, hue: NaN, chroma: 0 };
  const hue = (Math.atan2(b / n, a / n) * 180) / Math.PI;
  return { n, hue: hue < 0 ? hue + 360 : hue, chroma: Math.hypot(a / n, b / n) };
}

/** Mean absolute RGB change inside the face box, outside the enlarged blend ellipse, and in a ring just outside it. */
export function faceChange(before: Rgb, after: Rgb, f: Face): { inside: number; outside: number; ring: number } {
  const cx = f.x + f.w / 2,
    cy = f.y + f.h / 2;
  let si = 0,
    ni = 0,
    so = 0,
    no = 0,
    sr = 0,
    nr = 0;
  for (let y = 0; y < before.h; y++)
    for (let x = 0; x < before.w; x++) {
      const i = (y * before.w + x) * 3;
      const d =
        (Math.abs(after.data[i]! - before.data[i]!) +
          Math.abs(after.data[i + 1]! - before.data[i + 1]!) +
          Math.abs(after.data[i + 2]! - before.data[i + 2]!)) /
        3;
      const e = Math.hypot((x - cx) / (f.w * 0.8), (y - cy) / (f.h * 0.9));
      if (x >= f.x && x < f.x + f.w && y >= f.y && y < f.y + f.h) {
        si += d;
        ni++;
      } else if (e > 1.6) {
        so += d;
        no++;
      }
      if (e > 1.02 && e < 1.12) {
        sr += d;
        nr++;
      }
    }
  return { inside: si / Math.max(1, ni), outside: so / Math.max(1, no), ring: sr / Math.max(1, nr) };
}

const png = (img: Rgb) =>
  sharp(Buffer.from(img.data), { raw: { width: img.w, height: img.h, channels: 3 } })
    .png()
    .toBuffer();

/** A sheet of rows of equal-height tiles. */
export async function writeRowsSheet(rows: Rgb[][], file: string, cellH = 220) {
  const gap = 6;
  const comps: OverlayOptions[] = [];
  let top = gap,
    W = 0;
  for (const row of rows) {
    let left = gap;
    for (const t of row) {
      const tw = Math.round((t.w * cellH) / t.h);
      comps.push({
        input: await sharp(await png(t))
          .resize(tw, cellH)
          .png()
          .toBuffer(),
        left,
        top,
      });
      left += tw + gap;
    }
    W = Math.max(W, left);
    top += cellH + gap;
  }
  await sharp({ create: { width: W, height: top, channels: 3, background: '#202020' } })
    .composite(comps)
    .png()
    .toFile(file);
}

const crop = (img: Rgb, x0: number, y0: number, w: number, h: number): Rgb => {
  x0 = Math.max(0, Math.min(img.w - w, Math.round(x0)));
  y0 = Math.max(0, Math.min(img.h - h, Math.round(y0)));
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    data.set(img.data.subarray(((y0 + y) * img.w + x0) * 3, ((y0 + y) * img.w + x0 + w) * 3), y * w * 3);
  return { w, h, data };
};

export async function faceColourCartoon(
  root: string,
  ctx: EngineContext,
  results: Record<string, unknown>,
  sheet: { label: string; input: Buffer; output: Buffer }[],
) {
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  const rows: Rgb[][] = [];
  const load = async (f: string) => decodeRgb(await sharp(readFileSync(f)).rotate().removeAlpha().png().toBuffer());

  // colorize on the held-out scene photos (colorize-photos.ts), per photo against leaving it grey
  const scenes = await colorizeScenes(root, ctx, 'heldout', path.join(root, 'bench', 'results', 'colorize-scenes'));
  results.colorize_scenes_heldout = {
    ...scenes.summary,
    per_photo: scenes.rows,
    sheets: 'bench/results/colorize-scenes/<photo>.png: grey | colorize | colorize_pro | truth',
  };
  const bridge = (await loadScenePhoto(
    root,
    SCENE_PHOTOS.find((p) => p.id === 'bridge')!,
    480,
  ))!;
  const bridgeGrey = grey(bridge);
  sheet.push({
    label: 'colorize_pro (development photo, grey in)',
    input: await png(bridgeGrey),
    output: await png((await colorizeRgb(bridgeGrey, 30, true, ctx)).out),
  });

  // ONLY=colorize: the colorize part alone (for tuning)
  if (process.env.ONLY === 'colorize') return;
  // face_enhancer on synthetic low-quality faces (downscaled + JPEG q30), crops in bench/results/face-enhance
  results.face_enhancer_lq = await faceEnhanceSection(root, ctx);
  // and on real low-quality faces, when a folder of them is given (a public face-restoration set,
  // kept outside the repository: looked at and measured, never committed or trained on)
  const realDir = process.env.FACES_LQ_DIR;
  results.face_enhancer_real =
    realDir && existsSync(realDir)
      ? {
          dir: realDir,
          per_face: await realFacesSection(root, ctx, realDir),
          crops: 'bench/results/face-enhance/real-<photo>-<face>.png: before | after at 1:1, eyes ×3 below',
        }
      : 'FACES_LQ_DIR not set: no real low-quality faces measured';
  const astro = await load(path.join(root, 'tests', 'fixtures', 'astronaut.png'));
  const { faces, meshes } = await facesWithMeshes(astro, ctx.modelsDir, ctx.threads);
  const enh = await enhanceFaces(astro, faces, meshes, ctx);
  const f0 = faces[0]!;
  const side = Math.round(Math.max(f0.w, f0.h) * 1.6);
  rows.push([
    astro,
    enh,
    crop(astro, f0.x + f0.w / 2 - side / 2, f0.y + f0.h / 2 - side / 2, side, side),
    crop(enh, f0.x + f0.w / 2 - side / 2, f0.y + f0.h / 2 - side / 2, side, side),
  ]);

  // cartoonize: measured in scripts/quality/cartoon-retouch.ts
  await writeRowsSheet(rows, path.join(root, 'bench', 'results', 'face-colour-cartoon-sheet.png'));
}
