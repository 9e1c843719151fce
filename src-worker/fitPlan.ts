/**
 * "Fit the plan" of spec §5: resize above the plan's megapixel limit, then bring the file under the
 * plan's size limit, then a last 0.8-quality recompress. Compress uploads are never resized; above the
 * compress limit they are refused. Decisions are pure; pixels go through an ImageOps implementation
 * (OffscreenCanvas + pica in the worker, sharp in node tests).
 */
import { sanitizeFilename } from '../src/shared/domain/filename.js';
import { fitToLimits, type PlanLimits } from '../src/shared/domain/plans.js';
import { COMPRESS_JOB } from './limits.js';

export type ImageMime = 'image/jpeg' | 'image/png';

/** Quality of every re-encode that is not the last-resort recompress. */
export const ENCODE_QUALITY = 0.92;
/** Spec §5: "if still above, recompressed at 0.8 quality". */
const FALLBACK_QUALITY = 0.8;
/** Bytes scale roughly with area; aim a little under the budget so one shrink normally suffices. */
const SHRINK_MARGIN = 0.9;
/** A size-limit shrink keeps at least half of each side: below that the 0.8 recompress is kinder. */
const MIN_SHRINK = 0.5;

export interface ImageOps<Img> {
  resize(img: Img, w: number, h: number): Promise<Img>;
  encode(img: Img, mime: ImageMime, quality: number): Promise<Blob>;
}

export type FitLimits = Pick<PlanLimits, 'maxMegapixels' | 'maxSidePx' | 'maxFileBytes' | 'compressMaxBytes'>;

export interface Dims {
  w: number;
  h: number;
}

/**
 * Proportional target within the plan's megapixels and longer side, or null when the image already
 * fits: the domain's one rule (`fitToLimits`, spec §6 "2000x2000, 2.8 MP"), in the shape the worker uses.
 */
export function megapixelTarget(w: number, h: number, maxMegapixels: number, maxSidePx = Infinity): Dims | null {
  const fit = fitToLimits(w, h, { maxMegapixels, maxSidePx });
  return fit.resized ? { w: fit.w, h: fit.h } : null;
}

/** Dimensions whose encoded size should land under `limit`, given the current size at w×h. */
export function shrinkForBytes(w: number, h: number, bytes: number, limit: number): Dims {
  const s = Math.max(MIN_SHRINK, Math.min(1, Math.sqrt(limit / bytes) * SHRINK_MARGIN));
  return { w: Math.max(1, Math.floor(w * s)), h: Math.max(1, Math.floor(h * s)) };
}

/** Bytes read to find a JPEG's frame header: APP segments (EXIF, ICC) come first and may be large. */
export const JPEG_HEAD_BYTES = 256 * 1024;

