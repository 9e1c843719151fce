/**
 * Face detection with BlazeFace (back-camera model from @vladmandic/human, converted to ONNX):
 * letterbox to a 256² square, run, decode boxes against the 896 anchors, non-max suppression.
 * Decoding follows human's src/face/blazeface.ts.
 */
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { session } from './models.js';
import { sharpOf, type Rgb } from './image.js';

export interface Face {
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** 6 keypoints (eyes, nose, mouth, ears) in image pixels */
  landmarks: [number, number][];
}

const SIZE = 256;
let anchors: [number, number][] | undefined;
function getAnchors(): [number, number][] {
  if (anchors) return anchors;
  anchors = [];
  for (const [stride, per] of [
    [16, 2],
    [32, 6],
  ] as const) {
    const grid = Math.ceil(SIZE / stride);
    for (let gy = 0; gy < grid; gy++)
      for (let gx = 0; gx < grid; gx++)
        for (let k = 0; k < per; k++) anchors.push([stride * (gx + 0.5), stride * (gy + 0.5)]);
  }
  return anchors;
}

const iou = (a: Face, b: Face) => {
  const x0 = Math.max(a.x, b.x),
    y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w),
    y1 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.w * a.h + b.w * b.h - inter);
};

/** Overlap of a and b as a share of the smaller box (a face cut by a tile's edge lies inside the whole one). */
const containment = (a: Face, b: Face) => {
  const x0 = Math.max(a.x, b.x),
    y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w),
    y1 = Math.min(a.y + a.h, b.y + b.h);
  return (Math.max(0, x1 - x0) * Math.max(0, y1 - y0)) / Math.min(a.w * a.h, b.w * b.h);
};

