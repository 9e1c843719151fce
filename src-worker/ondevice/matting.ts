/**
 * Background removal on the device: IS-Net "small" (quint8, 44 MB) with the server's pre- and
 * post-processing (server/engines/matting.ts): 1024² Lanczos-3 input (float, libvips-aligned), (v − 128) / 256, mask resized
 * back with the same separable weights, guided-filter edge refinement only in the uncertain band.
 * The pure raster helpers are copies of server/engines/image.ts (that module needs sharp).
 */
import type { Rgb } from './esrgan.js';
import { session, tensor, type Progress } from './models.js';
import { boxMean, solidInterior } from '../../src/imaging/matte.js';

const S = 1024;

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
      let r = 0, g = 0, b = 0;
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
      let r = 0, g = 0, b = 0;
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

export function luma(img: Rgb): Float32Array {
  const n = img.w * img.h;
  const y = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) y[i] = 0.299 * img.data[j]! + 0.587 * img.data[j + 1]! + 0.114 * img.data[j + 2]!;
  return y;
}


function guidedFilter(I: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = w * h;
  const meanI = boxMean(I, w, h, r);
  const meanP = boxMean(p, w, h, r);
  const ii = new Float32Array(n);
  const ip = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ii[i] = I[i]! * I[i]!;
    ip[i] = I[i]! * p[i]!;
  }
  const corrI = boxMean(ii, w, h, r);
  const corrIp = boxMean(ip, w, h, r);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const varI = corrI[i]! - meanI[i]! * meanI[i]!;
    const cov = corrIp[i]! - meanI[i]! * meanP[i]!;
    a[i] = cov / (varI + eps);
    b[i] = meanP[i]! - a[i]! * meanI[i]!;
  }
  const ma = boxMean(a, w, h, r);
  const mb = boxMean(b, w, h, r);
  const q = new Float32Array(n);
  for (let i = 0; i < n; i++) q[i] = ma[i]! * I[i]! + mb[i]!;
  return q;
}

function axisWeights(n: number, m: number): [number, Float32Array][] {
  const out: [number, Float32Array][] = [];
  const scale = n / m;
  for (let j = 0; j < m; j++) {
    if (scale > 1) {
      const a = j * scale, b = (j + 1) * scale;
      const i0 = Math.floor(a), i1 = Math.min(n, Math.ceil(b));
      const ws = new Float32Array(i1 - i0);
      for (let i = i0; i < i1; i++) ws[i - i0] = (Math.min(b, i + 1) - Math.max(a, i)) / scale;
      out.push([i0, ws]);
    } else {
      const c = Math.min(n - 1, Math.max(0, (j + 0.5) * scale - 0.5));
      const i0 = Math.min(Math.floor(c), n - 1);
      const t = c - i0;
      out.push(i0 + 1 < n ? [i0, Float32Array.of(1 - t, t)] : [i0, Float32Array.of(1)]);
    }
  }
  return out;
}

function resizePlane(p: Float32Array, w: number, h: number, nw: number, nh: number): Float32Array {
  const tmp = new Float32Array(nw * h);
  const cx = axisWeights(w, nw);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < nw; x++) {
      const [i0, ws] = cx[x]!;
      let s = 0;
      for (let k = 0; k < ws.length; k++) s += ws[k]! * p[row + i0 + k]!;
      tmp[y * nw + x] = s;
    }
  }
  const out = new Float32Array(nw * nh);
  const cy = axisWeights(h, nh);
  for (let y = 0; y < nh; y++) {
    const [i0, ws] = cy[y]!;
    for (let k = 0; k < ws.length; k++) {
      const wk = ws[k]!;
      const srow = (i0 + k) * nw;
      for (let x = 0; x < nw; x++) out[y * nw + x]! += wk * tmp[srow + x]!;
    }
  }
  return out;
}

/** The refined 0..255 foreground mask at the image's own size. */
export async function foregroundMask(img: Rgb, onProgress: Progress = () => undefined): Promise<Float32Array> {
  const sess = await session('isnet-small', onProgress);
  const small = resizeLanczos3(img, S, S);
  const plane = S * S;
  const x = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) x[c * plane + i] = (small[i * 3 + c]! - 128) / 256;
  onProgress({ phase: 'run', loaded: 0.1, total: 1 });
  const out = await sess.run({ input: await tensor(x, [1, 3, S, S]) });
  const m = out[sess.outputNames[0]!]!.data as Float32Array;
  onProgress({ phase: 'run', loaded: 0.8, total: 1 });
  const m255 = new Float32Array(plane);
  for (let i = 0; i < plane; i++) m255[i] = m[i]! * 255;
  const full = resizePlane(m255, S, S, img.w, img.h);
  const r = Math.max(2, Math.round(Math.max(img.w, img.h) / 500));
  const refined = guidedFilter(luma(img), full, img.w, img.h, r, 60);
  for (let i = 0; i < refined.length; i++) {
    const a = full[i]!;
    refined[i] = a < 8 || a > 247 ? a : refined[i]!;
  }
  return solidInterior(refined, img.w, img.h);
}
