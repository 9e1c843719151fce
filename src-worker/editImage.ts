/** The simple tools (crop to aspect, resize to width, rotate, flip): decoded, drawn and encoded in the worker. */
import { canvasOps, decodeImage, type CanvasImage } from './canvasOps.js';
import { ENCODE_QUALITY, type ImageMime } from './fitPlan.js';

export type EditOp =
  | { kind: 'crop'; aspect: number }
  /** the cropper's box in image pixels (src/features/editor/cropBox.ts) */
  | { kind: 'cropBox'; x: number; y: number; w: number; h: number }
  | { kind: 'resize'; width: number }
  | { kind: 'rotate'; angle: 90 | 180 | 270 }
  | { kind: 'flip'; horizontal: boolean; vertical: boolean };

export interface EditResult {
  blob: Blob;
  width: number;
  height: number;
}

/** Upscales are capped so a typo in the width field cannot ask for gigapixels. */
const MAX_RESIZE_FACTOR = 4;

/** Centred crop rectangle of the largest `aspect` (w/h) box inside w×h. */
function cropBox(w: number, h: number, aspect: number): { x: number; y: number; w: number; h: number } {
  if (w / h > aspect) {
    const nw = Math.max(1, Math.round(h * aspect));
    return { x: Math.floor((w - nw) / 2), y: 0, w: nw, h };
  }
  const nh = Math.max(1, Math.round(w / aspect));
  return { x: 0, y: Math.floor((h - nh) / 2), w, h: nh };
}

/** `signal`: a cancelled edit stops between its steps (decode, draw, encode). */
export async function editImage(file: Blob, op: EditOp, signal?: AbortSignal): Promise<EditResult> {
  // PNG stays PNG (keeps transparency); everything else leaves as JPEG.
  const mime: ImageMime = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  signal?.throwIfAborted();
  const bitmap = await decodeImage(file);
  if (signal?.aborted) {
    bitmap.close();
    signal.throwIfAborted();
  }
  const srcW = bitmap.width;
  const srcH = bitmap.height;
  let out: CanvasImage;
  if (op.kind === 'resize') {
    const width = Math.round(op.width);
    if (!Number.isFinite(width) || width < 1 || width > srcW * MAX_RESIZE_FACTOR) {
      bitmap.close();
      throw new RangeError(`width must be 1..${srcW * MAX_RESIZE_FACTOR}`);
    }
    const height = Math.max(1, Math.round((srcH * width) / srcW));
    // canvasOps.resize runs pica and closes the bitmap.
    out = width === srcW ? bitmap : await canvasOps.resize(bitmap, width, height);
  } else {
    let w = srcW,
      h = srcH;
    let box = { x: 0, y: 0, w: srcW, h: srcH };
    if (op.kind === 'crop') {
      if (!(op.aspect > 0) || !Number.isFinite(op.aspect)) {
        bitmap.close();
        throw new RangeError('aspect must be a positive number');
      }
      box = cropBox(srcW, srcH, op.aspect);
      w = box.w;
      h = box.h;
    }
    if (op.kind === 'cropBox') {
      const { x, y } = op;
      const ok =
        [x, y, op.w, op.h].every(Number.isInteger) &&
        x >= 0 &&
        y >= 0 &&
        op.w >= 1 &&
        op.h >= 1 &&
        x + op.w <= srcW &&
        y + op.h <= srcH;
      if (!ok) {
        bitmap.close();
        throw new RangeError(`the crop box must be whole pixels inside ${srcW}×${srcH}`);
      }
      box = { x, y, w: op.w, h: op.h };
      w = box.w;
      h = box.h;
    }
    const turned = op.kind === 'rotate' && op.angle !== 180;
    const canvas = new OffscreenCanvas(turned ? h : w, turned ? w : h);
    const ctx = canvas.getContext('2d')!;
    ctx.translate(canvas.width / 2, canvas.height / 2);
    if (op.kind === 'rotate') ctx.rotate((op.angle * Math.PI) / 180);
    if (op.kind === 'flip') ctx.scale(op.horizontal ? -1 : 1, op.vertical ? -1 : 1);
    ctx.drawImage(bitmap, box.x, box.y, box.w, box.h, -w / 2, -h / 2, w, h);
    bitmap.close();
    out = canvas;
  }
  if (signal?.aborted) {
    if ('close' in out) out.close();
    signal.throwIfAborted();
  }
  const blob = await canvasOps.encode(out, mime, ENCODE_QUALITY);
  const result = { blob, width: out.width, height: out.height };
  if ('close' in out) out.close();
  return result;
}
