/**
 * Today's engine before the v2 nets, for same-run comparisons in `npm run bench` and `npm run quality
 * -- papers`: the 48 × 8 x2 net and the 48/64/96 denoiser trained on the CPU, read from git history
 * (V1_COMMIT) into a temp folder — never shipped — and run the way enlarge and denoise ran them at their
 * default params: x2 passes chained (4x = x2·x2, 8x = x2·x2·x2, 6x = x2·x2 + Lanczos ×1.5, a pass on
 * Lanczos when the old plan of 6 s per input MP passed 120 s), the on-device tiling, the detail gain and
 * pre-denoise of the same settings rule; denoise through denoiseWithNet on the old file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { netUpscale } from '../server/engines/netRunners.js';
import { denoiseWithNet } from '../server/engines/denoise.js';
import { resizeRgb, type Rgb } from '../server/engines/image.js';
import { enlargeSettings, keepDetail, postSharpen, preDenoise } from '../src/shared/imaging/enlargeSteps.js';
import { defaultParams } from '../src/shared/domain/modules.js';
import { SR_TILE } from '../src/shared/imaging/netFiles.js';

/** The last commit whose engines ran the v1 nets. */
export const V1_COMMIT = '03b7a08';
const ROOT = path.resolve(import.meta.dirname, '..');

/** Absolute paths of the v1 files, taken out of git history once per machine. */
export function v1Files(): { x2: string; denoise: string } {
  const dir = path.join(os.tmpdir(), `pixmill-v1-nets-${V1_COMMIT}`);
  mkdirSync(dir, { recursive: true });
  const get = (name: string) => {
    const out = path.join(dir, name);
    if (!existsSync(out))
      writeFileSync(
        out,
        execFileSync('git', ['show', `${V1_COMMIT}:server/engines/weights/${name}`], {
          cwd: ROOT,
          maxBuffer: 64 << 20,
        }),
      );
    return out;
  };
  return { x2: get('pixmill-sr-x2-v1.onnx'), denoise: get('pixmill-denoise-v1.onnx') };
}

/** Enlarge as the engine ran it with the v1 x2 net, at the module's default params. */
export async function v1Enlarge(img: Rgb, scale: 2 | 4 | 6 | 8, modelsDir: string, threads: number): Promise<Rgb> {
  const s = enlargeSettings({ ...defaultParams('enlarge'), scale }, img);
  const passes = { 2: 1, 4: 2, 6: 2, 8: 3 }[scale];
  const nets = { scale: 2 as const, nets: [{ file: v1Files().x2, weight: 1 }], tile: SR_TILE };
  let x = preDenoise(img, s.preDenoise);
  let spent = 0;
  for (let i = 0; i < passes; i++) {
    const cost = (6 * x.w * x.h) / 1e6;
    const lo = x;
    if (spent + cost <= 120) {
      spent += cost;
      x = keepDetail(await netUpscale(x, nets, modelsDir, threads), lo, 2, s.detailGain);
    } else x = await resizeRgb(x, x.w * 2, x.h * 2, 'lanczos3');
  }
  if (x.w !== img.w * scale) x = await resizeRgb(x, img.w * scale, img.h * scale, 'lanczos3');
  return postSharpen(x, s.postSharpen, scale);
}

/** Denoise as the engine ran it with the v1 net, at the module's default params. */
export function v1Denoise(img: Rgb, modelsDir: string, threads: number): Promise<Rgb> {
  const p = defaultParams('denoise');
  return denoiseWithNet(
    img,
    {
      removeNoise: p.remove_noise,
      sharpen: p.sharpen,
      removeOriginalDetail: p.remove_original_detail,
      autoparams: p.autoparams,
    },
    modelsDir,
    threads,
    () => {},
    v1Files().denoise,
  );
}
