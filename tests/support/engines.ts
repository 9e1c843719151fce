/** Test helpers for the engine suites: fixtures (tests/fixtures, licensed), a context, measures. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { EngineContext, EngineImage, ImageFormat } from '../../server/engines/types.js';
import { decodeRgb, sharpOf, type Rgb } from '../../server/engines/image.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MODELS_DIR = path.resolve(process.env.MODELS_DIR || path.join(root, 'models'));

export const fixture = (name: string) => readFileSync(path.join(root, 'tests', 'fixtures', name));

/** A Pro job's context writing `output` (PNG, like a step whose result feeds another, unless told); also used by scripts and bench. */
export function ctx(progress: number[] = [], output: ImageFormat = 'png', threads = 2): EngineContext {
  return {
    threads,
    modelsDir: MODELS_DIR,
    level: 'pro' as EngineContext['level'],
    output,
    onProgress: (f) => progress.push(f),
  };
}

/** A fixture cropped and/or resized, as an engine input. */
export async function input(
  name: string,
  opts: {
    width?: number;
    crop?: { left: number; top: number; width: number; height: number };
    format?: 'png' | 'jpeg';
  } = {},
): Promise<EngineImage> {
  let s = sharp(fixture(name)).removeAlpha().toColourspace('srgb');
  if (opts.crop) s = s.extract(opts.crop);
  if (opts.width) s = s.resize(opts.width);
  const format = opts.format ?? 'png';
  const { data, info } = await (format === 'png' ? s.png() : s.jpeg({ quality: 95 })).toBuffer({
    resolveWithObject: true,
  });
  return { data, width: info.width, height: info.height, format };
}

export async function fromRgb(img: Rgb, format: 'png' | 'jpeg' = 'png'): Promise<EngineImage> {
  const s = sharpOf(img);
  return {
    data: await (format === 'png' ? s.png() : s.jpeg({ quality: 95 })).toBuffer(),
    width: img.w,
    height: img.h,
    format,
  };
}

export const rgbOf = (buf: Buffer) => decodeRgb(buf);

/** Mean squared Laplacian of luma: the high-frequency energy. */
export function hfEnergy(img: Rgb): number {
  const { w, h, data } = img;
  const y = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) y[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  let s = 0;
  for (let r = 1; r < h - 1; r++)
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      const l = 4 * y[i]! - y[i - 1]! - y[i + 1]! - y[i - w]! - y[i + w]!;
      s += l * l;
    }
  return s / ((w - 2) * (h - 2));
}

export function distinctColours(img: Rgb): number {
  const set = new Set<number>();
  for (let i = 0; i < img.data.length; i += 3)
    set.add((img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!);
  return set.size;
}

/** Mean |a*|+|b*|-like chroma in YCbCr units. */
export function meanChroma(img: Rgb): number {
  let s = 0;
  for (let i = 0; i < img.data.length; i += 3) {
    const r = img.data[i]!,
      g = img.data[i + 1]!,
      b = img.data[i + 2]!;
    s += Math.abs(-0.1687 * r - 0.3313 * g + 0.5 * b) + Math.abs(0.5 * r - 0.4187 * g - 0.0813 * b);
  }
  return s / (img.data.length / 3);
}
