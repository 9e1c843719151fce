/**
 * portrait: pencil-sketch rendering. Grey → inverted → Gaussian-blurred → colour-dodge blend
 * (grey / (1 − blurred inverse)), then a soft S-curve and a touch of DoG line darkening so the
 * strokes read as graphite; shadows are lifted first so dark areas keep strokes. single_face=true
 * first crops to the largest BlazeFace detection (box enlarged 1.8× to take hair and chin, at
 * least half the short side, upscaled to ≥ 512 px); with no face found the whole picture is sketched.
 */
import { pixelEngine } from './pixelEngine.js';
import { gaussianBlur, luma, resizeRgb, type Rgb } from './image.js';
import { detectFaces } from './faces.js';

const DODGE_OFFSET = 24;

function pencilSketch(img: Rgb): Uint8Array {
  const { w, h } = img;
  const g0 = luma(img);
  // Shadow lift before the dodge: dark hair, clothes and shade keep their strokes instead of
  // filling solid black (the dodge divides by a small number there, and the graphite curve below
  // deepens it further). A square-root-like curve only in the shadows; mid-tones and highs as they were.
  const g = new Float32Array(g0.length);
  for (let i = 0; i < g0.length; i++) {
    const v = g0[i]! / 255;
    g[i] = 255 * (v < 0.5 ? 0.5 * Math.pow(2 * v, 0.55) : v);
  }
  const inv = new Float32Array(g.length);
  for (let i = 0; i < g.length; i++) inv[i] = 255 - g[i]!;
  const sigma = Math.max(2, Math.max(w, h) / 160);
  const blur = gaussianBlur(inv, w, h, sigma);
  const fine = gaussianBlur(g, w, h, 0.8);
  const wide = gaussianBlur(g, w, h, 2.2);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < g.length; i++) {
    // colour dodge g / (1 − blurred inverse) = g / blur(g); the offset keeps dark, noisy areas
    // from turning into black speckle (a ratio of two small numbers)
    const dodge = Math.min(255, ((g[i]! + DODGE_OFFSET) * 255) / Math.max(1, 255 - blur[i]! + DODGE_OFFSET));
    const line = Math.max(0, wide[i]! - fine[i]!) * 1.5; // dark side of edges
    let v = dodge - line;
    v = 255 * Math.pow(Math.max(0, Math.min(1, v / 255)), 1.6); // deepen mid-tones like graphite
    // no solid black: the darkest graphite still shows the paper a little, so strokes stay visible
    v = 24 + (v * (255 - 24)) / 255;
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
  }
  return out;
}

/** A face crop is upscaled to at least this side, so the sketch has the strokes of a full picture. */
const FACE_CROP_MIN_SIDE = 512;

async function cropToFace(img: Rgb, modelsDir: string, threads: number): Promise<{ img: Rgb; found: boolean }> {
  const faces = await detectFaces(img, modelsDir, threads);
  if (faces.length === 0) return { img, found: false };
  const f = faces.reduce((a, b) => (b.w * b.h > a.w * a.h ? b : a));
  const cx = f.x + f.w / 2,
    cy = f.y + f.h / 2;
  // 1.8× the face box (hair and chin), but never less than half the picture's short side: a tight
  // 190-px crop of a 512-px portrait read as a thumbnail
  const side = Math.min(Math.max(Math.max(f.w, f.h) * 1.8, Math.min(img.w, img.h) / 2), img.w, img.h);
  const x0 = Math.round(Math.min(Math.max(0, cx - side / 2), img.w - side));
  const y0 = Math.round(Math.min(Math.max(0, cy - side / 2 - f.h * 0.1), img.h - side));
  const s = Math.round(side);
  const data = new Uint8Array(s * s * 3);
  for (let y = 0; y < s; y++)
    data.set(img.data.subarray(((y0 + y) * img.w + x0) * 3, ((y0 + y) * img.w + x0 + s) * 3), y * s * 3);
  const crop = { w: s, h: s, data };
  // upscale small crops (Lanczos) so the output has a sensible size
  return {
    img: s < FACE_CROP_MIN_SIDE ? await resizeRgb(crop, FACE_CROP_MIN_SIDE, FACE_CROP_MIN_SIDE) : crop,
    found: true,
  };
}

export const portraitEngine = pixelEngine(
  'portrait',
  'classical',
  'pencil sketch (invert, blur, colour dodge, DoG lines); single_face crops to the BlazeFace detection',
  async (whole, params, ctx) => {
    ctx.onProgress(0.1);
    const img = params.single_face ? (await cropToFace(whole, ctx.modelsDir, ctx.threads)).img : whole;
    ctx.onProgress(0.4);
    return { image: { w: img.w, h: img.h, channels: 1, data: pencilSketch(img) } };
  },
);
