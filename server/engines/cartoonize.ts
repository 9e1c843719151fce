/**
 * cartoonize (CartoonizeStable): the look of a drawn cartoon, after the classical anchors.
 *  1. Abstraction (Winnemöller, Olsen, Gooch 2006): iterated separable bilateral filtering of
 *     Y/Cb/Cr with a joint range weight (range σ follows the measured noise), then soft luminance
 *     quantisation — tanh steps that are crisp where the gradient is strong and soft in smooth
 *     shading, so a sky keeps its gradient instead of banding. Chroma is saturated a little.
 *  2. Lines (Kang, Lee, Chui 2007, flow-based DoG): smoothed structure tensor → edge tangent flow;
 *     a 1-D difference of Gaussians across the flow, averaged along the flow's streamlines; a soft
 *     threshold on its dark side gives long, smooth strokes that thicken where the edge is strong
 *     and taper where it fades. Ink is gated by the gradient's significance against the measured
 *     noise (no strokes in sky or walls), and components with little solid ink are dropped.
 *  3. Faces (BlazeFace + FaceMesh): the skin inside the face is smoothed further (flat skin), loose
 *     DoG ink inside it is damped, and clean strokes are drawn along the FaceMesh contours of eyes,
 *     brows, mouth and jaw.
 * Runs at a working size of at most 1200 px on the long side, the result resampled to the input size.
 */
import { pixelEngine } from './pixelEngine.js';
import { facesWithMeshes, MESH_FEATURES, type Face, type FaceMesh } from './faces.js';
import { estimateNoise, fromPlanes, resizePlane, rgbToYcc, toPlanes, yccToRgb, type Rgb } from './image.js';
import {
  bilateralPass,
  dropShortStrokes,
  edgeTangentFlow,
  flowDoG,
  softQuantize,
  strokePolyline,
  type Box,
} from './toon.js';

/** Longest side of the working copy (px). */
const CARTOON_WORK_SIDE = 1200;
/** Structure-tensor coherence below which no ink is drawn (texture), and above which ink is full. */
const COH_LO = 0.25,
  COH_HI = 0.55;
/** FaceMesh face-oval indices from the right cheek down round the chin to the left cheek (the jaw). */
const JAW = [132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361] as const;

const smoothstep = (x: number, a: number, b: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

function percentile(p: Float32Array, q: number): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < p.length; i++) hist[Math.max(0, Math.min(255, Math.round(p[i]!)))]!++;
  let s = 0;
  for (let i = 0; i < 256; i++) if ((s += hist[i]!) >= q * p.length) return i;
  return 255;
}

export interface CartoonResult {
  image: Rgb;
  /** ink coverage 0..1 at the output size (for the quality measures) */
  ink: Float32Array;
}

