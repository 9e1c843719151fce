/**
 * Building blocks of the cartoon look (cartoonize.ts), after the classical anchors:
 *  - `bilateralPass`: separable bilateral filter on Y/Cb/Cr planes with a joint range weight
 *    (Winnemöller, Olsen, Gooch 2006, "Real-time video abstraction"), optionally limited to a box;
 *  - `softQuantize`: their soft luminance quantisation, sharper steps where the gradient is high;
 *  - `edgeTangentFlow`: smoothed structure tensor → edge tangent field and gradient strength;
 *  - `flowDoG`: Kang, Lee, Chui 2007 "Coherent line drawing": a 1-D difference of Gaussians across
 *    the flow, integrated along the flow's streamlines, so lines follow edges and stay long;
 *  - `dropShortStrokes`: connected ink components with too little solid ink are removed;
 *  - `strokePolyline`: anti-aliased polyline drawing (face features from FaceMesh).
 * Everything works on Float32Array planes (0..255), row-major; no per-pixel allocation.
 */
import { gaussianBlur } from './image.js';

/** Range weights exp(−d²/2σ²) tabulated on squared distance (0..255² in steps of 4). */
function rangeTable(sigmaR: number): Float32Array {
  const t = new Float32Array(16385);
  for (let i = 0; i < t.length; i++) t[i] = Math.exp(-(i * 4) / (2 * sigmaR * sigmaR));
  return t;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * One separable bilateral iteration (horizontal then vertical) on three planes with a joint range
 * distance, in place. Only pixels inside `box` (default: whole picture) are changed.
 */
export function bilateralPass(
  p: Float32Array[],
  w: number,
  h: number,
  sigmaD: number,
  sigmaR: number,
  box?: Box,
): void {
  const r = Math.max(1, Math.ceil(2 * sigmaD));
  const sk = new Float32Array(2 * r + 1);
  for (let i = -r; i <= r; i++) sk[i + r] = Math.exp(-(i * i) / (2 * sigmaD * sigmaD));
  const rt = rangeTable(sigmaR);
  const b = box ?? { x0: 0, y0: 0, x1: w, y1: h };
  const [A, B, C] = p as [Float32Array, Float32Array, Float32Array];
  const n = Math.max(w, h);
  const la = new Float32Array(n),
    lb = new Float32Array(n),
    lc = new Float32Array(n);
  const oa = new Float32Array(n),
    ob = new Float32Array(n),
    oc = new Float32Array(n);
  const line = (len: number, from: number, to: number) =>
    bilateralLine(la, lb, lc, len, from, to, r, sk, rt, oa, ob, oc);
  // horizontal: each row of the box, reading a copy of the row
  for (let y = b.y0; y < b.y1; y++) {
    const row = y * w;
    la.set(A.subarray(row, row + w));
    lb.set(B.subarray(row, row + w));
    lc.set(C.subarray(row, row + w));
    line(w, b.x0, b.x1);
    A.set(oa.subarray(b.x0, b.x1), row + b.x0);
    B.set(ob.subarray(b.x0, b.x1), row + b.x0);
    C.set(oc.subarray(b.x0, b.x1), row + b.x0);
  }
  // vertical: each column of the box
  for (let x = b.x0; x < b.x1; x++) {
    for (let y = 0; y < h; y++) {
      la[y] = A[y * w + x]!;
      lb[y] = B[y * w + x]!;
      lc[y] = C[y * w + x]!;
    }
    line(h, b.y0, b.y1);
    for (let y = b.y0; y < b.y1; y++) {
      const i = y * w + x;
      A[i] = oa[y]!;
      B[i] = ob[y]!;
      C[i] = oc[y]!;
    }
  }
}

/** The bilateral weights along one line of three planes (copied into la/lb/lc), for positions from…to−1, into oa/ob/oc. */
function bilateralLine(
  la: Float32Array,
  lb: Float32Array,
  lc: Float32Array,
  len: number,
  from: number,
  to: number,
  r: number,
  sk: Float32Array,
  rt: Float32Array,
  oa: Float32Array,
  ob: Float32Array,
  oc: Float32Array,
): void {
  for (let x = from; x < to; x++) {
    const a0 = la[x]!,
      b0 = lb[x]!,
      c0 = lc[x]!;
    let sw = 0,
      sa = 0,
      sb = 0,
      sc = 0;
    const k0 = Math.max(-r, -x),
      k1 = Math.min(r, len - 1 - x);
    for (let k = k0; k <= k1; k++) {
      const j = x + k;
      const da = la[j]! - a0,
        db = lb[j]! - b0,
        dc = lc[j]! - c0;
      const d = (da * da + db * db + dc * dc) >> 2;
      const wt = sk[k + r]! * (d < 16385 ? rt[d]! : 0);
      sw += wt;
      sa += wt * la[j]!;
      sb += wt * lb[j]!;
      sc += wt * lc[j]!;
    }
    oa[x] = sa / sw;
    ob[x] = sb / sw;
    oc[x] = sc / sw;
  }
}

export interface Flow {
  /** unit edge tangent */
  tx: Float32Array;
  ty: Float32Array;
  /** gradient strength √λ₁ of the smoothed structure tensor (levels per pixel) */
  mag: Float32Array;
  /** coherence ((λ₁ − λ₂) / (λ₁ + λ₂))²: 1 along a clean edge, ≈ 0 in isotropic texture (gravel, foliage) */
  coh: Float32Array;
}

/** Edge tangent flow from the structure tensor of `y` (pre-smoothed by sigmaPre), tensor smoothed by sigmaT. */
export function edgeTangentFlow(y: Float32Array, w: number, h: number, sigmaPre: number, sigmaT: number): Flow {
  const n = w * h;
  const s = gaussianBlur(y, w, h, sigmaPre);
  const E = new Float32Array(n),
    F = new Float32Array(n),
    G = new Float32Array(n);
  for (let yy = 0; yy < h; yy++) {
    const up = (yy > 0 ? yy - 1 : 0) * w,
      dn = (yy < h - 1 ? yy + 1 : h - 1) * w,
      row = yy * w;
    for (let x = 0; x < w; x++) {
      const l = x > 0 ? x - 1 : 0,
        r = x < w - 1 ? x + 1 : w - 1;
      const gx = (s[up + r]! + 2 * s[row + r]! + s[dn + r]! - s[up + l]! - 2 * s[row + l]! - s[dn + l]!) / 8;
      const gy = (s[dn + l]! + 2 * s[dn + x]! + s[dn + r]! - s[up + l]! - 2 * s[up + x]! - s[up + r]!) / 8;
      E[row + x] = gx * gx;
      F[row + x] = gx * gy;
      G[row + x] = gy * gy;
    }
  }
  const e = gaussianBlur(E, w, h, sigmaT),
    f = gaussianBlur(F, w, h, sigmaT),
    g = gaussianBlur(G, w, h, sigmaT);
  const tx = new Float32Array(n),
    ty = new Float32Array(n),
    mag = new Float32Array(n),
    coh = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = e[i]!,
      b = f[i]!,
      c = g[i]!;
    const root = Math.sqrt((a - c) * (a - c) + 4 * b * b);
    const l1 = 0.5 * (a + c + root);
    coh[i] = a + c > 1e-9 ? (root / (a + c)) ** 2 : 0;
    // gradient direction: eigenvector of λ₁; tangent: perpendicular to it
    let vx = b,
      vy = l1 - a;
    let len = Math.hypot(vx, vy);
    if (len < 1e-9) {
      vx = l1 - c;
      vy = b;
      len = Math.hypot(vx, vy);
    }
    if (len < 1e-9) {
      tx[i] = 1;
      ty[i] = 0;
    } else {
      tx[i] = -vy / len;
      ty[i] = vx / len;
    }
    mag[i] = Math.sqrt(Math.max(0, l1));
  }
  return { tx, ty, mag, coh };
}