/** Stored (not EXIF-oriented) pixel size from a JPEG's SOF segment, or null when not found in `head`. */
export function jpegFrameSize(head: Uint8Array): Dims | null {
  if (head[0] !== 0xff || head[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < head.length) {
    if (head[i] !== 0xff) return null;
    const marker = head[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    const len = (head[i + 2]! << 8) | head[i + 3]!;
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const h = (head[i + 5]! << 8) | head[i + 6]!;
      const w = (head[i + 7]! << 8) | head[i + 8]!;
      return w > 0 && h > 0 ? { w, h } : null;
    }
    if (marker === 0xda || len < 2) return null;
    i += 2 + len;
  }
  return null;
}

/**
 * How much larger than the plan's size a scaled JPEG decode must be. libjpeg's k/8 IDCT is a soft
 * low-pass, so a decode just above the target keeps too little detail: on the 16 MB 5640×3172 photo
 * fitted to 2000×1124, a 3/8 decode (1.06× the target) came out at 29.7 dB PSNR against pica's
 * Lanczos from the full decode, visibly softer canvas texture, a 4/8 decode (1.41×) at 33.7 dB, the
 * same as the browser's own high-quality resize of the full decode, at the same decode time (the
 * entropy decoding of the whole file is the cost, whatever the scale).
 */
export const DECODE_OVERSAMPLE = 1.4;

/**
 * The size to ask a JPEG decoder for (libjpeg scales by k/8 in the IDCT): the smallest k/8 whose
 * output covers DECODE_OVERSAMPLE × `target`, so a 16 MB photo decodes at half size and only a
 * high-quality downscale remains. Null when no scale below 1 covers it.
 */
export function jpegDecodeSize(src: Dims, target: Dims): Dims | null {
  const k = Math.max(1, Math.ceil(8 * DECODE_OVERSAMPLE * Math.max(target.w / src.w, target.h / src.h) - 1e-9));
  if (k >= 8) return null;
  return { w: Math.ceil((src.w * k) / 8), h: Math.ceil((src.h * k) / 8) };
}

/** The size-limit steps, tried in order while the file is still above the limit. */
export type SizeStep = 'reencode' | 'shrink' | 'recompress';
const SIZE_STEPS: readonly SizeStep[] = ['reencode', 'shrink', 'recompress'];

/**
 * Next step for a file of `bytes` after `done` steps; 'fits' when under the limit, 'tooLarge' when
 * every step has been spent. 'reencode' is skipped when the bytes already come from an encode.
 */
export function nextSizeStep(
  bytes: number,
  limit: number,
  done: readonly SizeStep[],
  encoded: boolean,
): SizeStep | 'fits' | 'tooLarge' {
  if (bytes <= limit) return 'fits';
  for (const step of SIZE_STEPS) {
    if (done.includes(step)) continue;
    if (step === 'reencode' && encoded) continue;
    return step;
  }
  return 'tooLarge';
}

export type FitResult<Img = unknown> =
  | { ok: true; blob: Blob; mime: ImageMime; w: number; h: number; steps: string[]; img: Img }
  | { ok: false; error: 'upload:fileTooLarge' | 'upload:imageTooLarge'; steps: string[] };

export interface FitInput<Img> {
  blob: Blob;
  mime: ImageMime;
  img: Img;
  w: number;
  h: number;
}

export async function fitToPlan<Img>(
  input: FitInput<Img>,
  limits: FitLimits,
  job: string,
  ops: ImageOps<Img>,
  onStatus: (status: 'resizing' | 'compressing') => void = () => {},
): Promise<FitResult<Img>> {
  const steps: string[] = [];
  if (job === COMPRESS_JOB) {
    // The compress feature keeps the original bytes: it is what the user wants compressed.
    if (input.blob.size > limits.compressMaxBytes) return { ok: false, error: 'upload:fileTooLarge', steps };
    return { ok: true, blob: input.blob, mime: input.mime, w: input.w, h: input.h, steps, img: input.img };
  }
  let { img, w, h, blob, mime } = input;
  let encoded = false;
  // The plan's megapixels and longest side (2000/3000 px), the rule the server enforces too.
  const target = megapixelTarget(w, h, limits.maxMegapixels, limits.maxSidePx);
  if (target) {
    onStatus('resizing');
    img = await ops.resize(img, target.w, target.h);
    ({ w, h } = target);
    blob = await ops.encode(img, mime, ENCODE_QUALITY);
    encoded = true;
    steps.push('resize');
  }
  const done: SizeStep[] = [];
  for (;;) {
    const step = nextSizeStep(blob.size, limits.maxFileBytes, done, encoded);
    if (step === 'fits') return { ok: true, blob, mime, w, h, steps, img };
    if (step === 'tooLarge') return { ok: false, error: 'upload:imageTooLarge', steps };
    if (done.length === 0) onStatus('compressing');
    done.push(step);
    steps.push(step);
    if (step === 'reencode') {
      blob = await ops.encode(img, mime, ENCODE_QUALITY);
    } else if (step === 'shrink') {
      const t = shrinkForBytes(w, h, blob.size, limits.maxFileBytes);
      img = await ops.resize(img, t.w, t.h);
      ({ w, h } = t);
      blob = await ops.encode(img, mime, ENCODE_QUALITY);
    } else {
      // PNG has no quality setting: the last resort is a JPEG at 0.8.
      mime = 'image/jpeg';
      blob = await ops.encode(img, mime, FALLBACK_QUALITY);
    }
    encoded = true;
  }
}

/** The extension matching an output type, replacing the old one when the type changed. */
export function renameForMime(filename: string, mime: ImageMime): string {
  return sanitizeFilename(filename, mime === 'image/png' ? 'png' : 'jpeg');
}
