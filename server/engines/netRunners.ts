/**
 * Our own restoration nets (trained by scripts/train/restore_nets.py; data, steps and machine in
 * weights/README.md) on onnxruntime-node: the x2 enlarge net, the blind denoiser and the deblur net. Every graph
 * takes planar RGB 0..255 and gives planar RGB 0..255, so they run through the shared tiling
 * (src/shared/imaging/tiles.ts) exactly as the on-device enlarge does.
 */
import * as ort from 'onnxruntime-node';
import { session } from './models.js';
import type { Rgb } from './image.js';
import { OWN_NET_FILES, SR_TILE, DENOISE_TILE, ensembleTransforms, padToMultiple, type Transform } from '../../src/shared/imaging/netFiles.js';
import { upscaleTiled, type RunTile } from '../../src/shared/imaging/tiles.js';

export { OWN_NET_FILES };

async function runner(modelsDir: string, file: string, threads: number, scale: number, multiple = 1): Promise<RunTile> {
  const sess = await session(modelsDir, file, threads);
  return async (input, tw, th) => {
    const { data, pw, ph } = padToMultiple(input, tw, th, multiple);
    const out = (await sess.run({ input: new ort.Tensor('float32', data, [1, 3, ph, pw]) })).output!.data as Float32Array;
    if (pw === tw && ph === th) return out;
    // crop the padded result back to the tile
    const W = tw * scale, H = th * scale, PW = pw * scale, PH = ph * scale;
    const crop = new Float32Array(3 * W * H);
    for (let c = 0; c < 3; c++) for (let y = 0; y < H; y++) crop.set(out.subarray(c * PW * PH + y * PW, c * PW * PH + y * PW + W), c * W * H + y * W);
    return crop;
  };
}

/** Mirrors / transposes an RGB image: each op is its own inverse, so the reversed list undoes it. */
function applyOps(img: Rgb, ops: readonly Transform[]): Rgb {
  let cur = img;
  for (const op of ops) {
    const { w, h, data } = cur;
    const W = op === 't' ? h : w, H = op === 't' ? w : h;
    const out = new Uint8Array(data.length);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const [sx, sy] = op === 't' ? [y, x] : op === 'fx' ? [w - 1 - x, y] : [x, h - 1 - y];
        const si = (sy * w + sx) * 3, di = (y * W + x) * 3;
        out[di] = data[si]!;
        out[di + 1] = data[si + 1]!;
        out[di + 2] = data[si + 2]!;
      }
    cur = { w: W, h: H, data: out };
  }
  return cur;
}

/**
 * Enlarges by 2 with our net. `ensemble` > 1 averages the net's output over that many
 * flips/transposes of the input (the papers' self-ensemble: ~+0.1 dB for that many times the time).
 */
export async function netUpscale(img: Rgb, scale: 2, modelsDir: string, threads: number, onProgress: (f: number) => void = () => {}, ensemble = 1): Promise<Rgb> {
  const run = await runner(modelsDir, OWN_NET_FILES.x2, threads, scale);
  const ts = ensembleTransforms(ensemble);
  let acc: Float32Array | undefined;
  let out: Rgb | undefined;
  for (const [i, t] of ts.entries()) {
    const up = applyOps(await upscaleTiled(applyOps(img, t), scale, run, (f) => onProgress((i + f) / ts.length), SR_TILE), [...t].reverse());
    if (ts.length === 1) return up;
    acc ??= new Float32Array(up.data.length);
    for (let k = 0; k < acc.length; k++) acc[k]! += up.data[k]!;
    out = up;
  }
  const data = new Uint8Array(acc!.length);
  for (let k = 0; k < data.length; k++) data[k] = Math.round(acc![k]! / ts.length);
  return { w: out!.w, h: out!.h, data };
}

/** A same-size net's estimate of the clean picture (sides padded to the U-Net's multiple of 8 per tile). */
async function netRestore(file: string, img: Rgb, modelsDir: string, threads: number, onProgress: (f: number) => void): Promise<Rgb> {
  const run = await runner(modelsDir, file, threads, 1, 8);
  return upscaleTiled(img, 1, run, onProgress, DENOISE_TILE);
}

/** The blind denoiser's estimate of the clean picture. */
export function netDenoise(img: Rgb, modelsDir: string, threads: number, onProgress: (f: number) => void = () => {}): Promise<Rgb> {
  return netRestore(OWN_NET_FILES.denoise, img, modelsDir, threads, onProgress);
}

/** The deblur net's estimate of the sharp picture (Gaussian, defocus and motion blur; a sharp picture passes through). */
export function netDeblur(img: Rgb, modelsDir: string, threads: number, onProgress: (f: number) => void = () => {}): Promise<Rgb> {
  return netRestore(OWN_NET_FILES.deblur, img, modelsDir, threads, onProgress);
}