const bilinear = (p: Float32Array, w: number, h: number, x: number, y: number): number => {
  x = x < 0 ? 0 : x > w - 1 ? w - 1 : x;
  y = y < 0 ? 0 : y > h - 1 ? h - 1 : y;
  const x0 = x | 0,
    y0 = y | 0;
  const x1 = x0 < w - 1 ? x0 + 1 : x0,
    y1 = y0 < h - 1 ? y0 + 1 : y0;
  const fx = x - x0,
    fy = y - y0;
  const a = p[y0 * w + x0]!,
    b = p[y0 * w + x1]!,
    c = p[y1 * w + x0]!,
    d = p[y1 * w + x1]!;
  return a + (b - a) * fx + (c - a) * fy + (a - b - c + d) * fx * fy;
};

/**
 * Flow-based difference of Gaussians. Across the flow (along the gradient) a 1-D DoG
 * G(σc) − G(1.6σc) of `y`; along the flow's streamline a Gaussian (σm) average of that response.
 * Negative values lie on the dark side of an edge; flat areas give ≈ 0 whatever their brightness.
 */
export function flowDoG(
  y: Float32Array,
  w: number,
  h: number,
  flow: Flow,
  sigmaC: number,
  sigmaM: number,
): Float32Array {
  const n = w * h;
  const sigmaS = 1.6 * sigmaC;
  const T = Math.ceil(3 * sigmaS);
  const kd = new Float32Array(2 * T + 1);
  let sc = 0,
    ss = 0;
  for (let t = -T; t <= T; t++) {
    sc += Math.exp(-(t * t) / (2 * sigmaC * sigmaC));
    ss += Math.exp(-(t * t) / (2 * sigmaS * sigmaS));
  }
  for (let t = -T; t <= T; t++)
    kd[t + T] = Math.exp(-(t * t) / (2 * sigmaC * sigmaC)) / sc - Math.exp(-(t * t) / (2 * sigmaS * sigmaS)) / ss;
  const { tx, ty } = flow;
  const D = new Float32Array(n);
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      const gx = ty[i]!,
        gy = -tx[i]!; // gradient direction = tangent turned by 90°
      let s = 0;
      for (let t = -T; t <= T; t++) s += kd[t + T]! * bilinear(y, w, h, x + t * gx, yy + t * gy);
      D[i] = s;
    }
  // integrate along the streamline through each pixel, both ways, unit steps
  const S = Math.ceil(2.5 * sigmaM);
  const km = new Float32Array(S + 1);
  for (let s = 0; s <= S; s++) km[s] = Math.exp(-(s * s) / (2 * sigmaM * sigmaM));
  const H = new Float32Array(n);
  for (let yy = 0; yy < h; yy++)
    for (let x = 0; x < w; x++) {
      const i = yy * w + x;
      let acc = km[0]! * D[i]!,
        wsum = km[0]!;
      for (let dir = -1; dir <= 1; dir += 2) {
        let px = x,
          py = yy,
          vx = dir * tx[i]!,
          vy = dir * ty[i]!;
        for (let s = 1; s <= S; s++) {
          px += vx;
          py += vy;
          if (px < 0 || py < 0 || px > w - 1 || py > h - 1) break;
          const j = Math.round(py) * w + Math.round(px);
          let nx = tx[j]!,
            ny = ty[j]!;
          if (nx * vx + ny * vy < 0) {
            nx = -nx;
            ny = -ny;
          }
          vx = nx;
          vy = ny;
          const k = km[s]!;
          acc += k * bilinear(D, w, h, px, py);
          wsum += k;
        }
      }
      H[i] = acc / wsum;
    }
  return H;
}

