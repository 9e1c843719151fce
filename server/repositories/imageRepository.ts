/**
 * Every use of sharp for uploads: sniffing, header checks, full-decode validation, the normalised
 * working copy and the 80×80 thumbnail. Nothing here trusts a filename extension or a MIME type.
 */
import sharp, { type Metadata } from 'sharp';
import { THUMBNAIL_SIZE } from '../../src/shared/domain/constants.js';
import { UPLOAD_REFUSAL, type UploadRefusal } from '../../src/shared/domain/uploadRefusals.js';

export type ImageFormat = 'jpeg' | 'png';

/** A refusal with its reason's code (and English text); the service turns it into code 10001. */
export class ImageRefused extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(UPLOAD_REFUSAL[refusal]);
  }
}

/** The reasons an image itself is refused. */
const IMAGE_REFUSAL = {
  unsupported: 'unsupported',
  empty: 'empty',
  tooLarge: 'imageTooLarge',
  corrupt: 'corrupt',
} as const satisfies Record<string, UploadRefusal>;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG or PNG by magic bytes only. */
export function sniffFormat(buf: Uint8Array): ImageFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && Buffer.from(buf.buffer, buf.byteOffset, 8).equals(PNG_MAGIC)) return 'png';
  return null;
}

/** Width and height declared by a PNG's IHDR, read by hand so a bomb is refused before any decoder runs. */
export function pngDeclaredSize(buf: Uint8Array): { w: number; h: number } | null {
  if (buf.length < 24) return null;
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  if (b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
}

export interface ValidatedImage {
  format: ImageFormat;
  /** dimensions after auto-orientation (what the user sees and the engines read) */
  w: number;
  h: number;
  /** working copy: auto-oriented, metadata stripped, same format */
  working: Buffer;
  /** true when the working copy is the original bytes (nothing to strip or rotate) */
  workingIsOriginal: boolean;
  hasAlpha: boolean;
}

const open = (buf: Buffer, maxPixels: number) =>
  sharp(buf, { failOn: 'error', limitInputPixels: Math.max(1, Math.floor(maxPixels)) });

/** Over the level's limits: more pixels than maxPixels, or a side longer than maxSide (spec §6: 2000×2000, 3000×3000). */
const oversize = (w: number, h: number, maxPixels: number, maxSide: number) =>
  w * h > maxPixels || w > maxSide || h > maxSide;

/**
 * Validates an upload and builds its working copy. Header dimensions are checked against
 * maxPixels and maxSide before any pixel is decoded; then a full decode proves the file is complete.
 */
export async function validateImage(buf: Buffer, maxPixels: number, maxSide = Infinity): Promise<ValidatedImage> {
  if (buf.length === 0) throw new ImageRefused(IMAGE_REFUSAL.empty);
  const format = sniffFormat(buf);
  if (!format) throw new ImageRefused(IMAGE_REFUSAL.unsupported);
  if (format === 'png') {
    const d = pngDeclaredSize(buf);
    if (!d || d.w === 0 || d.h === 0) throw new ImageRefused(IMAGE_REFUSAL.corrupt);
    if (oversize(d.w, d.h, maxPixels, maxSide)) throw new ImageRefused(IMAGE_REFUSAL.tooLarge);
  }
  let meta: Metadata;
  try {
    // metadata() reads the header only; the pixel limit makes any later decode refuse too.
    meta = await sharp(buf, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused(IMAGE_REFUSAL.corrupt);
  }
  if (meta.format !== format || !meta.width || !meta.height) throw new ImageRefused(IMAGE_REFUSAL.corrupt);
  if (oversize(meta.width, meta.height, maxPixels, maxSide)) throw new ImageRefused(IMAGE_REFUSAL.tooLarge);

  const orientation = meta.orientation ?? 1;
  const swapped = orientation >= 5 && orientation <= 8;
  const w = swapped ? meta.height : meta.width;
  const h = swapped ? meta.width : meta.height;
  const clean =
    format === 'jpeg' &&
    orientation === 1 &&
    !meta.exif &&
    !meta.icc &&
    !meta.xmp &&
    !meta.iptc &&
    !meta.comments?.length;
  try {
    if (clean) {
      // Nothing to strip: keep the bytes, but decode every pixel so a truncated file still fails.
      await open(buf, maxPixels).stats();
      return { format, w, h, working: buf, workingIsOriginal: true, hasAlpha: !!meta.hasAlpha };
    }
    // sharp drops all metadata by default and converts an embedded ICC profile to sRGB.
    // Plain libjpeg here: mozjpeg costs ~6× the CPU for a working copy nobody downloads.
    const pipeline = open(buf, maxPixels).rotate();
    const working =
      format === 'jpeg'
        ? await pipeline.jpeg({ quality: 95 }).toBuffer()
        : await pipeline.png({ compressionLevel: 6 }).toBuffer();
    return { format, w, h, working, workingIsOriginal: false, hasAlpha: !!meta.hasAlpha };
  } catch (e) {
    if (/pixel limit/i.test(String(e))) throw new ImageRefused(IMAGE_REFUSAL.tooLarge);
    throw new ImageRefused(IMAGE_REFUSAL.corrupt);
  }
}

export interface Thumbnail {
  data: Buffer;
  format: ImageFormat;
}

/** Largest client thumbnail taken as is (bytes, and each side in px: 2× for high-density screens). */
/** A client thumbnail larger than this is ignored (and not read past it: server/http/routes/uploads.ts). */
export const CLIENT_THUMB_MAX_BYTES = 256 * 1024;
const CLIENT_THUMB_MAX_SIDE = THUMBNAIL_SIZE * 2;

async function renderThumbnail(input: Buffer, maxPixels: number, hasAlpha: boolean): Promise<Thumbnail> {
  const p = open(input, maxPixels)
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true });
  return hasAlpha
    ? { data: await p.png().toBuffer(), format: 'png' }
    : { data: await p.jpeg({ quality: 80 }).toBuffer(), format: 'jpeg' };
}

/** The thumbnail the client sent, re-rendered to 80×80 if it is a valid small JPEG/PNG; otherwise null. */
export async function clientThumbnail(buf: Buffer | undefined): Promise<Thumbnail | null> {
  if (!buf || buf.length === 0 || buf.length > CLIENT_THUMB_MAX_BYTES || !sniffFormat(buf)) return null;
  try {
    const meta = await sharp(buf, { failOn: 'error' }).metadata();
    if (!meta.width || !meta.height || meta.width > CLIENT_THUMB_MAX_SIDE || meta.height > CLIENT_THUMB_MAX_SIDE)
      return null;
    return await renderThumbnail(buf, CLIENT_THUMB_MAX_SIDE * CLIENT_THUMB_MAX_SIDE, !!meta.hasAlpha);
  } catch {
    return null;
  }
}

/** An 80×80 (fit inside) thumbnail of an already validated working copy. */
export async function thumbnailOf(image: ValidatedImage): Promise<Thumbnail> {
  try {
    return await renderThumbnail(image.working, image.w * image.h, image.hasAlpha);
  } catch {
    // Shrink-on-load decodes differently from the full decode: a truncated JPEG can fail only here.
    throw new ImageRefused(IMAGE_REFUSAL.corrupt);
  }
}

export const extOf = (f: ImageFormat) => (f === 'jpeg' ? 'jpg' : 'png');
export const mimeOf = (f: ImageFormat) => (f === 'jpeg' ? 'image/jpeg' : 'image/png');
