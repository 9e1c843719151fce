/** Upload validation of spec §5: JPG/JPEG/PNG only, judged by content (magic bytes) and by name. */
import { extensionOf, sanitizeFilename, type ImageFormat } from '../src/shared/domain/filename.js';
import { SOURCE_MAX_MEGAPIXELS } from '../src/shared/domain/constants.js';
import { megapixelsToPixels } from '../src/shared/domain/plans.js';
import { jpegFrameSize, JPEG_HEAD_BYTES } from './fitPlan.js';

/** i18n keys (namespace `upload`) for the three alerts of spec §5. */
type ValidationError = 'upload:unsupportedFormat' | 'upload:onlyJpgPng' | 'upload:invalidFileType' | 'upload:emptyFile';

export type Validation =
  | { ok: true; kind: ImageFormat; mime: 'image/jpeg' | 'image/png'; filename: string }
  | { ok: false; error: ValidationError; filename: string };

/** Bytes needed by {@link sniffImageKind}. */
const MAGIC_BYTES = 8;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** JPEG starts with SOI + a marker (FF D8 FF); PNG with its 8-byte signature. */
export function sniffImageKind(head: Uint8Array): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => head[i] === b)) return 'png';
  return null;
}

const ACCEPTED_EXT = new Set(['jpg', 'jpeg', 'png']);
// Image formats people commonly try; they get "unsupported format" instead of "only JPG/PNG".
const OTHER_IMAGE_EXT = new Set([
  'gif',
  'webp',
  'bmp',
  'tif',
  'tiff',
  'heic',
  'heif',
  'avif',
  'svg',
  'ico',
  'psd',
  'raw',
  'cr2',
  'nef',
  'jfif',
]);

/**
 * Which alert a file deserves:
 * - another image format (by name or MIME) → unsupportedFormat;
 * - not an image at all → onlyJpgPng;
 * - named or typed as JPG/PNG but the bytes are not → invalidFileType.
 * A JPG/PNG by content is accepted only when its name also says JPG/JPEG/PNG.
 */
export function validateImage(name: string, mimeType: string, head: Uint8Array): Validation {
  const filename = sanitizeFilename(name);
  // No bytes at all: say so, whatever the name (an empty file is no type).
  if (head.length === 0) return { ok: false, error: 'upload:emptyFile', filename };
  const ext = extensionOf(name);
  const kind = sniffImageKind(head);
  if (ACCEPTED_EXT.has(ext)) {
    if (!kind) return { ok: false, error: 'upload:invalidFileType', filename };
    return { ok: true, kind, mime: kind === 'jpeg' ? 'image/jpeg' : 'image/png', filename };
  }
  if (
    OTHER_IMAGE_EXT.has(ext) ||
    (mimeType.startsWith('image/') && mimeType !== 'image/jpeg' && mimeType !== 'image/png')
  ) {
    return { ok: false, error: 'upload:unsupportedFormat', filename };
  }
  return { ok: false, error: 'upload:onlyJpgPng', filename };
}

/** The pixel size a PNG (IHDR) or JPEG (start of frame) declares in its first bytes, before any decode; null when not found. */
export function declaredSize(head: Uint8Array): { w: number; h: number } | null {
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (sniffImageKind(head) === 'png')
    return head.length >= 24 && v.getUint32(12) === 0x49484452 ? { w: v.getUint32(16), h: v.getUint32(20) } : null;
  return jpegFrameSize(head);
}

/** An image over SOURCE_MAX_MEGAPIXELS by its header: refused as too large before the browser tries (and fails) to decode it. */
export async function tooLargeToOpen(file: Blob): Promise<{ w: number; h: number } | null> {
  const d = declaredSize(new Uint8Array(await file.slice(0, JPEG_HEAD_BYTES).arrayBuffer()));
  return d && d.w * d.h > megapixelsToPixels(SOURCE_MAX_MEGAPIXELS) ? d : null;
}

/** Reads the first bytes of a Blob/File and validates it. */
export async function validateFile(file: Blob & { name: string }): Promise<Validation> {
  const head = new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer());
  return validateImage(file.name, file.type, head);
}
