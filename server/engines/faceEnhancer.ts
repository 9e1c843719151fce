/**
 * face_enhancer (FaceEnhancerStable): BlazeFace finds the faces; inside each face box (enlarged
 * 1.4×) a feathered elliptical mask, restricted to skin tones for the smoothing, blends
 * (a) skin smoothing (guided filter on luma, strength from the face size) and (b) detail
 * enhancement (unsharp mask on luma, stronger around the eye/mouth keypoints), plus a slight
 * lift of the face's mid-tones. With no face found, a gentle global version is applied.
 */
import type { Engine } from './types.js';
import { fromPlanes, guidedFilter, rgbToYcc, runOnRgb, toPlanes, unsharp, yccToRgb, type Rgb } from './image.js';
import { detectFaces, type Face } from './faces.js';

export function enhanceFaces(img: Rgb, faces: Face[]): Rgb {
  const { w, h } = img;
  const ycc = rgbToYcc(toPlanes(img));
  const y = ycc[0]!;
  const regions = faces.length ? faces : [{ x: 0, y: 0, w, h, score: 0, landmarks: [] } as Face];
  const global = faces.length === 0;
  for (const f of regions) {
    const cx = f.x + f.w / 2, cy = f.y + f.h / 2;
    const rx = global ? w : (f.w * 1.4) / 2, ry = global ? h : (f.h * 1.5) / 2;
    const x0 = Math.max(0, Math.floor(cx - rx)), x1 = Math.min(w, Math.ceil(cx + rx));
    const y0 = Math.max(0, Math.floor(cy - ry)), y1 = Math.min(h, Math.ceil(cy + ry));
    const rw = x1 - x0, rh = y1 - y0;
    if (rw < 4 || rh < 4) continue;
    const sub = new Float32Array(rw * rh);
    for (let yy = 0; yy < rh; yy++) sub.set(y.subarray((y0 + yy) * w + x0, (y0 + yy) * w + x1), yy * rw);
    const size = Math.min(rw, rh);
    const smooth = guidedFilter(sub, sub, rw, rh, Math.max(2, Math.round(size / 40)), global ? 40 : 120);
    const sharpened = unsharp(sub, rw, rh, Math.max(0.8, size / 300), global ? 0.3 : 0.6, 1);
    const feature = f.landmarks.slice(0, 4); // eyes, nose, mouth
    for (let yy = 0; yy < rh; yy++)
      for (let xx = 0; xx < rw; xx++) {
        const gx = x0 + xx, gy = y0 + yy;
        const i = gy * w + gx;
        const dx = (gx - cx) / rx, dy = (gy - cy) / ry;
        const d = Math.sqrt(dx * dx + dy * dy);
        const m = global ? 1 : Math.max(0, Math.min(1, (1 - d) / 0.3)); // feathered ellipse
        if (m <= 0) continue;
        const cb = ycc[1]![i]!, cr = ycc[2]![i]!;
        const skin = cb > -35 && cb < 5 && cr > 5 && cr < 50 ? 1 : 0.15; // YCbCr skin range
        let near = 0;
        for (const [lx, ly] of feature) near = Math.max(near, 1 - Math.hypot(gx - lx, gy - ly) / (size * 0.18));
        const k = yy * rw + xx;
        const sm = m * skin * (1 - Math.max(0, near)) * 0.8;
        let v = sub[k]! + sm * (smooth[k]! - sub[k]!);
        v += m * (0.5 + 0.5 * Math.max(0, near)) * (sharpened[k]! - sub[k]!);
        v += m * 6 * Math.sin((Math.PI * Math.min(255, Math.max(0, v))) / 255); // mid-tone lift
        y[i] = v;
      }
  }
  return fromPlanes(yccToRgb(ycc), w, h);
}

export const faceEnhancerEngine: Engine<'face_enhancer'> = {
  module: 'face_enhancer',
  kind: 'classical',
  describe: 'BlazeFace detection + feathered per-face skin smoothing (guided filter on skin tones) and detail enhancement',
  run: (input, _params, ctx) =>
    runOnRgb(input, ctx, async (img) => {
      ctx.onProgress(0.1);
      const faces = await detectFaces(img, ctx.modelsDir, ctx.threads);
      ctx.onProgress(0.4);
      return { image: enhanceFaces(img, faces) };
    }),
};
