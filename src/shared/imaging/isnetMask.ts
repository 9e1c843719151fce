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
 * The mask resized to the picture (0..255), refined: where the net is sure, exactly clear or opaque
 * (decisive); a guided filter steered by the picture's luma moves the uncertain band onto the
 * picture's own edges (the sure areas stay as they are), then the subject's interior is made solid.
 */
export function refineMask(img: Rgb, full: Float32Array, onProgress?: (fraction: number) => void): Float32Array {
  const sure = decisive(full);
  const r = Math.max(2, Math.round(Math.max(img.w, img.h) / 500));
  const refined = guidedFilter(luma(img), sure, img.w, img.h, r, 60);
  // the guided filter is most of the time here (measured on a 5640×3172 photo: 85 %)
  onProgress?.(0.85);
  for (let i = 0; i < refined.length; i++) {
    const a = sure[i]!;
    refined[i] = a <= 0 || a >= 255 ? a : Math.min(255, Math.max(0, refined[i]!));
  }
  const solid = solidInterior(refined, img.w, img.h);
  onProgress?.(1);
  return solid;
}

/**
 * Where IS-Net is sure (its 0..255 output at or below SURE_BACKGROUND, at or above SURE_SUBJECT) α is
 * exactly 0 or 255; between, a linear ramp. Chosen on chelsea, coffee, astronaut, ladybird and two
 * wallpapers (dragonfly, kite): 26/230 left the inside of the dragonfly's twig and body translucent,
 * 51/204 began to cut the cat's out-of-focus ear; 38/217 (0.15 / 0.85) keeps ≥ 97 % of the subject's
 * interior at 255 on all but the dragonfly's see-through wings.
 */
const SURE_BACKGROUND = 38;
const SURE_SUBJECT = 217;

/**
 * The net's mask with its sure parts made exactly clear or opaque. Left as predicted, a subject's
 * interior came out at α 245–254 (see-through on a checkerboard) and the background at 1–10 (a faint
 * ghost of it in the cut-out); the uncertain band, where the true edge lies, keeps its ramp.
 */
function decisive(mask: Float32Array): Float32Array {
  const k = 255 / (SURE_SUBJECT - SURE_BACKGROUND);
  return Float32Array.from(mask, (m) =>
    m <= SURE_BACKGROUND ? 0 : m >= SURE_SUBJECT ? 255 : (m - SURE_BACKGROUND) * k,
  );
}
