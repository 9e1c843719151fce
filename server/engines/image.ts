/**
 * Pixel helpers shared by the engines: decode/encode through sharp, float planes, separable
 * Gaussian and box filters, guided filter, colour conversions and simple image statistics.
 * Planes hold 0..255 floats, row-major, one Float32Array per channel.
 */
import sharp, { type Sharp } from 'sharp';
import type { EngineContext, EngineExtra, EngineImage, EngineResult, ImageFormat } from './types.js';
import { boxMean, luma, type Rgb } from '../../src/shared/imaging/planes.js';

/**
 * Plane operations and image statistics defined once for server and device (src/shared/imaging/planes.ts);
 * re-exported because most engines import their helpers from here.
 */
export {
  boxMean,
  clamp,
  estimateBlur,
  estimateFocusBlur,
  estimateNoise,
  fromPlanes,
  gaussianBlur,
  guidedFilter,
  luma,
  resizePlane,
  rgbToYcc,
  toPlanes,
  unsharp,
  yccToRgb,
  type Rgb,
} from '../../src/shared/imaging/planes.js';

export async function decodeRgb(data: Buffer): Promise<Rgb> {
  const { data: px, info } = await sharp(data, { failOn: 'error', limitInputPixels: false })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels === 1) {
    // some greyscale inputs stay single-channel through libvips: expand to RGB ourselves
    const rgb = new Uint8Array(px.length * 3);
    for (let i = 0; i < px.length; i++) rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = px[i]!;
    return { w: info.width, h: info.height, data: rgb };
  }
  if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
  return { w: info.width, h: info.height, data: new Uint8Array(px.buffer, px.byteOffset, px.length) };
}

/** Pixels an engine hands to the shared encoder: grey, RGB or RGBA, interleaved. */
export interface Raster {
  w: number;
  h: number;
  channels: 1 | 3 | 4;
  data: Uint8Array;
}

/** A Buffer view of the same bytes (no copy). */
const bufferOf = (px: Uint8Array): Buffer => Buffer.from(px.buffer, px.byteOffset, px.length);

const rasterOf = (img: Rgb | Raster): Raster => ('channels' in img ? img : { ...img, channels: 3 });

/** A sharp pipeline reading these pixels (no pixel limit: our own buffers, already inside the plan's). */
export function sharpOf(img: Rgb | Raster): Sharp {
  const r = rasterOf(img);
  return sharp(bufferOf(r.data), { raw: { width: r.w, height: r.h, channels: r.channels }, limitInputPixels: false });
}

export interface EncodeOptions {
  /** JPEG quality (ignored for PNG) */
  quality?: number;
  /** a separate alpha plane (w×h bytes) joined to RGB pixels: the result is RGBA */
  alpha?: Uint8Array;
}

/** The one encoder of engine results: PNG level 6, or JPEG 4:4:4 without mozjpeg at `quality` (92). */
export async function encode(img: Rgb | Raster, format: ImageFormat, opts: EncodeOptions = {}): Promise<Buffer> {
  const r = rasterOf(img);
  let s = sharpOf(r);
  if (r.channels === 1) s = s.toColourspace('srgb');
  if (opts.alpha) s = s.joinChannel(bufferOf(opts.alpha), { raw: { width: r.w, height: r.h, channels: 1 } });
  return format === 'png'
    ? s.png({ compressionLevel: 6 }).toBuffer()
    : s.jpeg({ quality: opts.quality ?? 92, mozjpeg: false, chromaSubsampling: '4:4:4' }).toBuffer();
}

/** What an engine's pixel work returns to `runOnRgb`. */
export interface PixelsOut extends EncodeOptions {
  image: Rgb | Raster;
  /** the engine's own result format (matting: always PNG); otherwise ctx.output */
  format?: ImageFormat;
  extras?: Record<string, EngineExtra>;
  enlargePath?: EngineResult['enlargePath'];
}

/**
 * The frame every pixel engine shares: decode the input to RGB, run the engine's work on it,
 * encode the result once as ctx.output asks (lossless PNG between workflow steps) and report done.
 */
export async function runOnRgb(
  input: EngineImage,
  ctx: EngineContext,
  work: (img: Rgb) => PixelsOut | Promise<PixelsOut>,
): Promise<EngineResult> {
  sharp.concurrency(ctx.threads);
  const out = await work(await decodeRgb(input.data));
  const format = out.format ?? ctx.output;
  const data = await encode(out.image, format, out);
  ctx.onProgress(1);
  return {
    data,
    format,
    width: out.image.w,
    height: out.image.h,
    ...(out.extras ? { extras: out.extras } : {}),
    ...(out.enlargePath ? { enlargePath: out.enlargePath } : {}),
  };
}