/** BlazeFace on the rectangle (x0, y0, w, h) of img, letterboxed to SIZE²: candidates in image pixels. */
async function detectIn(
  img: Rgb,
  x0: number,
  y0: number,
  w: number,
  h: number,
  s: ort.InferenceSession,
  minScore: number,
): Promise<Face[]> {
  const side = Math.max(w, h);
  const padX = Math.floor((side - w) / 2),
    padY = Math.floor((side - h) / 2);
  let pipe = sharpOf(img);
  if (w !== img.w || h !== img.h) pipe = pipe.extract({ left: x0, top: y0, width: w, height: h });
  const { data } = await pipe
    .extend({
      left: padX,
      right: side - w - padX,
      top: padY,
      bottom: side - h - padY,
      background: { r: 0, g: 0, b: 0 },
    })
    .resize(SIZE, SIZE, { kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const x = new Float32Array(SIZE * SIZE * 3);
  for (let i = 0; i < x.length; i++) x[i] = data[i]! / 127.5 - 1;
  const out = await s.run({ input: new ort.Tensor('float32', x, [1, SIZE, SIZE, 3]) });
  // 512 anchors (16×16×2) then 384 (8×8×6): logits in Identity/Identity_1, boxes in Identity_2/Identity_3
  const logits = [...(out.Identity!.data as Float32Array), ...(out.Identity_1!.data as Float32Array)];
  const reg = [out.Identity_2!.data as Float32Array, out.Identity_3!.data as Float32Array];
  const anc = getAnchors();
  const k = side / SIZE;
  const ox = x0 - padX,
    oy = y0 - padY;
  const cands: Face[] = [];
  for (let i = 0; i < anc.length; i++) {
    const score = 1 / (1 + Math.exp(-logits[i]!));
    if (score < minScore) continue;
    const r = i < 512 ? reg[0]!.subarray(i * 16, i * 16 + 16) : reg[1]!.subarray((i - 512) * 16, (i - 512) * 16 + 16);
    const [ax, ay] = anc[i]!;
    const cx = r[0]! + ax,
      cy = r[1]! + ay,
      bw = r[2]!,
      bh = r[3]!;
    const landmarks: [number, number][] = [];
    for (let l = 0; l < 6; l++) landmarks.push([(r[4 + 2 * l]! + ax) * k + ox, (r[5 + 2 * l]! + ay) * k + oy]);
    cands.push({ x: (cx - bw / 2) * k + ox, y: (cy - bh / 2) * k + oy, w: bw * k, h: bh * k, score, landmarks });
  }
  return cands;
}

/**
 * Start of each tile along a side of length n (tiles of t px overlapping by a quarter, the last one
 * flush with the end). A face too large to lie whole in the overlap is found at the coarser level.
 */
function tileStarts(n: number, t: number): number[] {
  if (t >= n) return [0];
  const out: number[] = [];
  for (let p = 0; p + t < n; p += Math.round((3 * t) / 4)) out.push(p);
  out.push(n - t);
  return out;
}

/**
 * Faces in the whole picture and, for pictures larger than the model's input, in overlapping tiles
 * of half and a quarter of the picture's long side (not below the model's SIZE): a face of 60 px in
 * a 2-MP group photo is 8 px in the whole picture letterboxed to 256², too small for BlazeFace, but
 * 32 px in a 480-px tile. Two levels keep it to about 20 runs for a 3-MP picture. Non-max
 * suppression over all of them (IoU, or one box lying inside another).
 */
export async function detectFaces(
  img: Rgb,
  modelsDir: string,
  threads: number,
  minScore = 0.75,
  maxFaces = 10,
): Promise<Face[]> {
  const s = await session(modelsDir, 'blazeface.onnx', threads);
  const cands = await detectIn(img, 0, 0, img.w, img.h, s, minScore);
  const fromTile = new Set<Face>();
  const long = Math.max(img.w, img.h);
  for (let t = Math.round(long / 2); t >= Math.max(SIZE, long / 4); t = Math.round(t / 2)) {
    const tw = Math.min(t, img.w),
      th = Math.min(t, img.h);
    for (const y0 of tileStarts(img.h, th))
      for (const x0 of tileStarts(img.w, tw))
        for (const c of await detectIn(img, x0, y0, tw, th, s, minScore)) {
          cands.push(c);
          fromTile.add(c);
        }
  }
  cands.sort((a, b) => b.score - a.score);
  const faces: Face[] = [];
  for (const c of cands) {
    if (faces.length >= maxFaces) break;
    if (!faces.every((f) => iou(f, c) < 0.3 && containment(f, c) < 0.6)) continue;
    // many tiles give many chances to a face-like pattern (a shelf, a knot in wood): a face found
    // only in a tile must also be one for FaceMesh (its face flag)
    if (fromTile.has(c) && !(await faceMesh(img, c, modelsDir, threads))) continue;
    faces.push(c);
  }
  // clip to the image
  return faces
    .map((f) => {
      const x0 = Math.max(0, f.x),
        y0 = Math.max(0, f.y);
      const x1 = Math.min(img.w, f.x + f.w),
        y1 = Math.min(img.h, f.y + f.h);
      return { ...f, x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    })
    .filter((f) => f.w > 2 && f.h > 2);
}

/**
 * FaceMesh (MediaPipe, from @vladmandic/human, converted to ONNX): 468 landmarks of one face.
 * The BlazeFace box is squared and enlarged ×MESH_ENLARGE around its centre (as human does), cut
 * out (zero outside the picture), resized to 192² in 0..1, and the points mapped back to image
 * pixels. No rotation: a face tilted much is refused by the model's face flag. Returns undefined
 * when the model is not sure (flag < MESH_MIN_FLAG), so callers fall back to the keypoints.
 */
const MESH_SIZE = 192;
const MESH_ENLARGE = 1.6;
const MESH_MIN_FLAG = 0.5;

export interface FaceMesh {
  /** 468 points in image pixels */
  points: [number, number][];
  flag: number;
}

export async function faceMesh(img: Rgb, f: Face, modelsDir: string, threads: number): Promise<FaceMesh | undefined> {
  const side = Math.max(f.w, f.h) * MESH_ENLARGE;
  const left = Math.round(f.x + f.w / 2 - side / 2),
    top = Math.round(f.y + f.h / 2 - side / 2),
    s = Math.max(2, Math.round(side));
  // the square cut: the part inside the picture, then padded with black where it leaves it
  const ix0 = Math.max(0, left),
    iy0 = Math.max(0, top),
    ix1 = Math.min(img.w, left + s),
    iy1 = Math.min(img.h, top + s);
  if (ix1 - ix0 < 2 || iy1 - iy0 < 2) return undefined;
  // two passes: within one sharp pipeline the resize would run before the extend
  const square = await sharpOf(img)
    .extract({ left: ix0, top: iy0, width: ix1 - ix0, height: iy1 - iy0 })
    .extend({
      left: ix0 - left,
      top: iy0 - top,
      right: left + s - ix1,
      bottom: top + s - iy1,
      background: { r: 0, g: 0, b: 0 },
    })
    .raw()
    .toBuffer();
  const data = await sharp(square, { raw: { width: s, height: s, channels: 3 } })
    .resize(MESH_SIZE, MESH_SIZE, { kernel: 'linear', fit: 'fill' })
    .raw()
    .toBuffer();
  if (data.length !== MESH_SIZE * MESH_SIZE * 3) throw new Error(`facemesh crop has ${data.length} bytes`);
  const x = Float32Array.from(data, (v) => v / 255);
  const sess = await session(modelsDir, 'facemesh.onnx', threads);
  const out = await sess.run({ input_1: new ort.Tensor('float32', x, [1, MESH_SIZE, MESH_SIZE, 3]) });
  const flag = (out.Identity_1!.data as Float32Array)[0]!;
  if (!(flag >= MESH_MIN_FLAG)) return undefined;
  const mesh = out.Identity_2!.data as Float32Array;
  const k = s / MESH_SIZE;
  const points: [number, number][] = [];
  for (let i = 0; i < 468; i++) points.push([left + mesh[3 * i]! * k, top + mesh[3 * i + 1]! * k]);
  return { points, flag };
}

/** The faces of a picture (detectFaces) with each one's FaceMesh; faces narrower than `meshFrom` px, or refused by FaceMesh, get undefined. */
export async function facesWithMeshes(
  img: Rgb,
  modelsDir: string,
  threads: number,
  meshFrom = 0,
): Promise<{ faces: Face[]; meshes: (FaceMesh | undefined)[] }> {
  const faces = await detectFaces(img, modelsDir, threads);
  const meshes: (FaceMesh | undefined)[] = [];
  for (const f of faces) meshes.push(f.w >= meshFrom ? await faceMesh(img, f, modelsDir, threads) : undefined);
  return { faces, meshes };
}

/** MediaPipe FaceMesh contour indices (closed polygons, in order) of the features face_enhancer works on. */
export const MESH_FEATURES = {
  rightEye: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  leftEye: [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
  rightBrow: [156, 70, 63, 105, 66, 107, 55, 193, 65, 52, 53, 46, 124, 35],
  leftBrow: [383, 300, 293, 334, 296, 336, 285, 417, 295, 282, 283, 276, 353, 265],
  lipsOuter: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146],
  mouthInner: [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95],
} as const;
