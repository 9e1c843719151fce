/**
 * portrait: pencil-sketch rendering. Grey → inverted → Gaussian-blurred → colour-dodge blend
 * (grey / (1 − blurred inverse)), then a soft S-curve and a touch of DoG line darkening so the
 * strokes read as graphite. single_face=true first crops to the largest BlazeFace detection
 * (box enlarged 1.8× to take hair and chin); with no face found the whole picture is sketched.
 */
import type { Engine } from './types.js';
import { gaussianBlur, luma, runOnRgb, type Rgb } from './image.js';
import { detectFaces } from './faces.js';

export function pencilSketch(img: Rgb): Uint8Array {
  const { w, h } = img;
  const g = luma(img);
  const inv = new Float32Array(g.length);
  for (let i = 0; i < g.length; i++) inv[i] = 255 - g[i]!;
  const sigma = Math.max(2, Math.max(w, h) / 160);
  const blur = gaussianBlur(inv, w, h, sigma);
  const fine = gaussianBlur(g, w, h, 0.8);
  const wide = gaussianBlur(g, w, h, 2.2);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < g.length; i++) {
    const dodge = Math.min(255, (g[i]! * 255) / Math.max(1, 255 - blur[i]!));
    const line = Math.max(0, wide[i]! - fine[i]!) * 1.5; // dark side of edges
    let v = dodge - line;
    v = 255 * Math.pow(Math.max(0, Math.min(1, v / 255)), 1.6); // deepen mid-tones like graphite
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
  }
  return out;
}

export async function cropToFace(img: Rgb, modelsDir: string, threads: number): Promise<{ img: Rgb; found: boolean }> {
  const faces = await detectFaces(img, modelsDir, threads);
  if (faces.length === 0) return { img, found: false };
  const f = faces.reduce((a, b) => (b.w * b.h > a.w * a.h ? b : a));
  const cx = f.x + f.w / 2, cy = f.y + f.h / 2;
  const side = Math.min(Math.max(f.w, f.h) * 1.8, img.w, img.h);
  const x0 = Math.round(Math.min(Math.max(0, cx - side / 2), img.w - side));
  const y0 = Math.round(Math.min(Math.max(0, cy - side / 2 - f.h * 0.1), img.h - side));
  const s = Math.round(side);
  const data = new Uint8Array(s * s * 3);
  for (let y = 0; y < s; y++) data.set(img.data.subarray(((y0 + y) * img.w + x0) * 3, ((y0 + y) * img.w + x0 + s) * 3), y * s * 3);
  return { img: { w: s, h: s, data }, found: true };
}

export const portraitEngine: Engine<'portrait'> = {
  module: 'portrait',
  kind: 'classical',
  describe: 'pencil sketch (invert, blur, colour dodge, DoG lines); single_face crops to the BlazeFace detection',
  run: (input, params, ctx) =>
    runOnRgb(input, ctx, async (whole) => {
      ctx.onProgress(0.1);
      const img = params.single_face ? (await cropToFace(whole, ctx.modelsDir, ctx.threads)).img : whole;
      ctx.onProgress(0.4);
      return { image: { w: img.w, h: img.h, channels: 1, data: pencilSketch(img) } };
    }),
};
