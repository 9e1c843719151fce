/**
 * Face detection with BlazeFace (back-camera model from @vladmandic/human, converted to ONNX):
 * letterbox to a 256² square, run, decode boxes against the 896 anchors, non-max suppression.
 * Decoding follows human's src/face/blazeface.ts.
 */
import * as ort from 'onnxruntime-node';
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
  for (const [stride, per] of [[16, 2], [32, 6]] as const) {
    const grid = Math.ceil(SIZE / stride);
    for (let gy = 0; gy < grid; gy++)
      for (let gx = 0; gx < grid; gx++) for (let k = 0; k < per; k++) anchors.push([stride * (gx + 0.5), stride * (gy + 0.5)]);
  }
  return anchors;
}

const iou = (a: Face, b: Face) => {
  const x0 = Math.max(a.x, b.x), y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w), y1 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.w * a.h + b.w * b.h - inter);
};

export async function detectFaces(img: Rgb, modelsDir: string, threads: number, minScore = 0.75, maxFaces = 10): Promise<Face[]> {
  const side = Math.max(img.w, img.h);
  const padX = Math.floor((side - img.w) / 2), padY = Math.floor((side - img.h) / 2);
  const { data } = await sharpOf(img)
    .extend({ left: padX, right: side - img.w - padX, top: padY, bottom: side - img.h - padY, background: { r: 0, g: 0, b: 0 } })
    .resize(SIZE, SIZE, { kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const x = new Float32Array(SIZE * SIZE * 3);
  for (let i = 0; i < x.length; i++) x[i] = data[i]! / 127.5 - 1;
  const s = await session(modelsDir, 'blazeface.onnx', threads);
  const out = await s.run({ input: new ort.Tensor('float32', x, [1, SIZE, SIZE, 3]) });
  // 512 anchors (16×16×2) then 384 (8×8×6): logits in Identity/Identity_1, boxes in Identity_2/Identity_3
  const logits = [...(out.Identity!.data as Float32Array), ...(out.Identity_1!.data as Float32Array)];
  const reg = [out.Identity_2!.data as Float32Array, out.Identity_3!.data as Float32Array];
  const anc = getAnchors();
  const k = side / SIZE;
  const cands: Face[] = [];
  for (let i = 0; i < anc.length; i++) {
    const score = 1 / (1 + Math.exp(-logits[i]!));
    if (score < minScore) continue;
    const r = i < 512 ? reg[0]!.subarray(i * 16, i * 16 + 16) : reg[1]!.subarray((i - 512) * 16, (i - 512) * 16 + 16);
    const [ax, ay] = anc[i]!;
    const cx = r[0]! + ax, cy = r[1]! + ay, bw = r[2]!, bh = r[3]!;
    const landmarks: [number, number][] = [];
    for (let l = 0; l < 6; l++) landmarks.push([(r[4 + 2 * l]! + ax) * k - padX, (r[5 + 2 * l]! + ay) * k - padY]);
    cands.push({ x: (cx - bw / 2) * k - padX, y: (cy - bh / 2) * k - padY, w: bw * k, h: bh * k, score, landmarks });
  }
  cands.sort((a, b) => b.score - a.score);
  const faces: Face[] = [];
  for (const c of cands) {
    if (faces.length >= maxFaces) break;
    if (faces.every((f) => iou(f, c) < 0.3)) faces.push(c);
  }
  // clip to the image
  return faces.map((f) => {
    const x0 = Math.max(0, f.x), y0 = Math.max(0, f.y);
    const x1 = Math.min(img.w, f.x + f.w), y1 = Math.min(img.h, f.y + f.h);
    return { ...f, x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }).filter((f) => f.w > 2 && f.h > 2);
}