/** Resize planes with sharp (Lanczos3). */
export async function resizeRgb(
  img: Rgb,
  w: number,
  h: number,
  kernel: 'lanczos3' | 'cubic' | 'nearest' | 'linear' = 'lanczos3',
): Promise<Rgb> {
  const { data, info } = await sharpOf(img)
    .resize(w, h, { kernel, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export function psnr(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    se += d * d;
  }
  const mse = se / a.length;
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

/** Mean SSIM on luma with 8×8 box windows (good enough to rank methods). */
export function ssim(a: Rgb, b: Rgb): number {
  const x = luma(a),
    y = luma(b);
  const { w, h } = a;
  const mx = boxMean(x, w, h, 4),
    my = boxMean(y, w, h, 4);
  const xx = new Float32Array(x.length),
    yy = new Float32Array(x.length),
    xy = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    xx[i] = x[i]! * x[i]!;
    yy[i] = y[i]! * y[i]!;
    xy[i] = x[i]! * y[i]!;
  }
  const sxx = boxMean(xx, w, h, 4),
    syy = boxMean(yy, w, h, 4),
    sxy = boxMean(xy, w, h, 4);
  const c1 = (0.01 * 255) ** 2,
    c2 = (0.03 * 255) ** 2;
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    const vx = sxx[i]! - mx[i]! ** 2,
      vy = syy[i]! - my[i]! ** 2,
      cv = sxy[i]! - mx[i]! * my[i]!;
    s += ((2 * mx[i]! * my[i]! + c1) * (2 * cv + c2)) / ((mx[i]! ** 2 + my[i]! ** 2 + c1) * (vx + vy + c2));
  }
  return s / x.length;
}

/** Deterministic Gaussian noise (seeded), for grain and tests. */
export function gaussianNoise(n: number, sigma: number, seed = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  for (let i = 0; i < n; i += 2) {
    const u = rnd(),
      v = rnd();
    const m = Math.sqrt(-2 * Math.log(u)) * sigma;
    out[i] = m * Math.cos(2 * Math.PI * v);
    if (i + 1 < n) out[i + 1] = m * Math.sin(2 * Math.PI * v);
  }
  return out;
}

/**
 * Blockiness at block size `b`: mean absolute luma step across block boundaries (every b-th
 * column/row edge, phase 0) divided by the mean step inside blocks. ≈ 1 for natural images and
 * for smooth interpolation; a nearest-neighbour mosaic of b×b blocks gives ≫ 1.
 */
export function blockiness(img: Rgb, b: number): number {
  const y = luma(img);
  const { w, h } = img;
  let edge = 0,
    ne = 0,
    inner = 0,
    ni = 0;
  for (let r = 0; r < h; r++)
    for (let x = 1; x < w; x++) {
      const d = Math.abs(y[r * w + x]! - y[r * w + x - 1]!);
      if (x % b === 0) {
        edge += d;
        ne++;
      } else {
        inner += d;
        ni++;
      }
    }
  for (let r = 1; r < h; r++)
    for (let x = 0; x < w; x++) {
      const d = Math.abs(y[r * w + x]! - y[(r - 1) * w + x]!);
      if (r % b === 0) {
        edge += d;
        ne++;
      } else {
        inner += d;
        ni++;
      }
    }
  return ne && ni && inner > 0 ? edge / ne / (inner / ni) : 1;
}

/** Separable min (erode) or max (dilate) over a (2r+1)² square. */
export function morph(src: Float32Array, w: number, h: number, r: number, op: 'min' | 'max'): Float32Array {
  const f = op === 'min' ? Math.min : Math.max;
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let v = src[row + x]!;
      for (let k = Math.max(0, x - r), e = Math.min(w - 1, x + r); k <= e; k++) v = f(v, src[row + k]!);
      tmp[row + x] = v;
    }
  }
  for (let y = 0; y < h; y++) {
    const a = Math.max(0, y - r),
      b = Math.min(h - 1, y + r);
    for (let x = 0; x < w; x++) {
      let v = tmp[y * w + x]!;
      for (let k = a; k <= b; k++) v = f(v, tmp[k * w + x]!);
      out[y * w + x] = v;
    }
  }
  return out;
}
