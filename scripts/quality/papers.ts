/**
 * The papers' benchmarks, measured their way, through the engines at the module's default params:
 *  - enlarge x2 / x4 on Set5, Set14, Urban100 (its first 10 unless URBAN100_LIMIT says): colour HR →
 *    modcrop → MATLAB bicubic downscale → enlarge → PSNR on Y, `scale` border pixels shaved
 *    (matlabResize.ts); beside MATLAB bicubic (Set5 x2 must read 33.66–33.69 dB) and today's engine
 *    before the v2 nets (bench/v1Nets.ts: the v1 x2 net chained), in the same run; the mean mixed-net
 *    share the engine measured on the inputs (inputGrade.ts) is printed beside them.
 *  - hidden scenes: photos no net trained on and no test uses (the Debian originals of the held-out
 *    wallpapers, HIDDEN_SCENES), at 1024 px wide, the same protocol at x2, against bicubic.
 *  - denoise on CBSD68 at σ = 15 / 25 / 50: x + σ·N(0,1) with a fixed seed, rounded and clipped to 8 bits,
 *    RGB PSNR over the whole image (all 68, and the first 20 as ../shared/nets/README.md measured the raw
 *    nets); beside today's engine on the v1 denoiser.
 *  - sharpen_auto on CBSD68 blurred by a Gaussian of σ = 1.6 (RGB PSNR); beside the previous classical engine.
 * Then a table of every figure beside the papers' own (PAPERS). PAPERS_ONLY=sr / denoise runs one half. The sets are read at run time from
 * QUALITY_BENCH_DIR (folders Set5 / CSet5, Set14 / CSet14, Urban100 / CUrban100, CBSD68; PNG); they are
 * never committed and never trained or tuned on. Without QUALITY_BENCH_DIR the section says so and is skipped.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModule } from '../../server/engines/registry.js';
import { fromRgb, MODELS_DIR } from '../../tests/support/engines.js';
import type { EngineContext } from '../../server/engines/types.js';
import {
  decodeRgb,
  fromPlanes,
  gaussianBlur,
  gaussianNoise,
  luma,
  psnr,
  toPlanes,
  type Rgb,
} from '../../server/engines/image.js';
import { autoSharpenRgb } from '../../server/engines/sharpenAuto.js';
import { gradeInput, mixedShare } from '../../src/shared/imaging/inputGrade.js';
import { v1Denoise, v1Enlarge } from '../../bench/v1Nets.js';
import { matlabResize, modcrop, psnrY } from './matlabResize.js';

/** The papers' published figures (Y-PSNR for SR, RGB PSNR for CBSD68). */
export const PAPERS: Record<string, Record<string, number>> = {
  Set5_x2: { SRCNN: 36.66, VDSR: 37.53, EDSR: 38.11 },
  Set14_x2: { SRCNN: 32.42, VDSR: 33.03, EDSR: 33.92 },
  Set5_x4: { SRCNN: 30.48, VDSR: 31.35, EDSR: 32.46 },
  Set14_x4: { SRCNN: 27.5, VDSR: 28.01, EDSR: 28.8 },
  CBSD68_sigma15: { CBM3D: 33.52, DnCNN: 33.9, DRUNet: 34.3 },
  CBSD68_sigma25: { CBM3D: 30.71, DnCNN: 31.23, DRUNet: 31.69 },
  CBSD68_sigma50: { CBM3D: 27.38, DnCNN: 27.92, DRUNet: 28.51 },
};

/**
 * Hidden scenes: the full-size Debian originals of tests/fixtures/wallpapers/ that no test uses (the
 * nets' training left every one of them out: weights/README.md), read where the packages install them.
 */
export const HIDDEN_SCENES = [
  '/usr/share/backgrounds/picosdeeuropa_by_Aitzol_Berasategi.jpg',
  '/usr/share/backgrounds/life_by_Aitzol_Berasategi.jpg',
  '/usr/share/backgrounds/Dragonfly_by_Bolly.jpg',
  '/usr/share/backgrounds/mate/nature/Garden.jpg',
  '/usr/share/wallpapers/Kite/contents/images/2560x1600.jpg',
  '/usr/share/wallpapers/BytheWater/contents/images/2560x1600.jpg',
];

