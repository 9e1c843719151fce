/** Pixels in the browser: decode with EXIF orientation, pica resize on OffscreenCanvas, encode, thumbnail. */
import { Pica } from 'pica';
import { THUMBNAIL_SIZE } from '../src/shared/domain/constants.js';
import { COMPRESS_JOB } from './limits.js';
import {
  JPEG_HEAD_BYTES,
  jpegDecodeSize,
  jpegFrameSize,
  megapixelTarget,
  type Dims,
  type FitLimits,
  type ImageMime,
  type ImageOps,
} from './fitPlan.js';

export type CanvasImage = ImageBitmap | OffscreenCanvas;

/** pica's own canvas factory looks for `document` (absent in a worker): always OffscreenCanvas here. */
class OffscreenPica extends Pica {
  override createCanvas(width: number, height: number): OffscreenCanvas {
    return new OffscreenCanvas(width, height);
  }
}

let picaInstance: Pica | undefined;
/** One pica for the worker's lifetime (its setup compiles wasm and may start tile workers). */
function pica(): Pica {
  picaInstance ??= new OffscreenPica({ features: ['js', 'wasm', 'ww'] });
  return picaInstance;
}

/** Decodes with the EXIF orientation applied, so w/h are what the user sees. */
export async function decodeImage(blob: Blob): Promise<ImageBitmap> {
  return createImageBitmap(blob, { imageOrientation: 'from-image' });
}

/**
 * Decode for fitToPlan: when the plan will shrink a JPEG anyway, decode it at libjpeg's k/8 scale
 * (WebCodecs ImageDecoder, EXIF rotation applied by createImageBitmap) and resize straight to the
 * plan's size, so the later resize is a no-op. `w`/`h` are the source's oriented size, for the
 * fit's decisions. Falls back to a full decode wherever ImageDecoder is missing or fails.
 */
export async function decodeForFit(
  blob: Blob,
  limits: Pick<FitLimits, 'maxMegapixels' | 'maxSidePx'>,
  job: string,
): Promise<{ img: ImageBitmap; w: number; h: number }> {
  if (job !== COMPRESS_JOB && typeof ImageDecoder === 'function') {
    try {
      const scaled = await decodeScaled(blob, limits);
      if (scaled) return scaled;
    } catch {
      // a browser without JPEG scaling or this input's type: the full decode below decides
    }
  }
  const img = await decodeImage(blob);
  return { img, w: img.width, h: img.height };
}

async function decodeScaled(
  blob: Blob,
  limits: Pick<FitLimits, 'maxMegapixels' | 'maxSidePx'>,
): Promise<{ img: ImageBitmap; w: number; h: number } | null> {
  const stored = jpegFrameSize(new Uint8Array(await blob.slice(0, JPEG_HEAD_BYTES).arrayBuffer()));
  const target = stored && megapixelTarget(stored.w, stored.h, limits.maxMegapixels, limits.maxSidePx);
  const at = stored && target && jpegDecodeSize(stored, target);
  if (!stored || !target || !at) return null;
  const decoder = new ImageDecoder({
    data: blob.stream(),
    type: 'image/jpeg',
    desiredWidth: at.w,
    desiredHeight: at.h,
  });
  try {
    const { image } = await decoder.decode();
    try {
      // EXIF orientation: a quarter turn swaps the displayed sides; megapixelTarget is symmetric, so the target just swaps too
      const turned =
        image.codedWidth !== image.codedHeight &&
        image.displayWidth === image.codedHeight &&
        image.displayHeight === image.codedWidth;
      const out: Dims = turned ? { w: target.h, h: target.w } : target;
      const img = await createImageBitmap(image, { resizeWidth: out.w, resizeHeight: out.h, resizeQuality: 'high' });
      if (img.width !== out.w || img.height !== out.h) {
        img.close();
        return null;
      }
      return { img, w: turned ? stored.h : stored.w, h: turned ? stored.w : stored.h };
    } finally {
      image.close();
    }
  } finally {
    decoder.close();
  }
}

export const canvasOps: ImageOps<CanvasImage> = {
  async resize(img, w, h) {
    // decodeForFit already delivered the plan's size
    if (img.width === w && img.height === h) return img;
    const to = new OffscreenCanvas(w, h);
    await pica().resize(img, to);
    if ('close' in img) img.close();
    return to;
  },
  async encode(img, mime: ImageMime, quality) {
    const canvas = img instanceof OffscreenCanvas ? img : drawToCanvas(img);
    return canvas.convertToBlob({ type: mime, quality });
  },
};

function drawToCanvas(img: ImageBitmap): OffscreenCanvas {
  const c = new OffscreenCanvas(img.width, img.height);
  c.getContext('2d')!.drawImage(img, 0, 0);
  return c;
}

/** The browser's own high-quality scaler (no wasm setup); pica where createImageBitmap cannot resize. */
async function downscale(from: OffscreenCanvas, to: OffscreenCanvas): Promise<void> {
  try {
    const scaled = await createImageBitmap(from, {
      resizeWidth: to.width,
      resizeHeight: to.height,
      resizeQuality: 'high',
    });
    if (scaled.width === to.width && scaled.height === to.height) {
      to.getContext('2d')!.drawImage(scaled, 0, 0);
      scaled.close();
      return;
    }
    scaled.close();
  } catch {
    // resize options unsupported: pica below
  }
  await pica().resize(from, to);
}

/** 80×80 centre-cropped JPEG thumbnail as a data URL (spec §9). */
export async function makeThumbnail(img: CanvasImage): Promise<string> {
  const size = THUMBNAIL_SIZE;
  const side = Math.min(img.width, img.height);
  const crop = new OffscreenCanvas(side, side);
  crop.getContext('2d')!.drawImage(img, (img.width - side) / 2, (img.height - side) / 2, side, side, 0, 0, side, side);
  const thumb = new OffscreenCanvas(size, size);
  if (side > size) await downscale(crop, thumb);
  else thumb.getContext('2d')!.drawImage(crop, 0, 0, size, size);
  const blob = await thumb.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  return blobToDataUrl(blob);
}

async function blobToDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'image/jpeg'};base64,${btoa(bin)}`;
}
