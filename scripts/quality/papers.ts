/**
 * The papers' benchmarks, measured their way, through the engines at the module's default params:
 *  - enlarge x2 / x4 on Set5, Set14, Urban100: colour HR → modcrop → MATLAB bicubic downscale →
 *    enlarge → PSNR on Y, `scale` border pixels shaved (matlabResize.ts); beside MATLAB bicubic
 *    (Set5 x2 must read 33.66–33.69 dB) and the previous engine (ESRGAN-slim passes + back-projection,
 *    its default pre-denoise and post-sharpen), in the same run.
 *  - denoise on CBSD68 at σ = 15 / 25 / 50: x + σ·N(0,1) with a fixed seed, rounded and clipped to 8 bits,
 *    RGB PSNR over the whole image; beside the previous classical engine (NLM, its defaults).
 *  - sharpen_auto on CBSD68 blurred by a Gaussian of σ = 1.6 (RGB PSNR); beside the previous classical engine.
 * The sets are read at run time from QUALITY_BENCH_DIR (folders Set5 / CSet5, Set14 / CSet14,
 * Urban100 / CUrban100, CBSD68; PNG); they are never committed and never trained or tuned on.
 * Without QUALITY_BENCH_DIR the section says so and is skipped.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModule } from '../../server/engines/registry.js';
import { fromRgb, MODELS_DIR } from '../../tests/support/engines.js';
import type { EngineContext } from '../../server/engines/types.js';
import { decodeRgb, fromPlanes, gaussianBlur, gaussianNoise, psnr, toPlanes, type Rgb } from '../../server/engines/image.js';
import { denoiseRgb } from '../../server/engines/denoise.js';
import { autoSharpenRgb } from '../../server/engines/sharpenAuto.js';
import { upscaleTiled } from '../../server/engines/esrgan.js';
import { backProject, postSharpen, preDenoise } from '../../src/shared/imaging/enlargeSteps.js';
import { matlabResize, modcrop, psnrY } from './matlabResize.js';

const r2 = (v: number) => Math.round(v * 100) / 100;
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);

function setDir(root: string, name: string): string | undefined {
  for (const d of [name, `C${name}`]) if (existsSync(path.join(root, d))) return path.join(root, d);
  return undefined;
}

async function readSet(dir: string, limit = Infinity): Promise<{ name: string; img: Rgb }[]> {
  const files = readdirSync(dir).filter((f) => /\.(png|bmp|jpe?g|tif)$/i.test(f)).sort().slice(0, limit);
  return Promise.all(files.map(async (f) => ({ name: f, img: await decodeRgb(await sharp(path.join(dir, f)).toColourspace('srgb').removeAlpha().png().toBuffer()) })));
}

/** Today's engine before our nets: ESRGAN-slim x2 passes, back-projection, its pre-denoise (75 × 0.6) and post-sharpen (75), as it ran at the defaults. */
async function previousEnlarge(lo: Rgb, scale: 2 | 4, threads: number): Promise<Rgb> {
  const clean = preDenoise(lo, 75 * 0.6);
  let x = clean;
  for (let f = 1; f < scale; f *= 2) x = await upscaleTiled(x, 'slim', 2, MODELS_DIR, threads);
  return postSharpen(backProject(x, clean, scale), 75, scale);
}

export async function papersSection(ctx: EngineContext, opts: { urban100Limit?: number } = {}): Promise<Record<string, unknown>> {
  const root = process.env.QUALITY_BENCH_DIR;
  if (!root || !existsSync(root)) return { skipped: 'QUALITY_BENCH_DIR is not set to a folder with Set5 / Set14 / Urban100 / CBSD68' };
  const out: Record<string, unknown> = {};
  const run = async (m: 'enlarge' | 'denoise' | 'sharpen_auto', img: Rgb, p: Record<string, unknown>) => decodeRgb((await runModule(m, await fromRgb(img), p, ctx)).data);

  for (const [set, limit] of [['Set5', Infinity], ['Set14', Infinity], ['Urban100', opts.urban100Limit ?? Infinity]] as const) {
    const dir = setDir(root, set);
    if (!dir) continue;
    const imgs = await readSet(dir, limit);
    for (const scale of [2, 4] as const) {
      const rows = { bicubic: [] as number[], previous: [] as number[], pixmill: [] as number[], pixmill_best: [] as number[] };
      for (const { img } of imgs) {
        const hr = modcrop(img, scale);
        const lr = matlabResize(hr, 1 / scale);
        rows.bicubic.push(psnrY(matlabResize(lr, scale), hr, scale));
        rows.pixmill.push(psnrY(await run('enlarge', lr, { scale }), hr, scale));
        if (set === 'Set5') rows.pixmill_best.push(psnrY(await run('enlarge', lr, { scale, quality: 'best' }), hr, scale));
        if (set !== 'Urban100') rows.previous.push(psnrY(await previousEnlarge(lr, scale, ctx.threads), hr, scale));
      }
      out[`${set}_x${scale}`] = Object.fromEntries(Object.entries(rows).filter(([, v]) => v.length).map(([k, v]) => [k, r2(mean(v))]));
      console.log(set, `x${scale}`, JSON.stringify(out[`${set}_x${scale}`]));
    }
  }

  const cb = setDir(root, 'BSD68');
  if (cb) {
    const imgs = await readSet(cb);
    for (const sigma of [15, 25, 50]) {
      const rows = { noisy: [] as number[], previous: [] as number[], pixmill: [] as number[] };
      for (const [i, { img }] of imgs.entries()) {
        const n = gaussianNoise(img.data.length, sigma, 1000 + i);
        const noisy = { ...img, data: Uint8Array.from(img.data, (v, k) => Math.max(0, Math.min(255, Math.round(v + n[k]!)))) };
        rows.noisy.push(psnr(noisy.data, img.data));
        rows.pixmill.push(psnr((await run('denoise', noisy, {})).data, img.data));
        rows.previous.push(psnr(denoiseRgb(noisy, { removeNoise: 75, sharpen: 75, removeOriginalDetail: 0, autoparams: false }).data, img.data));
      }
      out[`CBSD68_sigma${sigma}`] = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, r2(mean(v))]));
      console.log('CBSD68', `σ${sigma}`, JSON.stringify(out[`CBSD68_sigma${sigma}`]));
    }
    const rows = { blurred: [] as number[], previous: [] as number[], sharpen_auto: [] as number[] };
    for (const { img } of imgs) {
      const soft = fromPlanes(toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, 1.6)), img.w, img.h);
      rows.blurred.push(psnr(soft.data, img.data));
      rows.previous.push(psnr(autoSharpenRgb(soft).out.data, img.data));
      rows.sharpen_auto.push(psnr((await run('sharpen_auto', soft, {})).data, img.data));
    }
    out.CBSD68_blur1_6 = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, r2(mean(v))]));
    console.log('CBSD68 blur 1.6', JSON.stringify(out.CBSD68_blur1_6));
  }
  return out;
}
