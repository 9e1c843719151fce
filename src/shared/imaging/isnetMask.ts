/**
 * IS-Net's foreground mask, the parts the server (server/engines/matting.ts) and the device
 * (src-worker/ondevice/matting.ts) share: the model's input from the 1024² picture, and the mask's
 * refinement at the picture's own size. Each side resizes with its own Lanczos-3 and runs its own
 * onnxruntime; from the same pixels both compute the same mask.
 */
import { solidInterior } from './matte.js';
import { guidedFilter, luma, type Rgb } from './planes.js';

/** IS-Net's input and output side, px. */
export const ISNET_SIZE = 1024;

/** The model's input from the ISNET_SIZE² RGB picture: planar floats, (v − 128) / 256 (the normalisation imgly uses for this model). */
export function isnetInput(rgb: Uint8Array): Float32Array {
  const plane = ISNET_SIZE * ISNET_SIZE;
  const x = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) x[c * plane + i] = (rgb[i * 3 + c]! - 128) / 256;
  return x;
}

/** The model's 0..1 output as a 0..255 plane. */
export function maskPlane(out: Float32Array): Float32Array {
  const m255 = new Float32Array(out.length);
  for (let i = 0; i < out.length; i++) m255[i] = out[i]! * 255;
  return m255;
}

/**
 * The mask resized to the picture (0..255), refined: a guided filter steered by the picture's luma
 * moves the uncertain band onto the picture's own edges (confident areas stay as predicted), then the
 * subject's interior is made solid.
 */
export function refineMask(img: Rgb, full: Float32Array): Float32Array {
  const r = Math.max(2, Math.round(Math.max(img.w, img.h) / 500));
  const refined = guidedFilter(luma(img), full, img.w, img.h, r, 60);
  for (let i = 0; i < refined.length; i++) {
    const a = full[i]!;
    refined[i] = a < 8 || a > 247 ? a : refined[i]!;
  }
  return solidInterior(refined, img.w, img.h);
}
