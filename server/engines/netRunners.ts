/**
 * Our own restoration nets (data, steps and machine in weights/README.md) on onnxruntime-node: the x2
 * and x4 enlarge nets (each a "clean" and a "mixed" variant, blended per photo), the blind denoiser and
 * the deblur net. Every graph
 * takes planar RGB 0..255 and gives planar RGB 0..255, so they run through the shared tiling
 * (src/shared/imaging/tiles.ts) exactly as the on-device enlarge does.
 */
import * as ort from 'onnxruntime-node';
import path from 'node:path';
import { externalSession, runFile, session } from './models.js';
import type { Rgb } from './image.js';
import {
  OWN_NET_FILES,
  SR_TILE_V2,
  DENOISE_TILE,
  ensembleTransforms,
  padToMultiple,
  type Transform,
} from '../../src/shared/imaging/netFiles.js';
import { upscaleTiled, type RunTile, type TileOptions } from '../../src/shared/imaging/tiles.js';

/** One or more nets of the same scale whose outputs are mixed with these weights (summing to 1). */
export interface SrNets {
  scale: 2 | 4;
  nets: readonly { file: string; weight: number }[];
  tile?: TileOptions;
  /** run the fp32 files even where an int8 version is kept (the device's twin on the server) */
  fp32?: boolean;
}

/** The server's x2 / x4 nets for a mixed-net share w (inputGrade.ts): the clean net alone near 0, the mixed one near 1, both blended between. */
export function srNets(scale: 2 | 4, w: number): SrNets {
  const [clean, mixed] =
    scale === 2 ? [OWN_NET_FILES.x2Clean, OWN_NET_FILES.x2] : [OWN_NET_FILES.x4Clean, OWN_NET_FILES.x4];
  const nets =
    w <= BLEND_EDGE
      ? [{ file: clean, weight: 1 }]
      : w >= 1 - BLEND_EDGE
        ? [{ file: mixed, weight: 1 }]
        : [
            { file: clean, weight: 1 - w },
            { file: mixed, weight: w },
          ];
  return { scale, nets, tile: SR_TILE_V2 };
}
/** Shares this close to 0 or 1 run one net: the blend would change the picture by under 2 % of the nets' difference. */
const BLEND_EDGE = 0.02;

async function runner(
  modelsDir: string,
  files: readonly { file: string; weight: number }[],
  threads: number,
  scale: number,
  multiple = 1,
  fp32 = false,
): Promise<RunTile> {
  // an absolute path is a file outside MODELS_DIR's list (the bench's and quality's earlier nets)
  // runFile: the net's int8 version where one is kept (models.ts, ENGINE_INT8)
  const open = (file: string) =>
    path.isAbsolute(file)
      ? externalSession(modelsDir, file, threads)
      : session(modelsDir, fp32 ? file : runFile(file), threads);
  const sessions = await Promise.all(files.map(async ({ file, weight }) => ({ sess: await open(file), weight })));
  return async (input, tw, th) => {
    const { data, pw, ph } = padToMultiple(input, tw, th, multiple);
    let out: Float32Array | undefined;
    for (const { sess, weight } of sessions) {
      const o = (await sess.run({ input: new ort.Tensor('float32', data, [1, 3, ph, pw]) })).output!
        .data as Float32Array;
      if (sessions.length === 1) out = o;
      else if (!out) out = o.map((v) => v * weight);
      else for (let k = 0; k < out.length; k++) out[k]! += weight * o[k]!;
    }
    if (pw === tw && ph === th) return out!;
    // crop the padded result back to the tile
    const W = tw * scale,
      H = th * scale,
      PW = pw * scale,
      PH = ph * scale;
    const crop = new Float32Array(3 * W * H);
    for (let c = 0; c < 3; c++)
      for (let y = 0; y < H; y++)
        crop.set(out!.subarray(c * PW * PH + y * PW, c * PW * PH + y * PW + W), c * W * H + y * W);
    return crop;
  };
}

/** Mirrors / transposes an RGB image: each op is its own inverse, so the reversed list undoes it. */
function applyOps(img: Rgb, ops: readonly Transform[]): Rgb {
  let cur = img;
  for (const op of ops) {
    const { w, h, data } = cur;
    const W = op === 't' ? h : w,
      H = op === 't' ? w : h;
    const out = new Uint8Array(data.length);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const [sx, sy] = op === 't' ? [y, x] : op === 'fx' ? [w - 1 - x, y] : [x, h - 1 - y];
        const si = (sy * w + sx) * 3,
          di = (y * W + x) * 3;
        out[di] = data[si]!;
        out[di + 1] = data[si + 1]!;
        out[di + 2] = data[si + 2]!;
      }
    cur = { w: W, h: H, data: out };
  }
  return cur;
}

/**
 * Enlarges by the nets' scale (one net or a blend, `srNets`). `ensemble` > 1 averages the output over
 * that many flips/transposes of the input (the papers' self-ensemble: ~+0.1 dB for that many times the time).
 */
export async function netUpscale(
  img: Rgb,
  nets: SrNets,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  ensemble = 1,
): Promise<Rgb> {
  const { scale } = nets;
  const run = await runner(modelsDir, nets.nets, threads, scale, 1, nets.fp32);
  const ts = ensembleTransforms(ensemble);
  let acc: Float32Array | undefined;
  let out: Rgb | undefined;
  for (const [i, t] of ts.entries()) {
    const up = applyOps(
      await upscaleTiled(applyOps(img, t), scale, run, (f) => onProgress((i + f) / ts.length), nets.tile ?? SR_TILE_V2),
      [...t].reverse(),
    );
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
async function netRestore(
  file: string,
  img: Rgb,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void,
): Promise<Rgb> {
  const run = await runner(modelsDir, [{ file, weight: 1 }], threads, 1, 8);
  return upscaleTiled(img, 1, run, onProgress, DENOISE_TILE);
}

/** The blind denoiser's estimate of the clean picture (`file`: another denoiser of the same contract, for bench comparisons). */
export function netDenoise(
  img: Rgb,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  file: string = OWN_NET_FILES.denoise,
): Promise<Rgb> {
  return netRestore(file, img, modelsDir, threads, onProgress);
}

/** The deblur net's estimate of the sharp picture (Gaussian, defocus and motion blur; a sharp picture passes through). */
export function netDeblur(
  img: Rgb,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
): Promise<Rgb> {
  return netRestore(OWN_NET_FILES.deblur, img, modelsDir, threads, onProgress);
}
