/** sRGB (D65) ↔ CIE L*a*b* on planes; L in 0..100, a/b roughly −128..127. */
const lin = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  lin[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
const finv = (t: number) => (t > 0.206893 ? t * t * t : (t - 16 / 116) / 7.787);
const gam = (c: number) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055);

export function rgbToLab(rgb: Uint8Array, n: number): [Float32Array, Float32Array, Float32Array] {
  const L = new Float32Array(n),
    A = new Float32Array(n),
    B = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = lin[rgb[i * 3]!]!,
      g = lin[rgb[i * 3 + 1]!]!,
      b = lin[rgb[i * 3 + 2]!]!;
    const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    const fx = f(x),
      fy = f(y),
      fz = f(z);
    L[i] = 116 * fy - 16;
    A[i] = 500 * (fx - fy);
    B[i] = 200 * (fy - fz);
  }
  return [L, A, B];
}

export function labToRgb(L: Float32Array, A: Float32Array, B: Float32Array): Uint8Array {
  const n = L.length;
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const fy = (L[i]! + 16) / 116;
    const x = 0.95047 * finv(fy + A[i]! / 500),
      y = finv(fy),
      z = 1.08883 * finv(fy - B[i]! / 200);
    const r = 3.2406 * x - 1.5372 * y - 0.4986 * z;
    const g = -0.9689 * x + 1.8758 * y + 0.0415 * z;
    const b = 0.0557 * x - 0.204 * y + 1.057 * z;
    out[i * 3] = clamp8(gam(Math.max(0, r)));
    out[i * 3 + 1] = clamp8(gam(Math.max(0, g)));
    out[i * 3 + 2] = clamp8(gam(Math.max(0, b)));
  }
  return out;
}

const clamp8 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
