/**
 * Float-plane operations shared by the server's engines and the on-device engines in the image worker
 * (src-worker/ondevice): plain functions on typed arrays, no Node or DOM API, so both compute the same
 * masks from the same model output. server/engines/image.ts re-exports them.
 */

/** An 8-bit RGB picture, row-major. */
export interface Rgb {
  w: number;
  h: number;
  data: Uint8Array;
}

/** Mean over a (2r+1)² box, normalised at the borders by the number of pixels inside. */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  if (r <= 0) return src.slice();
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let s = 0;
    let cnt = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++, cnt++) s += src[row + x]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = s / cnt;
      const add = x + r + 1;
      const sub = x - r;
      if (add < w) { s += src[row + add]!; cnt++; }
      if (sub >= 0) { s -= src[row + sub]!; cnt--; }
    }
  }
  for (let x = 0; x < w; x++) {
    let s = 0;
    let cnt = 0;
    for (let y = 0; y <= Math.min(r, h - 1); y++, cnt++) s += tmp[y * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = s / cnt;
      const add = y + r + 1;
      const sub = y - r;
      if (add < h) { s += tmp[add * w + x]!; cnt++; }
      if (sub >= 0) { s -= tmp[sub * w + x]!; cnt--; }
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

/** He et al. guided filter: edge-preserving smoothing of p guided by I. */
export function guidedFilter(I: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = w * h;
  const meanI = boxMean(I, w, h, r);
  const meanP = I === p ? meanI : boxMean(p, w, h, r);
  const ii = new Float32Array(n);
  const ip = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    ii[i] = I[i]! * I[i]!;
    ip[i] = I[i]! * p[i]!;
  }
  const corrI = boxMean(ii, w, h, r);
  const corrIp = I === p ? corrI : boxMean(ip, w, h, r);
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

/** Separable resize of one float plane: area averaging when shrinking, bilinear when growing. */
export function resizePlane(p: Float32Array, w: number, h: number, nw: number, nh: number): Float32Array {
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