export function cartoon(img: Rgb, faces: Face[] = [], meshes: (FaceMesh | undefined)[] = []): CartoonResult {
  const side = Math.max(img.w, img.h);
  const k = Math.min(1, CARTOON_WORK_SIDE / side);
  const w = Math.max(8, Math.round(img.w * k)),
    h = Math.max(8, Math.round(img.h * k));
  const n = w * h;
  let planes = toPlanes(img);
  if (k < 1) planes = planes.map((p) => resizePlane(p, img.w, img.h, w, h));
  const ycc = rgbToYcc(planes) as [Float32Array, Float32Array, Float32Array];
  const u = Math.max(w, h) / 600; // one unit of scale: 1 at 600 px
  const sigmaN = estimateNoise(ycc[0], w, h);

  // 1. abstraction: two bilateral iterations before the lines, two more after
  const sigmaD = Math.max(1.5, 2 * u),
    sigmaR = Math.max(10, 2.5 * sigmaN);
  bilateralPass(ycc, w, h, sigmaD, sigmaR);
  bilateralPass(ycc, w, h, sigmaD, sigmaR);
  // faces: flatter skin (two more passes with a wider range inside each face box)
  const faceBoxes: Box[] = faces.map((f) => ({
    x0: Math.max(0, Math.floor(f.x * k)),
    y0: Math.max(0, Math.floor((f.y - 0.1 * f.h) * k)),
    x1: Math.min(w, Math.ceil((f.x + f.w) * k)),
    y1: Math.min(h, Math.ceil((f.y + f.h * 1.05) * k)),
  }));
  for (const b of faceBoxes)
    if (b.x1 - b.x0 > 4 && b.y1 - b.y0 > 4)
      for (let i = 0; i < 3; i++) bilateralPass(ycc, w, h, sigmaD, sigmaR * 1.6, b);
  const flow = edgeTangentFlow(ycc[0], w, h, Math.max(1, 0.8 * u), Math.max(2, 3 * u));

  // 2. lines: flow DoG on the abstracted luma, soft threshold, gated by significance
  const sigmaC = Math.max(0.9, 0.9 * u);
  const H = flowDoG(ycc[0], w, h, flow, sigmaC, Math.max(3, 4 * u));
  const T0 = Math.max(1.1, 0.1 * sigmaN);
  const g0 = Math.max(1.2, 0.25 * sigmaN) / Math.max(1, u);
  const ink = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const e = -H[i]!;
    if (e <= T0) continue;
    ink[i] =
      smoothstep(e, T0, 2.6 * T0) * smoothstep(flow.mag[i]!, g0, 2.5 * g0) * smoothstep(flow.coh[i]!, COH_LO, COH_HI);
  }
  // faces: loose skin ink damped inside the face ellipse
  for (const f of faces) {
    const cx = (f.x + f.w / 2) * k,
      cy = (f.y + f.h * 0.5) * k,
      rx = f.w * 0.42 * k,
      ry = f.h * 0.5 * k;
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(h, cy + ry); y++)
      for (let x = Math.max(0, Math.floor(cx - rx)); x < Math.min(w, cx + rx); x++) {
        const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
        if (d < 1) ink[y * w + x]! *= 0.3 + 0.7 * smoothstep(d, 0.75, 1);
      }
  }
  dropShortStrokes(ink, w, h, Math.round(Math.max(16, 30 * u * sigmaC)));
  // FaceMesh contours as clean strokes
  for (const m of meshes) {
    if (!m) continue;
    const pts = (idx: readonly number[]) => idx.map((j) => [m.points[j]![0] * k, m.points[j]![1] * k] as const);
    const [ax, ay] = m.points[234]!,
      [bx, by] = m.points[454]!;
    const faceW = Math.hypot(bx - ax, by - ay) * k;
    const lw = Math.max(1.2, faceW / 70);
    strokePolyline(ink, w, h, pts(MESH_FEATURES.rightEye), lw, true);
    strokePolyline(ink, w, h, pts(MESH_FEATURES.leftEye), lw, true);
    // brows: one thick stroke along the middle of each brow's outline
    for (const brow of [MESH_FEATURES.rightBrow, MESH_FEATURES.leftBrow]) {
      const mid = [
        [1, 11],
        [2, 10],
        [3, 9],
        [4, 8],
        [5, 7],
      ].map(([a, b]) => {
        const p = m.points[brow[a!]!]!,
          q = m.points[brow[b!]!]!;
        return [((p[0] + q[0]) / 2) * k, ((p[1] + q[1]) / 2) * k] as const;
      });
      strokePolyline(ink, w, h, mid, lw * 2, false);
    }
    strokePolyline(ink, w, h, pts(MESH_FEATURES.mouthInner.slice(0, 11)), lw, false);
    strokePolyline(ink, w, h, pts(JAW), lw * 1.2, false);
  }

  // the rest of the abstraction, then soft quantisation
  bilateralPass(ycc, w, h, sigmaD, sigmaR);
  bilateralPass(ycc, w, h, sigmaD, sigmaR);
  const lo = percentile(ycc[0], 0.01),
    hi = Math.max(lo + 40, percentile(ycc[0], 0.99));
  const Y = softQuantize(ycc[0], flow.mag, lo, hi, 7, 1.5, 7, 6 / Math.max(1, u));
  const cb = ycc[1],
    cr = ycc[2];
  for (let i = 0; i < n; i++) {
    const a = ink[i]!;
    Y[i] = (Y[i]! + 4) * (1 - a) + 22 * a;
    cb[i] = cb[i]! * 1.18 * (1 - 0.85 * a);
    cr[i] = cr[i]! * 1.18 * (1 - 0.85 * a);
  }
  let out: Float32Array[] = [Y, cb, cr];
  let inkOut: Float32Array = ink;
  if (k < 1) {
    out = out.map((p) => resizePlane(p, w, h, img.w, img.h));
    inkOut = resizePlane(ink, w, h, img.w, img.h);
  }
  return { image: fromPlanes(yccToRgb(out), img.w, img.h), ink: inkOut };
}

/** The cartoon picture alone. */
const cartoonRgb = (img: Rgb, faces: Face[] = [], meshes: (FaceMesh | undefined)[] = []): Rgb =>
  cartoon(img, faces, meshes).image;

/** Faces and their FaceMesh landmarks (undefined where FaceMesh is not sure, or for a face under 24 px: too small to draw). */
export const cartoonFaces = (img: Rgb, modelsDir: string, threads: number) =>
  facesWithMeshes(img, modelsDir, threads, 24);

export const cartoonizeEngine = pixelEngine(
  'cartoonize',
  'classical',
  'cartoon: iterated bilateral abstraction with soft luminance quantisation, flow-based DoG lines gated by significance, FaceMesh strokes and flat skin on faces',
  async (img, _params, ctx) => {
    ctx.onProgress(0.1);
    const { faces, meshes } = await cartoonFaces(img, ctx.modelsDir, ctx.threads);
    ctx.onProgress(0.2);
    return { image: cartoonRgb(img, faces, meshes) };
  },
);
