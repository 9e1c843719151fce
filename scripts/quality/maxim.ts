/**
 * Quality section for the MAXIM engines: synthetic degradations of held-out photos, each restored
 * in one run by the plain baseline (the degraded picture itself), the classical engine and the
 * neural (MAXIM) engine; PSNR (dB) / SSIM against the original.
 *  - retouch: colour cast + faded contrast → perfect classical vs MAXIM retouching
 *  - low light (se-night): gamma-darkened + Poisson-Gaussian noise → denoise then classical
 *    perfect vs denoise then MAXIM low-light enhancement
 *  - denoise: σ = 15 / 25 Gaussian and signal-dependent noise → NLM vs MAXIM denoising (tiled)
 *  - deblur: Gaussian σ 1.2 + 7 px horizontal motion blur → sharpen_auto (classical only: MAXIM
 *    deblurring is not installed, see the engines README)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import {
  decodeRgb,
  fromPlanes,
  gaussianBlur,
  gaussianNoise,
  psnr,
  ssim,
  toPlanes,
  type Rgb,
} from '../../server/engines/image.js';
import { perfectRgb } from '../../server/engines/perfect.js';
import { denoiseRgb } from '../../server/engines/denoise.js';
import { maximTiled, maximTone } from '../../server/engines/maxim.js';
import { autoSharpenRgb } from '../../server/engines/sharpenAuto.js';
import { MODELS_DIR } from '../../tests/support/engines.js';

export interface SheetRow {
  label: string;
  input: Buffer;
  output: Buffer;
  /** optional third image (classical result), shown between input and output */
  middle?: Buffer;
}

const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10000) / 10000;
const score = (out: Rgb, ref: Rgb) => ({ psnr: r2(psnr(out.data, ref.data)), ssim: r4(ssim(out, ref)) });
const pngOf = (img: Rgb) =>
  sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.w, height: img.h, channels: 3 },
  })
    .png()
    .toBuffer();
const map = (img: Rgb, f: (v: number, c: number, i: number) => number): Rgb => ({
  ...img,
  data: Uint8Array.from(img.data, (v, i) => Math.max(0, Math.min(255, Math.round(f(v, i % 3, i))))),
});

/** Seeded Poisson sampler (Knuth for small means, normal approximation above 30). */
function poisson(mean: number, rnd: () => number): number {
  if (mean > 30) {
    const u = Math.max(1e-12, rnd()),
      v = rnd();
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)));
  }
  const L = Math.exp(-mean);
  let k = 0,
    p = 1;
  do {
    k++;
    p *= rnd();
  } while (p > L);
  return k - 1;
}
function lcg(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) + 0.5) / 0x80000000;
}

export const degrade = {
  /** warm cast (R×1.12, B×0.82) and contrast faded to 65 % around a raised black */
  castFade: (img: Rgb) => map(img, (v, c) => 30 + 0.65 * v * [1.12, 1, 0.82][c]!),
  /** gamma 2 and ×0.45 exposure, then Poisson (peak 60 photo-electrons at white) + Gaussian σ 2/255 read noise */
  lowLight: (img: Rgb, seed = 3) => {
    const rnd = lcg(seed);
    const n = gaussianNoise(img.data.length, 2, seed + 1);
    return map(img, (v, _c, i) => {
      const x = 0.45 * (v / 255) ** 2;
      return (255 * poisson(x * 60, rnd)) / 60 + n[i]!;
    });
  },
  gaussian: (img: Rgb, sigma: number, seed = 5) => {
    const n = gaussianNoise(img.data.length, sigma, seed);
    return map(img, (v, _c, i) => v + n[i]!);
  },
  /** signal-dependent: σ² = 4 + 0.12·v (shot-noise-like, σ ≈ 6 at v = 255 ... ) */
  /** Gaussian σ 1.2, then a 7 px horizontal box (camera shake) */
  blur: (img: Rgb) => {
    const p = toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, 1.2));
    const out = p.map((c) => {
      const o = new Float32Array(c.length);
      for (let y = 0; y < img.h; y++)
        for (let x = 0; x < img.w; x++) {
          let s = 0;
          for (let k = -3; k <= 3; k++) s += c[y * img.w + Math.min(img.w - 1, Math.max(0, x + k))]!;
          o[y * img.w + x] = s / 7;
        }
      return o;
    });
    return fromPlanes(out, img.w, img.h);
  },
  signalDependent: (img: Rgb, seed = 7) => {
    const n = gaussianNoise(img.data.length, 1, seed);
    return map(img, (v, _c, i) => v + Math.sqrt(4 + 0.6 * v) * n[i]!);
  },
};