const r2 = (v: number) => Math.round(v * 100) / 100;
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);

/** The set's colour folder (CSet5) before its namesake (Set5 is the grey copy in the usual download). */
export function setDir(root: string, name: string): string | undefined {
  for (const d of [`C${name}`, name]) if (existsSync(path.join(root, d))) return path.join(root, d);
  return undefined;
}

export async function readSet(dir: string, limit = Infinity): Promise<{ name: string; img: Rgb }[]> {
  const files = readdirSync(dir)
    .filter((f) => /\.(png|bmp|jpe?g|tif)$/i.test(f))
    .sort()
    .slice(0, limit);
  return Promise.all(
    files.map(async (f) => ({
      name: f,
      img: await decodeRgb(await sharp(path.join(dir, f)).toColourspace('srgb').removeAlpha().png().toBuffer()),
    })),
  );
}

export async function papersSection(
  ctx: EngineContext,
  opts: { urban100Limit?: number } = {},
): Promise<Record<string, unknown>> {
  const root = process.env.QUALITY_BENCH_DIR;
  if (!root || !existsSync(root))
    return { skipped: 'QUALITY_BENCH_DIR is not set to a folder with Set5 / Set14 / Urban100 / CBSD68' };
  const out: Record<string, Record<string, number>> = {};
  const run = async (m: 'enlarge' | 'denoise' | 'sharpen_auto', img: Rgb, p: Record<string, unknown>) =>
    decodeRgb((await runModule(m, await fromRgb(img), p, ctx)).data);
  /** what the engine measures on a PNG input: the mixed-net share */
  const share = (img: Rgb) => mixedShare(gradeInput(new Uint8Array(0), luma(img), img.w, img.h));

  const sets: [string, string | undefined, number][] = [
    ['Set5', setDir(root, 'Set5'), Infinity],
    ['Set14', setDir(root, 'Set14'), Infinity],
    ['Urban100', setDir(root, 'Urban100'), opts.urban100Limit ?? 10],
  ];
  // PAPERS_ONLY=sr or =denoise runs one half (two processes share a loaded machine's cores better)
  const only = process.env.PAPERS_ONLY;
  for (const [set, dir, limit] of sets) {
    if (!dir || only === 'denoise') continue;
    const imgs = await readSet(dir, limit);
    for (const scale of [2, 4] as const) {
      const rows = {
        bicubic: [] as number[],
        v1: [] as number[],
        pixmill: [] as number[],
        pixmill_best: [] as number[],
        mixed_share: [] as number[],
      };
      for (const { img } of imgs) {
        const hr = modcrop(img, scale);
        const lr = matlabResize(hr, 1 / scale);
        rows.bicubic.push(psnrY(matlabResize(lr, scale), hr, scale));
        rows.pixmill.push(psnrY(await run('enlarge', lr, { scale }), hr, scale));
        rows.mixed_share.push(share(lr));
        if (set === 'Set5')
          rows.pixmill_best.push(psnrY(await run('enlarge', lr, { scale, quality: 'best' }), hr, scale));
        rows.v1.push(psnrY(await v1Enlarge(lr, scale, MODELS_DIR, ctx.threads), hr, scale));
      }
      out[`${set}_x${scale}`] = Object.fromEntries(
        Object.entries(rows)
          .filter(([, v]) => v.length)
          .map(([k, v]) => [k, r2(mean(v))]),
      );
      console.log(set, `x${scale}`, JSON.stringify(out[`${set}_x${scale}`]));
    }
  }

  // hidden scenes at x2: photos never trained on, downscaled to 1024 px wide as the HR
  {
    const rows = { bicubic: [] as number[], v1: [] as number[], pixmill: [] as number[], mixed_share: [] as number[] };
    for (const f of HIDDEN_SCENES.filter((f) => existsSync(f) && only !== 'denoise')) {
      const hr = modcrop(await decodeRgb(await sharp(f).resize(1024).removeAlpha().png().toBuffer()), 2);
      const lr = matlabResize(hr, 1 / 2);
      rows.bicubic.push(psnrY(matlabResize(lr, 2), hr, 2));
      rows.pixmill.push(psnrY(await run('enlarge', lr, { scale: 2 }), hr, 2));
      rows.v1.push(psnrY(await v1Enlarge(lr, 2, MODELS_DIR, ctx.threads), hr, 2));
      rows.mixed_share.push(share(lr));
    }
    if (rows.bicubic.length) {
      out.hidden_scenes_x2 = {
        ...Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, r2(mean(v))])),
        photos: rows.bicubic.length,
      };
      out.hidden_scenes_x2.gain_over_bicubic = r2(mean(rows.pixmill) - mean(rows.bicubic));
      out.hidden_scenes_x2.v1_gain_over_bicubic = r2(mean(rows.v1) - mean(rows.bicubic));
      console.log('hidden scenes x2', JSON.stringify(out.hidden_scenes_x2));
    }
  }

  const cb = setDir(root, 'BSD68');
  if (cb && only !== 'sr') {
    const imgs = await readSet(cb);
    for (const sigma of [15, 25, 50]) {
      const rows = { noisy: [] as number[], v1: [] as number[], pixmill: [] as number[] };
      for (const [i, { img }] of imgs.entries()) {
        const n = gaussianNoise(img.data.length, sigma, 1000 + i);
        const noisy = {
          ...img,
          data: Uint8Array.from(img.data, (v, k) => Math.max(0, Math.min(255, Math.round(v + n[k]!)))),
        };
        rows.noisy.push(psnr(noisy.data, img.data));
        rows.pixmill.push(psnr((await run('denoise', noisy, {})).data, img.data));
        rows.v1.push(psnr((await v1Denoise(noisy, MODELS_DIR, ctx.threads)).data, img.data));
      }
      out[`CBSD68_sigma${sigma}`] = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, r2(mean(v))]));
      out[`CBSD68_sigma${sigma}`]!.pixmill_first20 = r2(mean(rows.pixmill.slice(0, 20)));
      out[`CBSD68_sigma${sigma}`]!.v1_first20 = r2(mean(rows.v1.slice(0, 20)));
      console.log('CBSD68', `σ${sigma}`, JSON.stringify(out[`CBSD68_sigma${sigma}`]));
    }
    if (!process.env.PAPERS_SKIP_DEBLUR) {
      const rows = { blurred: [] as number[], previous: [] as number[], sharpen_auto: [] as number[] };
      for (const { img } of imgs) {
        const soft = fromPlanes(
          toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, 1.6)),
          img.w,
          img.h,
        );
        rows.blurred.push(psnr(soft.data, img.data));
        rows.previous.push(psnr(autoSharpenRgb(soft).out.data, img.data));
        rows.sharpen_auto.push(psnr((await run('sharpen_auto', soft, {})).data, img.data));
      }
      out.CBSD68_blur1_6 = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, r2(mean(v))]));
      console.log('CBSD68 blur 1.6', JSON.stringify(out.CBSD68_blur1_6));
    }
  }
  printTable(out);
  return out;
}

/** Every figure beside today's engine and the papers' own, as a markdown table. */
function printTable(out: Record<string, Record<string, number>>): void {
  const lines = [
    '| benchmark (dB) | bicubic / noisy | today (v1) | **Pixmill** (defaults) | Pixmill best | papers |',
    '|---|---|---|---|---|---|',
  ];
  for (const [k, v] of Object.entries(out)) {
    if (k === 'CBSD68_blur1_6') continue;
    const papers = Object.entries(PAPERS[k] ?? {})
      .map(([n, d]) => `${n} ${d}`)
      .join(', ');
    const first20 = v.pixmill_first20 !== undefined ? ` (first 20: ${v.pixmill_first20})` : '';
    lines.push(
      `| ${k.replace('_', ' ')} | ${v.bicubic ?? v.noisy} | ${v.v1 ?? ''} | **${v.pixmill}**${first20} | ${v.pixmill_best ?? ''} | ${papers} |`,
    );
  }
  console.log(lines.join('\n'));
}
