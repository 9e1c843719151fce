/**
 * "Fit the plan" of spec §5: resize above the plan's megapixel limit, then bring the file under the
 * plan's size limit, then a last 0.8-quality recompress. Compress uploads are never resized; above the
 * compress limit they are refused. Decisions are pure; pixels go through an ImageOps implementation
 * (OffscreenCanvas + pica in the worker, sharp in node tests).
 */
import { sanitizeFilename } from '../src/domain/filename.js';
import { fitToLimits, megapixelsToPixels, type PlanLimits } from '../src/domain/plans.js';
import { COMPRESS_JOB } from './limits.js';

export type ImageMime = 'image/jpeg' | 'image/png';

/** Quality of every re-encode that is not the last-resort recompress. */
export const ENCODE_QUALITY = 0.92;
/** Spec §5: "if still above, recompressed at 0.8 quality". */
export const FALLBACK_QUALITY = 0.8;
/** Bytes scale roughly with area; aim a little under the budget so one shrink normally suffices. */
export const SHRINK_MARGIN = 0.9;
/** A size-limit shrink keeps at least half of each side: below that the 0.8 recompress is kinder. */
export const MIN_SHRINK = 0.5;

export interface ImageOps<Img> {
  resize(img: Img, w: number, h: number): Promise<Img>;
  encode(img: Img, mime: ImageMime, quality: number): Promise<Blob>;
}

export type FitLimits = Pick<PlanLimits, 'maxMegapixels' | 'maxFileBytes' | 'compressMaxBytes'> & Partial<Pick<PlanLimits, 'maxSidePx'>>;

export interface Dims {
  w: number;
  h: number;
}

/** Proportional target within `maxMegapixels`, or null when the image already fits. */
export function megapixelTarget(w: number, h: number, maxMegapixels: number): Dims | null {
  const maxPixels = megapixelsToPixels(maxMegapixels);
  if (w * h <= maxPixels) return null;
  const s = Math.sqrt(maxPixels / (w * h));
  let tw = Math.max(1, Math.floor(w * s));
  let th = Math.max(1, Math.floor(h * s));
  // floor() already keeps us under; this guards float edge cases.
  while (tw * th > maxPixels) (tw >= th ? tw-- : th--);
  return { w: tw, h: th };
}

/** Dimensions whose encoded size should land under `limit`, given the current size at w×h. */
export function shrinkForBytes(w: number, h: number, bytes: number, limit: number): Dims {
  const s = Math.max(MIN_SHRINK, Math.min(1, Math.sqrt(limit / bytes) * SHRINK_MARGIN));
  return { w: Math.max(1, Math.floor(w * s)), h: Math.max(1, Math.floor(h * s)) };
}

/** The size-limit steps, tried in order while the file is still above the limit. */
export type SizeStep = 'reencode' | 'shrink' | 'recompress';
export const SIZE_STEPS: readonly SizeStep[] = ['reencode', 'shrink', 'recompress'];

/**
 * Next step for a file of `bytes` after `done` steps; 'fits' when under the limit, 'tooLarge' when
 * every step has been spent. 'reencode' is skipped when the bytes already come from an encode.
 */
export function nextSizeStep(bytes: number, limit: number, done: readonly SizeStep[], encoded: boolean): SizeStep | 'fits' | 'tooLarge' {
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
  const fit = fitToLimits(w, h, { maxMegapixels: limits.maxMegapixels, maxSidePx: limits.maxSidePx ?? Infinity });
  const target = fit.resized ? { w: fit.w, h: fit.h } : null;
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
