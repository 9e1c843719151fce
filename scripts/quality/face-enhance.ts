/**
 * face_enhancer on synthetic low-quality faces: a face photo downscaled (×1/2, ×1/3)
 * and saved as JPEG q30, then enhanced. Measured on the face oval (FaceMesh, found on the clean
 * picture): high-frequency energy (mean squared Laplacian of luma) before and after; PSNR against
 * the clean downscaled picture before and after; the change outside the blend mask (must be 0);
 * halo = mean overshoot of the result beyond the local min/max of the clean picture (3×3) in a
 * ring around the mask's feathered border, before and after.
 * Writes bench/results/face-enhance/<name>-{lq,enhanced,clean}.png (1:1 crops of the head).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeRgb, encode, psnr, type Rgb } from '../../server/engines/image.js';
import { facesWithMeshes } from '../../server/engines/faces.js';
import { enhanceFaces, faceCrop, faceMask, fillPolygon, FACE_OVAL } from '../../server/engines/faceEnhancer.js';
import type { EngineContext } from '../../server/engines/types.js';

const r2 = (v: number) => Math.round(v * 100) / 100;
const luma = (d: Uint8Array, i: number) => 0.299 * d[3 * i]! + 0.587 * d[3 * i + 1]! + 0.114 * d[3 * i + 2]!;

function hfIn(img: Rgb, mask: Float32Array): number {
  const { w, h } = img;
  let s = 0,
    n = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (mask[i]! < 0.5) continue;
      const l =
        4 * luma(img.data, i) -
        luma(img.data, i - 1) -
        luma(img.data, i + 1) -
        luma(img.data, i - w) -
        luma(img.data, i + w);
      s += l * l;
      n++;
    }
  return s / Math.max(1, n);
}

function psnrIn(a: Rgb, b: Rgb, mask: Float32Array): number {
  let se = 0,
    n = 0;
  for (let i = 0; i < mask.length; i++)
    if (mask[i]! >= 0.5)
      for (let c = 0; c < 3; c++) {
        se += (a.data[3 * i + c]! - b.data[3 * i + c]!) ** 2;
        n++;
      }
  return 10 * Math.log10((255 * 255) / Math.max(1e-9, se / Math.max(1, n)));
}

/** Mean luma overshoot (beyond the clean picture's 3×3 min/max) where 0.05 < mask < 0.6 (the feathered border). */
function halo(out: Rgb, clean: Rgb, blend: Float32Array): number {
  const { w, h } = out;
  let s = 0,
    n = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!(blend[i]! > 0.05 && blend[i]! < 0.6)) continue;
      let lo = 255,
        hi = 0;
      for (const j of [i - w - 1, i - w, i - w + 1, i - 1, i, i + 1, i + w - 1, i + w, i + w + 1]) {
        const v = luma(clean.data, j);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      const v = luma(out.data, i);
      s += Math.max(0, v - hi, lo - v);
      n++;
    }
  return s / Math.max(1, n);
}

