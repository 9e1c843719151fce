/** Pixels in the browser: decode with EXIF orientation, pica resize on OffscreenCanvas, encode, thumbnail. */
import { Pica } from 'pica';
import { THUMBNAIL_SIZE } from '../src/domain/constants.js';
import type { ImageMime, ImageOps } from './fitPlan.js';

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

export const canvasOps: ImageOps<CanvasImage> = {
  async resize(img, w, h) {
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

/** 80×80 centre-cropped JPEG thumbnail as a data URL (spec §9). */
export async function makeThumbnail(img: CanvasImage): Promise<string> {
  const size = THUMBNAIL_SIZE;
  const side = Math.min(img.width, img.height);
  const crop = new OffscreenCanvas(side, side);
  crop.getContext('2d')!.drawImage(img, (img.width - side) / 2, (img.height - side) / 2, side, side, 0, 0, side, side);
  const thumb = new OffscreenCanvas(size, size);
  if (side > size) await pica().resize(crop, thumb);
  else thumb.getContext('2d')!.drawImage(crop, 0, 0, size, size);
  const blob = await thumb.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  return blobToDataUrl(blob);
}

export async function blobToDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${blob.type || 'image/jpeg'};base64,${btoa(bin)}`;
}
