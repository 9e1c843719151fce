/**
 * The developer API's image options (docs/api.md), on this side of the four calls: the input scaled down to
 * a size before it is uploaded (`size=auto` to the caller's plan, as the web app's worker does; `size=preview`
 * so the result is at most API_PREVIEW_MEGAPIXELS), and the result's output options (`format`, `bg_color`,
 * `crop` to the subject's box) applied to the finished work's file. Pure sharp work on buffers; the rules
 * (which size, which plan) are the caller's.
 */
import sharp from 'sharp';
import { fitToLimits, megapixelsToPixels } from '../../src/shared/domain/plans.js';

/** The largest image this step decodes to scale down (the compress uploads' 100 MP); larger ones go on unscaled and are refused by the upload. */
const MAX_DECODE_PIXELS = 100_000_000;

export interface Fitted {
  data: Buffer;
  /** the input's size (after its EXIF orientation) and the size it was scaled to */
  from: { w: number; h: number };
  to: { w: number; h: number };
  downscaled: boolean;
}

/** The image's size as shown (EXIF orientation applied), from its header; null when it is no image sharp reads. */
async function shownSize(data: Buffer): Promise<{ w: number; h: number } | null> {
  try {
    const m = await sharp(data, { limitInputPixels: false }).metadata();
    if (!m.width || !m.height) return null;
    const swapped = (m.orientation ?? 1) >= 5;
    return swapped ? { w: m.height, h: m.width } : { w: m.width, h: m.height };
  } catch {
    return null;
  }
}

/**
 * `data` scaled down proportionally until it is within `maxMegapixels` and `maxSidePx` (plans.ts's fitToLimits,
 * the web app's rule), in its own format; unchanged when it fits, is no image or is too large to decode here
 * (the upload then refuses it with its own reason).
 */
export async function fitImage(data: Buffer, limits: { maxMegapixels: number; maxSidePx: number }): Promise<Fitted> {
  const size = await shownSize(data);
  if (!size) return { data, from: { w: 0, h: 0 }, to: { w: 0, h: 0 }, downscaled: false };
  const to = fitToLimits(size.w, size.h, limits);
  if (!to.resized || size.w * size.h > MAX_DECODE_PIXELS) return { data, from: size, to: size, downscaled: false };
  try {
    const img = sharp(data, { failOn: 'error', limitInputPixels: MAX_DECODE_PIXELS })
      .rotate()
      .resize(to.w, to.h, { fit: 'fill', kernel: 'lanczos3' });
    const format = (await sharp(data, { limitInputPixels: false }).metadata()).format;
    const out = await (format === 'png' ? img.png() : img.jpeg({ quality: 92, mozjpeg: true })).toBuffer();
    return { data: out, from: size, to: { w: to.w, h: to.h }, downscaled: true };
  } catch {
    return { data, from: size, to: size, downscaled: false };
  }
}

/** The limits that keep a result of `scale`× its input within `maxMegapixels` (a preview of an enlarge: a smaller input). */
export function inputLimitsFor(
  result: { maxMegapixels: number; maxSidePx: number },
  scale: number,
): { maxMegapixels: number; maxSidePx: number } {
  const k = Math.max(1, scale);
  // whole pixels: megapixelsToPixels floors, so the input's limit never rounds the result past its own
  return {
    maxMegapixels: megapixelsToPixels(result.maxMegapixels / (k * k)) / 1_000_000,
    maxSidePx: Math.floor(result.maxSidePx / k),
  };
}

type OutputFormat = 'png' | 'jpg' | 'webp';

export interface OutputOptions {
  format?: OutputFormat;
  /** a CSS-like colour: `#rgb`, `#rrggbb`, `rrggbb`, or a few names; the background behind a cut-out */
  bgColor?: string;
  /** crop to the subject's box (the opaque pixels of a cut-out), with `cropMargin` px around it */
  crop?: boolean;
  cropMargin?: number;
}

const NAMED: Readonly<Record<string, string>> = {
  white: 'ffffff',
  black: '000000',
  red: 'ff0000',
  green: '00ff00',
  blue: '0000ff',
  gray: '808080',
  grey: '808080',
};

/** `#rgb`, `#rrggbb` (the `#` optional) or a basic colour name → {r, g, b}; null when it is none of these. */
function parseColor(text: string): { r: number; g: number; b: number } | null {
  const t = text.trim().toLowerCase();
  let hex = NAMED[t] ?? t.replace(/^#/, '');
  if (/^[0-9a-f]{3}$/.test(hex)) hex = [...hex].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/.test(hex)) return null;
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

/** The box of the pixels whose alpha is above 0, or null when there is no alpha or nothing is opaque. */
async function subjectBox(data: Buffer): Promise<{ left: number; top: number; width: number; height: number } | null> {
  const { data: px, info } = await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  let x0 = width,
    y0 = height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width * channels;
    for (let x = 0; x < width; x++) {
      if (px[row + x * channels + channels - 1]! > 0) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  if (x1 < 0) return null;
  return { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** A result in the output the caller asked for: cropped, flattened on `bgColor`, in `format`; with its size. */
export async function applyOutput(
  data: Buffer,
  ext: string,
  o: OutputOptions,
): Promise<{ data: Buffer; ext: string; w: number; h: number }> {
  let img = data;
  if (o.crop) {
    const box = await subjectBox(img);
    if (box) {
      const meta = await sharp(img).metadata();
      const m = Math.max(0, Math.floor(o.cropMargin ?? 0));
      const left = Math.max(0, box.left - m);
      const top = Math.max(0, box.top - m);
      const right = Math.min(meta.width!, box.left + box.width + m);
      const bottom = Math.min(meta.height!, box.top + box.height + m);
      img = await sharp(img)
        .extract({ left, top, width: right - left, height: bottom - top })
        .png()
        .toBuffer();
    }
  }
  const format: OutputFormat = o.format ?? (ext === 'png' ? 'png' : ext === 'webp' ? 'webp' : 'jpg');
  const bg = o.bgColor !== undefined ? parseColor(o.bgColor) : format === 'jpg' ? { r: 255, g: 255, b: 255 } : null;
  let pipeline = sharp(img);
  if (bg) pipeline = pipeline.flatten({ background: bg });
  const changed = o.crop || bg !== null || format !== ext;
  if (!changed) {
    const meta = await sharp(img).metadata();
    return { data: img, ext, w: meta.width!, h: meta.height! };
  }
  const out =
    format === 'png'
      ? pipeline.png()
      : format === 'webp'
        ? pipeline.webp({ quality: 90, alphaQuality: 100 })
        : pipeline.jpeg({ quality: 92, mozjpeg: true });
  const { data: bytes, info } = await out.toBuffer({ resolveWithObject: true });
  return { data: bytes, ext: format === 'jpg' ? 'jpg' : format, w: info.width, h: info.height };
}
