/**
 * Float-plane operations and image statistics shared by the server's engines and the on-device engines
 * in the image worker (src-worker/ondevice): plain functions on typed arrays, no Node or DOM API, so both
 * compute the same masks and the same enlarge steps from the same pixels. Planes hold 0..255 floats,
 * row-major, one Float32Array per channel. server/engines/image.ts re-exports them.
 */

/** An 8-bit RGB picture, row-major. */
export interface Rgb {
  w: number;
  h: number;
  /** interleaved RGB, 3 bytes a pixel */
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
      if (add < w) {
        s += src[row + add]!;
        cnt++;
      }
      if (sub >= 0) {
        s -= src[row + sub]!;
        cnt--;
      }
    }
  }
  // vertical pass row by row (a column walk strides the whole plane): one running sum per column,
  // in doubles, added and subtracted in the same order as a column walk would
  const s = new Float64Array(w);
  let cnt = 0;
  for (let y = 0; y <= Math.min(r, h - 1); y++, cnt++) for (let x = 0, row = y * w; x < w; x++) s[x]! += tmp[row + x]!;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) out[row + x] = s[x]! / cnt;
    const add = y + r + 1;
    const sub = y - r;
    if (add < h) {
      for (let x = 0, ar = add * w; x < w; x++) s[x]! += tmp[ar + x]!;
      cnt++;
    }
    if (sub >= 0) {
      for (let x = 0, sr = sub * w; x < w; x++) s[x]! -= tmp[sr + x]!;
      cnt--;
    }
  }
  return out;
}

export function luma(img: Rgb): Float32Array {
  const n = img.w * img.h;
  const y = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3)
    y[i] = 0.299 * img.data[j]! + 0.587 * img.data[j + 1]! + 0.114 * img.data[j + 2]!;
  return y;
}

/** He et al. guided filter: edge-preserving smoothing of p guided by I. */
export function guidedFilter(
  I: Float32Array,
  p: Float32Array,
  w: number,
  h: number,
  r: number,
  eps: number,
): Float32Array {
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
      const a = j * scale,
        b = (j + 1) * scale;
      const i0 = Math.floor(a),
        i1 = Math.min(n, Math.ceil(b));
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

export function toPlanes(img: Rgb): Float32Array[] {
  const n = img.w * img.h;
  const p = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    p[0]![i] = img.data[j]!;
    p[1]![i] = img.data[j + 1]!;
    p[2]![i] = img.data[j + 2]!;
  }
  return p;
}

export function fromPlanes(p: Float32Array[], w: number, h: number): Rgb {
  const n = w * h;
  const data = new Uint8Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    data[j] = clamp255(p[0]![i]!);
    data[j + 1] = clamp255(p[1]![i]!);
    data[j + 2] = clamp255(p[2]![i]!);
  }
  return { w, h, data };
}

export const clamp255 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

export const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/** BT.601 full-range YCbCr (as JPEG uses); chroma centred on 0. */
export function rgbToYcc(p: Float32Array[]): Float32Array[] {
  const n = p[0]!.length;
  const y = new Float32Array(n),
    cb = new Float32Array(n),
    cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = p[0]![i]!,
      g = p[1]![i]!,
      b = p[2]![i]!;
    y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  return [y, cb, cr];
}

export function yccToRgb(p: Float32Array[]): Float32Array[] {
  const n = p[0]!.length;
  const r = new Float32Array(n),
    g = new Float32Array(n),
    b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = p[0]![i]!,
      cb = p[1]![i]!,
      cr = p[2]![i]!;
    r[i] = y + 1.402 * cr;
    g[i] = y - 0.344136 * cb - 0.714136 * cr;
    b[i] = y + 1.772 * cb;
  }
  return [r, g, b];
}

/** Separable Gaussian blur, edges clamped. */
export function gaussianBlur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (sigma <= 0.05) return src.slice();
  const r = Math.max(1, Math.ceil(sigma * 3));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        s += k[i + r]! * src[row + xx]!;
      }
      tmp[row + x] = s;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let i = -r; i <= r; i++) {
      const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
      const kv = k[i + r]!;
      const srow = yy * w;
      const orow = y * w;
      for (let x = 0; x < w; x++) out[orow + x]! += kv * tmp[srow + x]!;
    }
  }
  return out;
}