export async function maximQuality(fixtures: string, threads: number, log: (s: string) => void = () => {}) {
  const load = async (f: string, width: number, height?: number) =>
    decodeRgb(
      await sharp(readFileSync(path.join(fixtures, f)))
        .rotate()
        .resize({ width, ...(height ? { height, fit: 'cover' as const } : {}) })
        .png()
        .toBuffer(),
    );
  const results: Record<string, unknown[]> = { retouch: [], low_light: [], denoise: [], deblur: [] };
  const sheet: SheetRow[] = [];
  const photos = ['Storm.jpg', 'YellowFlower.jpg', 'rocket.jpg', 'GreenMeadow.jpg'];

  for (const f of photos) {
    const ref = await load(f, 512);
    const bad = degrade.castFade(ref);
    const classical = perfectRgb(bad);
    const neural = await maximTone(bad, 'retouching', MODELS_DIR, threads);
    results.retouch!.push({
      image: f,
      baseline: score(bad, ref),
      classical: score(classical, ref),
      neural: score(neural, ref),
    });
    log(`retouch ${f} done`);
    if (f === photos[0])
      sheet.push({
        label: 'retouch: cast+fade | perfect classical | MAXIM',
        input: await pngOf(bad),
        middle: await pngOf(classical),
        output: await pngOf(neural),
      });
  }

  const night = { remove_noise: 75, sharpen: 75, remove_original_detail: 0 };
  for (const f of photos) {
    const ref = await load(f, 512);
    const dark = degrade.lowLight(ref);
    const denoised = denoiseRgb(dark, {
      removeNoise: night.remove_noise,
      sharpen: night.sharpen,
      removeOriginalDetail: 0,
      autoparams: false,
    });
    const classical = perfectRgb(denoised);
    const neural = await maximTone(denoised, 'enhancement', MODELS_DIR, threads);
    const neuralFirst = denoiseRgb(await maximTone(dark, 'enhancement', MODELS_DIR, threads), {
      removeNoise: night.remove_noise,
      sharpen: night.sharpen,
      removeOriginalDetail: 0,
      autoparams: false,
    });
    results.low_light!.push({
      image: f,
      baseline: score(dark, ref),
      classical_denoise_perfect: score(classical, ref),
      neural_denoise_enhance: score(neural, ref),
      neural_enhance_denoise: score(neuralFirst, ref),
    });
    log(`low light ${f} done`);
    if (f === photos[0])
      sheet.push({
        label: 'se-night: dark+noise | classical | MAXIM',
        input: await pngOf(dark),
        middle: await pngOf(classical),
        output: await pngOf(neural),
      });
  }

  // denoise on one 256×256 tile per picture (MAXIM-3S costs ~1.5× the 2-stage models per pixel)
  for (const f of ['GreenMeadow.jpg', 'coffee.png']) {
    const ref = await load(f, 256, 256);
    for (const [name, noisy] of [
      ['gaussian15', degrade.gaussian(ref, 15)],
      ['gaussian25', degrade.gaussian(ref, 25)],
      ['signal_dependent', degrade.signalDependent(ref)],
    ] as const) {
      const classical = denoiseRgb(noisy, { removeNoise: 75, sharpen: 0, removeOriginalDetail: 0, autoparams: false });
      const neural = await maximTiled(noisy, 'denoising', MODELS_DIR, threads);
      results.denoise!.push({
        image: f,
        noise: name,
        baseline: score(noisy, ref),
        classical: score(classical, ref),
        neural: score(neural, ref),
      });
      log(`denoise ${f} ${name} done`);
      if (f === 'coffee.png' && name === 'gaussian25')
        sheet.push({
          label: 'denoise σ25: noisy | NLM | MAXIM',
          input: await pngOf(noisy),
          middle: await pngOf(classical),
          output: await pngOf(neural),
        });
    }
  }
  for (const f of photos) {
    const ref = await load(f, 512);
    const soft = degrade.blur(ref);
    results.deblur!.push({
      image: f,
      baseline: score(soft, ref),
      classical_sharpen_auto: score(autoSharpenRgb(soft).out, ref),
    });
  }
  return { results, sheet };
}

/** input | classical | neural rows, each picture fitted to `cell` px, plus a 1:1 crop row of each. */
export async function writeMaximSheet(rows: SheetRow[], file: string, cell = 340) {
  const gap = 6;
  const cols = 3;
  const W = cols * cell + (cols + 1) * gap;
  const H = rows.length * 2 * (cell + gap) + gap;
  const comps: OverlayOptions[] = [];
  for (const [i, r] of rows.entries()) {
    const imgs = [r.input, r.middle ?? r.input, r.output];
    for (const [j, buf] of imgs.entries()) {
      const left = gap + j * (cell + gap);
      const fit = await sharp(buf).resize(cell, cell, { fit: 'contain', background: '#808080' }).png().toBuffer();
      comps.push({ input: fit, left, top: gap + 2 * i * (cell + gap) });
      const meta = await sharp(buf).metadata();
      const cw = Math.min(cell, meta.width!),
        ch = Math.min(cell, meta.height!);
      const crop = await sharp(buf)
        .extract({
          left: Math.floor((meta.width! - cw) / 2),
          top: Math.floor((meta.height! - ch) / 2),
          width: cw,
          height: ch,
        })
        .png()
        .toBuffer();
      comps.push({ input: crop, left, top: gap + (2 * i + 1) * (cell + gap) });
    }
  }
  await sharp({ create: { width: W, height: H, channels: 3, background: '#202020' } })
    .composite(comps)
    .png()
    .toFile(file);
}

/** The section `npm run quality` calls: measures, writes bench/results/quality-maxim.png, returns the figures. */
export async function maximSection(root: string, threads: number): Promise<Record<string, unknown[]>> {
  const { results, sheet } = await maximQuality(path.join(root, 'tests', 'fixtures'), threads, (s) =>
    console.log(`maxim: ${s}`),
  );
  await writeMaximSheet(sheet, path.join(root, 'bench', 'results', 'quality-maxim.png'));
  return results;
}
