/**
 * "Process on this device": enlarge 2x (the server engine's steps around our x2 net, tiled like the server), background removal
 * (IS-Net small, the server's pre/post-processing), compress (the browser's encoder). Results are files for the user only — nothing is uploaded, no credits are spent, the
 * server is not asked (see README "Offline"). Runs in the image worker.
 */
import { decodeImage } from '../canvasOps.js';
import { upscaleTiled, type Rgb } from './esrgan.js';
import { foregroundMask } from './matting.js';
import { encodePngRgba } from './png.js';
import { firstUseBytes, providerChoice, session, tensor, type Progress } from './models.js';
import { FEATURE_MODEL } from '../../src/shared/onDeviceModels.js';
import { decontaminate } from '../../src/shared/imaging/matte.js';
import type { OnDeviceEnlarge, OnDeviceFeature, OnDeviceOptions } from '../../src/shared/domain/onDevice.js';
import { defaultParams } from '../../src/shared/domain/modules.js';
import { enlargeSettings, keepDetail, postSharpen, preDenoise } from '../../src/shared/imaging/enlargeSteps.js';
import { OWN_NETS, SR_TILE } from '../../src/shared/imaging/netFiles.js';

export type { OnDeviceFeature, OnDeviceOptions };

export interface OnDeviceResult {
  blob: Blob;
  w: number;
  h: number;
  ms: number;
  backend: string;
}

/** What the first use of a feature downloads here (model + the chosen provider's runtime) and where it will run. */
export async function firstUse(feature: OnDeviceFeature): Promise<{ bytes: number; provider: string; reason: string }> {
  if (feature === 'compress') return { bytes: 0, provider: 'canvas', reason: "the browser's own encoder" };
  return firstUseBytes(FEATURE_MODEL[feature]);
}

async function pixels(blob: Blob): Promise<Rgb> {
  const bmp = await decodeImage(blob);
  const c = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = c.getContext('2d')!;
  ctx.drawImage(bmp, 0, 0);
  bmp.close();
  const rgba = ctx.getImageData(0, 0, c.width, c.height).data;
  const n = c.width * c.height;
  const data = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    data[i * 3] = rgba[i * 4]!;
    data[i * 3 + 1] = rgba[i * 4 + 1]!;
    data[i * 3 + 2] = rgba[i * 4 + 2]!;
  }
  return { w: c.width, h: c.height, data };
}

async function encodeRgb(img: Rgb, type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  const c = new OffscreenCanvas(img.w, img.h);
  const id = new ImageData(img.w, img.h);
  for (let i = 0, n = img.w * img.h; i < n; i++) {
    id.data[i * 4] = img.data[i * 3]!;
    id.data[i * 4 + 1] = img.data[i * 3 + 1]!;
    id.data[i * 4 + 2] = img.data[i * 3 + 2]!;
    id.data[i * 4 + 3] = 255;
  }
  c.getContext('2d')!.putImageData(id, 0, 0);
  return c.convertToBlob({ type, quality });
}

/** Where the models ran: 'webgpu', or WASM with SIMD (and threads when the page is cross-origin isolated). */
async function backend(): Promise<string> {
  if ((await providerChoice()).provider === 'webgpu') return 'webgpu';
  return globalThis.crossOriginIsolated ? 'wasm-simd-threads' : 'wasm-simd';
}

/**
 * Enlarge 2x as the server's engine runs it (src/shared/imaging/enlargeSteps.ts): the settings rule (autoparams
 * read the picture), pre-denoise → our x2 net with the server's own tiling (src/shared/imaging/tiles.ts,
 * SR_TILE) → the detail gain → luma post-sharpen, with the denoise/deblur the user picked (the module's
 * defaults when none are given). 'best' (the self-ensemble) stays a server feature.
 */
export async function enlarge2x(
  blob: Blob,
  onProgress: Progress = () => undefined,
  picked?: OnDeviceEnlarge,
): Promise<OnDeviceResult> {
  const sess = await session(OWN_NETS.x2Small, onProgress);
  const t0 = performance.now();
  const img = await pixels(blob);
  const s = enlargeSettings({ ...defaultParams('enlarge'), ...picked, scale: 2, quality: 'high' }, img);
  const clean = preDenoise(img, s.preDenoise);
  const up = await upscaleTiled(
    clean,
    2,
    async (input, tw, th) => {
      const res = await sess.run({ input: await tensor(input, [1, 3, th, tw]) });
      return res.output!.data as Float32Array;
    },
    (f) => onProgress({ phase: 'run', loaded: f, total: 1 }),
    SR_TILE,
  );
  const out = postSharpen(keepDetail(up, clean, 2, s.detailGain), s.postSharpen, 2);
  const ms = performance.now() - t0;
  return { blob: await encodeRgb(out, 'image/png'), w: out.w, h: out.h, ms, backend: await backend() };
}

/** IS-Net background removal → PNG with alpha at full size (the server's main output). */
export async function removeBackground(blob: Blob, onProgress: Progress = () => undefined): Promise<OnDeviceResult> {
  const img = await pixels(blob);
  const t0 = performance.now();
  const alpha = await foregroundMask(img, onProgress);
  // the same edge decontamination as the server's engine (src/shared/imaging/matte.ts)
  const fg = decontaminate(img, alpha);
  const ms = performance.now() - t0;
  const id = new ImageData(img.w, img.h);
  for (let i = 0, n = img.w * img.h; i < n; i++) {
    id.data[i * 4] = fg.data[i * 3]!;
    id.data[i * 4 + 1] = fg.data[i * 3 + 1]!;
    id.data[i * 4 + 2] = fg.data[i * 3 + 2]!;
    const a = alpha[i]!;
    id.data[i * 4 + 3] = a <= 0 ? 0 : a >= 255 ? 255 : Math.round(a);
  }
  // Unpremultiplied: an OffscreenCanvas would premultiply (and round) the colours of see-through pixels.
  const png = await encodePngRgba(id);
  return { blob: png, w: img.w, h: img.h, ms, backend: await backend() };
}

/** The browser's own encoder; like the server, never hands back a larger file than the input. */
export async function compress(blob: Blob, quality = 75): Promise<OnDeviceResult> {
  const t0 = performance.now();
  const bmp = await decodeImage(blob);
  const c = new OffscreenCanvas(bmp.width, bmp.height);
  c.getContext('2d')!.drawImage(bmp, 0, 0);
  bmp.close();
  const type = blob.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const out = await c.convertToBlob({ type, quality: quality / 100 });
  const best = out.size < blob.size ? out : blob;
  return { blob: best, w: c.width, h: c.height, ms: performance.now() - t0, backend: 'canvas' };
}