/** Immerkær's fast noise σ estimate (Laplacian-difference operator), in 0..255 units. */
export function estimateNoise(y: Float32Array, w: number, h: number): number {
  if (w < 3 || h < 3) return 0;
  let s = 0;
  for (let r = 1; r < h - 1; r++) {
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      const v =
        y[i - w - 1]! -
        2 * y[i - w]! +
        y[i - w + 1]! -
        2 * y[i - 1]! +
        4 * y[i]! -
        2 * y[i + 1]! +
        y[i + w - 1]! -
        2 * y[i + w]! +
        y[i + w + 1]!;
      s += Math.abs(v);
    }
  }
  return (s * Math.sqrt(Math.PI / 2)) / (6 * (w - 2) * (h - 2));
}

/**
 * Blur estimate in 0..1 (Crété-Roffet et al. 2007): how much of the gradient energy survives
 * an extra blur. Sharp images lose much (→ 0), already blurred ones little (→ 1).
 */
export function estimateBlur(y: Float32Array, w: number, h: number): number {
  const b = boxMean(y, w, h, 4);
  let dF = 0;
  let dV = 0;
  for (let r = 1; r < h; r++) {
    for (let c = 1; c < w; c++) {
      const i = r * w + c;
      const fv = Math.abs(y[i]! - y[i - w]!) + Math.abs(y[i]! - y[i - 1]!);
      const bv = Math.abs(b[i]! - b[i - w]!) + Math.abs(b[i]! - b[i - 1]!);
      dF += fv;
      dV += Math.max(0, fv - bv);
    }
  }
  return dF === 0 ? 1 : clamp(1 - dV / dF, 0, 1);
}

/** Unsharp mask on one plane: p + amount·(p − blur(p)), detail below `threshold` softly cored. */
export function unsharp(
  p: Float32Array,
  w: number,
  h: number,
  sigma: number,
  amount: number,
  threshold = 0,
): Float32Array {
  const b = gaussianBlur(p, w, h, sigma);
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) {
    let d = p[i]! - b[i]!;
    if (threshold > 0) {
      const a = Math.abs(d);
      d = a <= threshold ? 0 : Math.sign(d) * (a - threshold);
    }
    out[i] = p[i]! + amount * d;
  }
  return out;
}

/**
 * Blur of the in-focus part (0..1, as estimateBlur): the picture is cut into tiles, the tiles with
 * more gradient energy than the median are kept, and the 10th percentile of their blur is
 * returned: the sharpest detailed region sets the focus. A macro shot with a sharp subject on
 * bokeh reads sharper than the global estimate (which reads the bokeh); a picture blurred all
 * over still reads as blurred.
 */
export function estimateFocusBlur(y: Float32Array, w: number, h: number): number {
  const T = Math.max(32, Math.round(Math.min(w, h) / 6));
  if (w < T || h < T) return estimateBlur(y, w, h);
  const tiles: { blur: number; energy: number }[] = [];
  for (let ty = 0; ty + T <= h; ty += T)
    for (let tx = 0; tx + T <= w; tx += T) {
      const p = new Float32Array(T * T);
      let e = 0;
      for (let r = 0; r < T; r++)
        for (let c = 0; c < T; c++) {
          const v = y[(ty + r) * w + tx + c]!;
          p[r * T + c] = v;
          if (c > 0) e += Math.abs(v - p[r * T + c - 1]!);
          if (r > 0) e += Math.abs(v - p[(r - 1) * T + c]!);
        }
      tiles.push({ blur: estimateBlur(p, T, T), energy: e });
    }
  const med = [...tiles].sort((a, b) => a.energy - b.energy)[Math.floor(tiles.length / 2)]!.energy;
  const blurs = tiles
    .filter((t) => t.energy >= med)
    .map((t) => t.blur)
    .sort((a, b) => a - b);
  return blurs[Math.floor(blurs.length / 10)]!;
}
