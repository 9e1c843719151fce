/**
 * Background removal on the device: IS-Net "small" (quint8, 44 MB) with the server's pre- and
 * post-processing (server/engines/matting.ts): 1024² Lanczos-3 input (float, libvips-aligned), (v − 128) / 256, mask resized
 * back with the same separable weights, then the shared refinement (src/shared/imaging/isnetMask.ts). The
 * Lanczos-3 resize is this side's own: the server's comes from sharp.
 */
import type { Rgb } from './esrgan.js';
import { session, tensor, type Progress } from './models.js';
import { ISNET_SIZE, isnetInput, maskPlane, refineMask } from '../../src/shared/imaging/isnetMask.js';
import { resizePlane } from '../../src/shared/imaging/planes.js';

const S = ISNET_SIZE;

/** Lanczos-3 weights per output pixel (centres aligned like libvips; edges clamped; normalised). */
function lanczosTaps(n: number, m: number): { i: Int32Array; w: Float32Array; taps: number } {
  const scale = n / m;
  const support = 3 * Math.max(1, scale);
  const taps = Math.ceil(support) * 2 + 1;
  const idx = new Int32Array(m * taps);
  const wts = new Float32Array(m * taps);
  const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
  for (let j = 0; j < m; j++) {
    const c = (j + 0.5) * scale - 0.5;
    const f = Math.max(1, scale);
    const first = Math.floor(c - support) + 1;
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      const x = (first + k - c) / f;
      const v = Math.abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0;
      idx[j * taps + k] = Math.min(n - 1, Math.max(0, first + k));
      wts[j * taps + k] = v;
      sum += v;
    }
    for (let k = 0; k < taps; k++) wts[j * taps + k]! /= sum;
  }
  return { i: idx, w: wts, taps };
}

/** RGB → RGB at nw×nh with Lanczos-3, rounded to 8 bits like sharp's resize output. */
function resizeLanczos3(img: Rgb, nw: number, nh: number): Uint8Array {
  const { w, h, data } = img;
  const cx = lanczosTaps(w, nw);
  const cy = lanczosTaps(h, nh);
  const tmp = new Float32Array(nw * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < nw; x++) {
      let r = 0,
        g = 0,
        b = 0;
      for (let k = 0; k < cx.taps; k++) {
        const wk = cx.w[x * cx.taps + k]!;
        const si = (y * w + cx.i[x * cx.taps + k]!) * 3;
        r += wk * data[si]!;
        g += wk * data[si + 1]!;
        b += wk * data[si + 2]!;
      }
      const o = (y * nw + x) * 3;
      tmp[o] = r;
      tmp[o + 1] = g;
      tmp[o + 2] = b;
    }
  }
  const out = new Uint8Array(nw * nh * 3);
  for (let y = 0; y < nh; y++) {
    for (let x = 0; x < nw; x++) {
      let r = 0,
        g = 0,
        b = 0;
      for (let k = 0; k < cy.taps; k++) {
        const wk = cy.w[y * cy.taps + k]!;
        const si = (cy.i[y * cy.taps + k]! * nw + x) * 3;
        r += wk * tmp[si]!;
        g += wk * tmp[si + 1]!;
        b += wk * tmp[si + 2]!;
      }
      const o = (y * nw + x) * 3;
      out[o] = Math.max(0, Math.min(255, Math.round(r)));
      out[o + 1] = Math.max(0, Math.min(255, Math.round(g)));
      out[o + 2] = Math.max(0, Math.min(255, Math.round(b)));
    }
  }
  return out;
}

/** The refined 0..255 foreground mask at the image's own size. */
export async function foregroundMask(img: Rgb, onProgress: Progress = () => undefined): Promise<Float32Array> {
  const sess = await session('isnet-small', onProgress);
  const small = resizeLanczos3(img, S, S);
  onProgress({ phase: 'run', loaded: 0.1, total: 1 });
  const out = await sess.run({ input: await tensor(isnetInput(small), [1, 3, S, S]) });
  onProgress({ phase: 'run', loaded: 0.8, total: 1 });
  const full = resizePlane(maskPlane(out[sess.outputNames[0]!]!.data as Float32Array), S, S, img.w, img.h);
  return refineMask(img, full);
}