/**
 * Removes ink components (8-connected over alpha > 0.05) whose solid part (alpha > 0.5) has fewer
 * than `minSolid` pixels: crumbs and short dashes. In place.
 */
export function dropShortStrokes(alpha: Float32Array, w: number, h: number, minSolid: number): void {
  const n = w * h;
  const label = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const members = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    if (alpha[s]! <= 0.05 || label[s] !== -1) continue;
    let sp = 0,
      m = 0,
      solid = 0;
    stack[sp++] = s;
    label[s] = s;
    while (sp) {
      const i = stack[--sp]!;
      members[m++] = i;
      if (alpha[i]! > 0.5) solid++;
      const x = i % w,
        y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (label[j] === -1 && alpha[j]! > 0.05) {
            label[j] = s;
            stack[sp++] = j;
          }
        }
      }
    }
    if (solid < minSolid) for (let k = 0; k < m; k++) alpha[members[k]!] = 0;
  }
}

/** Draws an anti-aliased polyline of width `width` into `alpha` (max-combined). */
export function strokePolyline(
  alpha: Float32Array,
  w: number,
  h: number,
  pts: readonly (readonly [number, number])[],
  width: number,
  closed: boolean,
): void {
  const half = width / 2;
  const segs = closed ? pts.length : pts.length - 1;
  for (let s = 0; s < segs; s++) {
    const [ax, ay] = pts[s]!,
      [bx, by] = pts[(s + 1) % pts.length]!;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half - 1)),
      x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + half + 1));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half - 1)),
      y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + half + 1));
    const dx = bx - ax,
      dy = by - ay,
      l2 = dx * dx + dy * dy || 1;
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2));
        const d = Math.hypot(x - ax - t * dx, y - ay - t * dy);
        const a = Math.max(0, Math.min(1, half + 0.5 - d));
        const i = y * w + x;
        if (a > alpha[i]!) alpha[i] = a;
      }
  }
}

/**
 * Soft luminance quantisation (Winnemöller et al.): `bins` levels between lo and hi, each pixel
 * pulled to its level through tanh with a sharpness φ that grows with the local gradient, so
 * smooth shading (sky) keeps its gradient and edges get crisp cel steps.
 */
export function softQuantize(
  y: Float32Array,
  mag: Float32Array,
  lo: number,
  hi: number,
  bins: number,
  phiLo: number,
  phiHi: number,
  magRef: number,
): Float32Array {
  const dq = Math.max(8, (hi - lo) / bins);
  const out = new Float32Array(y.length);
  for (let i = 0; i < y.length; i++) {
    const v = y[i]!;
    const q = lo + Math.round((v - lo) / dq) * dq;
    const g = Math.min(1, mag[i]! / magRef);
    const phi = phiLo + (phiHi - phiLo) * g;
    out[i] = q + ((dq / 2) * Math.tanh((phi * (v - q)) / dq)) / Math.tanh(phi / 2);
  }
  return out;
}
