/**
 * Tiled ESRGAN inference on onnxruntime-node: the tiling, mirrored margins and cross-faded seams are
 * src/shared/imaging/tiles.ts (shared with the on-device enlarge); this file supplies the model call.
 */
import * as ort from 'onnxruntime-node';
import { esrganSession, type EsrganScale, type EsrganSize } from './esrganModels.js';
import type { Rgb } from '../../server/engines/image.js';
import { upscaleTiled as tiledUpscale, type RunTile, type TileOptions } from '../../src/shared/imaging/tiles.js';

export type { TileOptions };

export async function upscaleTiled(
  img: Rgb,
  size: EsrganSize,
  scale: EsrganScale,
  modelsDir: string,
  threads: number,
  onProgress: (f: number) => void = () => {},
  opts: TileOptions = {},
): Promise<Rgb> {
  const sess = await esrganSession(modelsDir, size, scale, threads);
  const runTile: RunTile = async (input, tw, th) =>
    (await sess.run({ input: new ort.Tensor('float32', input, [1, 3, th, tw]) })).output!.data as Float32Array;
  return tiledUpscale(img, scale, runTile, onProgress, opts);
}