export async function faceEnhanceSection(root: string, ctx: EngineContext) {
  const dir = path.join(root, 'bench', 'results', 'face-enhance');
  mkdirSync(dir, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  const src = await decodeRgb(
    await sharp(readFileSync(path.join(root, 'tests', 'fixtures', 'astronaut.png')))
      .removeAlpha()
      .png()
      .toBuffer(),
  );
  for (const [name, k] of [
    ['astronaut-half', 2],
    ['astronaut-third', 3],
  ] as const) {
    const w = Math.round(src.w / k),
      h = Math.round(src.h / k);
    const clean = await decodeRgb(
      await sharp(await encode(src, 'png'))
        .resize(w, h, { kernel: 'lanczos3' })
        .png()
        .toBuffer(),
    );
    const lq = await decodeRgb(
      await sharp(await encode(clean, 'png'))
        .jpeg({ quality: 30 })
        .toBuffer()
        .then((b) => sharp(b).png().toBuffer()),
    );
    // the faces and landmarks as found on the low-quality picture (what the engine sees)
    const { faces, meshes } = await facesWithMeshes(lq, ctx.modelsDir, ctx.threads);
    if (!faces.length) {
      rows.push({ image: name, faces: 0 });
      continue;
    }
    const t0 = Date.now();
    const out = await enhanceFaces(lq, faces, meshes, ctx);
    const ms = Date.now() - t0;
    const f = faces[0]!,
      mesh = meshes[0];
    const oval = new Float32Array(w * h);
    if (mesh)
      fillPolygon(
        oval,
        w,
        h,
        0,
        0,
        FACE_OVAL.map((i) => mesh.points[i]!),
      );
    const c = faceCrop(f, w, h);
    const cm = faceMask(f, mesh, c);
    const blend = new Float32Array(w * h);
    for (let r = 0; r < c.h; r++) for (let q = 0; q < c.w; q++) blend[(c.y0 + r) * w + c.x0 + q] = cm[r * c.w + q]!;
    let outside = 0;
    for (let i = 0; i < w * h; i++)
      if (blend[i] === 0)
        for (let ch = 0; ch < 3; ch++)
          outside = Math.max(outside, Math.abs(out.data[3 * i + ch]! - lq.data[3 * i + ch]!));
    rows.push({
      image: name,
      size: `${w}x${h}`,
      face_px: Math.round(Math.max(f.w, f.h)),
      mesh: Boolean(mesh),
      ms,
      hf_face: { lq: r2(hfIn(lq, oval)), enhanced: r2(hfIn(out, oval)), clean: r2(hfIn(clean, oval)) },
      psnr_face_vs_clean: { lq: r2(psnrIn(lq, clean, oval)), enhanced: r2(psnrIn(out, clean, oval)) },
      psnr_whole: { lq: r2(psnr(lq.data, clean.data)), enhanced: r2(psnr(out.data, clean.data)) },
      max_change_outside_mask: outside,
      halo_border: { lq: r2(halo(lq, clean, blend)), enhanced: r2(halo(out, clean, blend)) },
    });
    for (const [tag, im] of [
      ['lq', lq],
      ['enhanced', out],
      ['clean', clean],
    ] as const) {
      await sharp(await encode(im, 'png'))
        .extract({ left: c.x0, top: c.y0, width: c.w, height: c.h })
        .png()
        .toFile(path.join(dir, `${name}-${tag}.png`));
    }
  }
  return rows;
}

/** Mean luma in discs of radius r around points. */
function discMean(img: Rgb, pts: [number, number][], r: number): number {
  let s = 0,
    n = 0;
  for (const [px, py] of pts)
    for (let y = Math.max(0, Math.round(py - r)); y <= Math.min(img.h - 1, Math.round(py + r)); y++)
      for (let x = Math.max(0, Math.round(px - r)); x <= Math.min(img.w - 1, Math.round(px + r)); x++)
        if (Math.hypot(x - px, y - py) <= r) {
          s += luma(img.data, y * img.w + x);
          n++;
        }
  return s / Math.max(1, n);
}

/** A disc mask (radius r around points) on the picture. */
function discMask(w: number, h: number, pts: [number, number][], r: number): Float32Array {
  const m = new Float32Array(w * h);
  for (const [px, py] of pts)
    for (let y = Math.max(0, Math.round(py - r)); y <= Math.min(h - 1, Math.round(py + r)); y++)
      for (let x = Math.max(0, Math.round(px - r)); x <= Math.min(w - 1, Math.round(px + r)); x++)
        if (Math.hypot(x - px, y - py) <= r) m[y * w + x] = 1;
  return m;
}

/**
 * face_enhancer on real low-quality faces (old, blurred, compressed photos from a public set used in
 * face-restoration work, e.g. GFPGAN's inputs/whole_imgs and inputs/cropped_faces): looked at and
 * measured here only, never committed or trained on. Per face: detail (mean squared Laplacian of luma)
 * in the face oval and in the eyes before → after; the eyes' mean luma change (negative = darkened,
 * the "dark eye outline" look); halo = mean overshoot of the result beyond the input's 5×5 min/max in
 * the mask's feathered border; the largest change outside the mask. Writes
 * bench/results/face-enhance/real-<photo>-<face>.png: before | after at 1:1, and the eyes ×3 below.
 */
export async function realFacesSection(root: string, ctx: EngineContext, dir: string) {
  const out = path.join(root, 'bench', 'results', 'face-enhance');
  mkdirSync(out, { recursive: true });
  const rows: Record<string, unknown>[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => /\.(png|jpe?g)$/i.test(n))
    .sort()) {
    const img = await decodeRgb(
      await sharp(readFileSync(path.join(dir, f)))
        .rotate()
        .removeAlpha()
        .toColourspace('srgb')
        .png()
        .toBuffer(),
    );
    const { faces, meshes } = await facesWithMeshes(img, ctx.modelsDir, ctx.threads);
    if (!faces.length) {
      rows.push({ image: f, faces: 0 });
      continue;
    }
    const t0 = Date.now();
    const res = await enhanceFaces(img, faces, meshes, ctx);
    const ms = Date.now() - t0;
    const { w, h } = img;
    const blend = new Float32Array(w * h);
    for (const [k, fc] of faces.entries()) {
      const c = faceCrop(fc, w, h);
      const cm = faceMask(fc, meshes[k], c);
      for (let r = 0; r < c.h; r++)
        for (let q = 0; q < c.w; q++)
          blend[(c.y0 + r) * w + c.x0 + q] = Math.max(blend[(c.y0 + r) * w + c.x0 + q]!, cm[r * c.w + q]!);
    }
    let outside = 0;
    for (let i = 0; i < w * h; i++)
      if (blend[i] === 0)
        for (let ch = 0; ch < 3; ch++)
          outside = Math.max(outside, Math.abs(res.data[3 * i + ch]! - img.data[3 * i + ch]!));
    for (const [k, fc] of faces.entries()) {
      const mesh = meshes[k],
        size = Math.max(fc.w, fc.h);
      const oval = new Float32Array(w * h);
      if (mesh)
        fillPolygon(
          oval,
          w,
          h,
          0,
          0,
          FACE_OVAL.map((i) => mesh.points[i]!),
        );
      const eyes = fc.landmarks.slice(0, 2),
        er = size * 0.1;
      const eyeMask = discMask(w, h, eyes, er);
      const c = faceCrop(fc, w, h);
      rows.push({
        image: f,
        face: k,
        size: `${w}x${h}`,
        face_px: Math.round(size),
        mesh: Boolean(mesh),
        ms,
        detail_face: { before: r2(hfIn(img, oval)), after: r2(hfIn(res, oval)) },
        detail_eyes: { before: r2(hfIn(img, eyeMask)), after: r2(hfIn(res, eyeMask)) },
        eye_luma_change: r2(discMean(res, eyes, er) - discMean(img, eyes, er)),
        halo_border: r2(haloAgainst(res, img, blend)),
        max_change_outside_mask: outside,
      });
      // before | after at 1:1, the eyes ×3 (nearest) below
      const crop = async (im: Rgb) =>
        sharp(await encode(im, 'png'))
          .extract({ left: c.x0, top: c.y0, width: c.w, height: c.h })
          .png()
          .toBuffer();
      const ex0 = Math.max(0, Math.round(Math.min(eyes[0]![0], eyes[1]![0]) - er * 1.6)),
        ey0 = Math.max(0, Math.round(Math.min(eyes[0]![1], eyes[1]![1]) - er * 1.2));
      const ew = Math.min(w - ex0, Math.round(Math.abs(eyes[0]![0] - eyes[1]![0]) + er * 3.2)),
        eh = Math.min(h - ey0, Math.round(Math.abs(eyes[0]![1] - eyes[1]![1]) + er * 2.4));
      const zoom = async (im: Rgb) =>
        sharp(await encode(im, 'png'))
          .extract({ left: ex0, top: ey0, width: ew, height: eh })
          .resize(ew * 3, eh * 3, { kernel: 'nearest' })
          .png()
          .toBuffer();
      const W = Math.max(2 * c.w + 8, 2 * ew * 3 + 8),
        H = c.h + 8 + eh * 3;
      await sharp({ create: { width: W, height: H, channels: 3, background: '#202020' } })
        .composite([
          { input: await crop(img), left: 0, top: 0 },
          { input: await crop(res), left: c.w + 8, top: 0 },
          { input: await zoom(img), left: 0, top: c.h + 8 },
          { input: await zoom(res), left: ew * 3 + 8, top: c.h + 8 },
        ])
        .png()
        .toFile(path.join(out, `real-${f.replace(/\.[a-z]+$/i, '')}-${k}.png`));
    }
  }
  return rows;
}

/** Mean luma overshoot of `out` beyond `ref`'s 5×5 min/max where 0.05 < mask < 0.6 (the feathered border). */
function haloAgainst(out: Rgb, ref: Rgb, blend: Float32Array): number {
  const { w, h } = out;
  let s = 0,
    n = 0;
  for (let y = 2; y < h - 2; y++)
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      if (!(blend[i]! > 0.05 && blend[i]! < 0.6)) continue;
      let lo = 255,
        hi = 0;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const v = luma(ref.data, i + dy * w + dx);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      const v = luma(out.data, i);
      s += Math.max(0, v - hi, lo - v);
      n++;
    }
  return s / Math.max(1, n);
}

if (process.argv[1]?.endsWith('face-enhance.ts')) {
  const { ctx } = await import('../../tests/support/engines.js');
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  const c = ctx([], 'png', 2);
  if (process.env.FACES_LQ_DIR) console.log(JSON.stringify(await realFacesSection(root, c, process.env.FACES_LQ_DIR)));
  else console.log(JSON.stringify(await faceEnhanceSection(root, c), null, 1));
}
