/**
 * `npm run quality`: measured quality of the engines on licensed images.
 *  - enlarge x2: downscale ×2, enlarge, PSNR/SSIM vs the original, against Lanczos
 *  - denoise: σ=25 Gaussian noise, PSNR gain against a Gaussian blur
 *  - sharpen: Gaussian blur σ=1.2, then sharpen / sharpen_auto, PSNR vs the blurred input
 *  - matting: alpha coverage (share of opaque/transparent pixels) on chelsea and coffee
 *  - the papers' benchmarks (Set5, Set14, Urban100, CBSD68 from QUALITY_BENCH_DIR): quality/papers.ts;
 *    `npm run quality -- papers` runs that section alone (URBAN100_LIMIT=n: the first n Urban100 images)
 *  - phone-like JPEGs (q 70–90) enlarged x2: blockiness and 1:1 crops beside today's engine:
 *    `npm run quality -- phone-jpeg` (quality/phoneJpeg.ts)
 *  - the int8 nets against fp32 on Set5 / Set14 / CBSD68 through the engines: `npm run quality -- int8` (quality/int8.ts)
 * Writes bench/results/quality.json and bench/results/quality-sheet.png (input | output per engine).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { runModule } from '../server/engines/registry.js';
import { ctx as engineContext, fromRgb } from '../tests/support/engines.js';
import type { EngineImage } from '../server/engines/types.js';
import type { ModuleName, ModuleParams } from '../src/shared/domain/modules.js';
import { enlargePresetsQuality } from './quality/enlarge-presets.js';
import { faceColourCartoon } from './quality/face-colour-cartoon.js';
import { maximSection } from './quality/maxim.js';
import { papersSection } from './quality/papers.js';
import { cartoonRetouchSection } from './quality/cartoon-retouch.js';
import {
  decodeRgb,
  fromPlanes,
  gaussianBlur,
  gaussianNoise,
  psnr,
  resizeRgb,
  ssim,
  toPlanes,
  type Rgb,
} from '../server/engines/image.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'tests', 'fixtures');
const ctx = engineContext([], 'png', Number(process.env.ENGINE_THREADS || 2));

const png = (img: Rgb): Promise<EngineImage> => fromRgb(img, 'png');
const load = async (f: string, width?: number) =>
  decodeRgb(
    await sharp(readFileSync(path.join(fixtures, f)))
      .rotate()
      .resize(width ? { width } : undefined)
      .png()
      .toBuffer(),
  );
const run = async (m: ModuleName, img: Rgb, p: Partial<ModuleParams> = {}) => runModule(m, await png(img), p, ctx);
const blur = (img: Rgb, s: number) =>
  fromPlanes(
    toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, s)),
    img.w,
    img.h,
  );
const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10000) / 10000;

export async function quality() {
  const results: Record<string, unknown> = {};
  const sheet: { label: string; input: Buffer; output: Buffer }[] = [];

  // enlarge x2
  const enl: Record<string, unknown>[] = [];
  for (const f of ['motorcycle_left.png', 'astronaut.png', 'GreenMeadow.jpg']) {
    const hi = await load(f, 480);
    const W = hi.w - (hi.w % 2),
      H = hi.h - (hi.h % 2);
    const ref = await resizeRgb(hi, W, H);
    const lo = await resizeRgb(ref, W / 2, H / 2);
    const lanczos = await resizeRgb(lo, W, H);
    const row: Record<string, unknown> = {
      image: f,
      lanczos: { psnr: r2(psnr(lanczos.data, ref.data)), ssim: r4(ssim(lanczos, ref)) },
    };
    for (const q of ['high', 'best'] as const) {
      const out = await decodeRgb(
        (await run('enlarge', lo, { scale: 2, quality: q, suppress_noise: 0, remove_blur: 0 })).data,
      );
      row[q] = { psnr: r2(psnr(out.data, ref.data)), ssim: r4(ssim(out, ref)) };
      if (q === 'high' && f === 'motorcycle_left.png')
        sheet.push({ label: 'enlarge x2', input: (await png(lanczos)).data, output: (await png(out)).data });
    }
    const def = await decodeRgb((await run('enlarge', lo, { scale: 2 })).data);
    row.defaults = { psnr: r2(psnr(def.data, ref.data)), ssim: r4(ssim(def, ref)) };
    enl.push(row);
  }
  results.enlarge_x2 = enl;

  // denoise σ=25
  const dn: Record<string, unknown>[] = [];
  for (const f of ['GreenMeadow.jpg', 'coffee.png', 'astronaut.png']) {
    const ref = await load(f, 400);
    const n = gaussianNoise(ref.data.length, 25, 5);
    const noisy = {
      ...ref,
      data: Uint8Array.from(ref.data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))),
    };
    let bestBlur = 0;
    for (const s of [0.8, 1.2, 1.6, 2.0]) bestBlur = Math.max(bestBlur, psnr(blur(noisy, s).data, ref.data));
    const out = await decodeRgb((await run('denoise', noisy, { sharpen: 0 })).data);
    const outDef = await decodeRgb((await run('denoise', noisy)).data);
    dn.push({
      image: f,
      noisy: r2(psnr(noisy.data, ref.data)),
      best_gaussian_blur: r2(bestBlur),
      denoise_sharpen0: r2(psnr(out.data, ref.data)),
      denoise_defaults: r2(psnr(outDef.data, ref.data)),
      gain_vs_blur_db: r2(psnr(out.data, ref.data) - bestBlur),
    });
    if (f === 'coffee.png')
      sheet.push({ label: 'denoise σ=25', input: (await png(noisy)).data, output: (await png(out)).data });
  }
  results.denoise_sigma25 = dn;

  // sharpen
  const sh: Record<string, unknown>[] = [];
  for (const f of ['coffee.png', 'motorcycle_left.png']) {
    const ref = await load(f, 400);
    const soft = blur(ref, 1.2);
    const s1 = await decodeRgb((await run('sharpen', soft)).data);
    const s2 = await decodeRgb((await run('sharpen_auto', soft)).data);
    sh.push({
      image: f,
      blurred: r2(psnr(soft.data, ref.data)),
      sharpen_defaults: r2(psnr(s1.data, ref.data)),
      sharpen_auto: r2(psnr(s2.data, ref.data)),
    });
    if (f === 'motorcycle_left.png') {
      sheet.push({ label: 'sharpen_auto', input: (await png(soft)).data, output: (await png(s2)).data });
    }
  }
  results.sharpen_blur1_2 = sh;

  // matting
  const mt: Record<string, unknown>[] = [];
  for (const f of ['chelsea.png', 'coffee.png']) {
    const img = await load(f);
    const out = await run('matting', img);
    const { data, info } = await sharp(out.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    let opaque = 0,
      clear = 0,
      solid = 0;
    const n = info.width * info.height;
    for (let i = 0; i < n; i++) {
      const a = data[i * 4 + 3]!;
      if (a === 255) solid++;
      if (a > 240) opaque++;
      else if (a < 15) clear++;
    }
    // solid: fully opaque (α 255); α 241–254 passes for opaque here yet shows a checkerboard through it
    mt.push({
      image: f,
      opaque: r2(opaque / n),
      solid: r2(solid / n),
      transparent: r2(clear / n),
      partial: r2(1 - (opaque + clear) / n),
    });
    sheet.push({ label: `matting ${f}`, input: (await png(img)).data, output: out.extras!.white!.data });
  }
  results.matting = mt;

  for (const [m, f, p] of [
    ['colorize', 'camera.png', {}],
    ['portrait', 'astronaut.png', {}],
    ['cartoonize', 'chelsea.png', {}],
    ['face_enhancer', 'astronaut.png', {}],
    ['perfect', 'rocket.jpg', {}],
  ] as const) {
    const img = await load(f, 400);
    const out = await run(m, img, p);
    sheet.push({ label: m, input: (await png(img)).data, output: out.data });
  }
  Object.assign(results, await enlargePresetsQuality(sheet));
  await faceColourCartoon(root, ctx, results, sheet);
  results.cartoon_retouch = await cartoonRetouchSection(root, ctx, sheet);
  return { results, sheet };
}

async function writeSheet(rows: { label: string; input: Buffer; output: Buffer }[], file: string) {
  // two input|output pairs a row; a thin bar separates the pairs
  const cell = 300,
    gap = 6,
    perRow = 2;
  const lines = Math.ceil(rows.length / perRow);
  const W = perRow * (2 * cell + gap) + (perRow + 1) * gap * 2,
    H = lines * (cell + gap) + gap;
  const comps: OverlayOptions[] = [];
  for (let i = 0; i < rows.length; i++) {
    const top = gap + Math.floor(i / perRow) * (cell + gap);
    const left0 = gap * 2 + (i % perRow) * (2 * cell + gap + gap * 2);
    for (const [j, buf] of [rows[i]!.input, rows[i]!.output].entries()) {
      const tile = await sharp(buf)
        .resize(cell, cell, { fit: 'contain', background: '#808080' })
        .flatten({ background: '#808080' })
        .png()
        .toBuffer();
      comps.push({ input: tile, left: left0 + j * (cell + gap), top });
    }
  }
  await sharp({ create: { width: W, height: H, channels: 3, background: '#202020' } })
    .composite(comps)
    .png()
    .toFile(file);
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === 'phone-jpeg'
) {
  // `npm run quality -- phone-jpeg`: enlarge x2 of phone-like JPEGs, blockiness and 1:1 crops (scripts/quality/phoneJpeg.ts)
  const { phoneJpegSection } = await import('./quality/phoneJpeg.js');
  const out = await phoneJpegSection(root);
  writeFileSync(
    path.join(root, 'bench', 'results', 'quality-phone-jpeg.json'),
    JSON.stringify({ date: new Date().toISOString(), ...out }, null, 2),
  );
} else if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === 'int8'
) {
  // `npm run quality -- int8`: the int8 nets against fp32 through the engines (scripts/quality/int8.ts)
  const { int8Section } = await import('./quality/int8.js');
  const out = await int8Section(ctx);
  writeFileSync(
    path.join(root, 'bench', 'results', 'quality-int8.json'),
    JSON.stringify({ date: new Date().toISOString(), ...out }, null, 2),
  );
} else if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === 'papers'
) {
  // `npm run quality -- papers`: the papers' benchmarks alone (QUALITY_BENCH_DIR)
  const t0 = Date.now();
  const papers = await papersSection(ctx, { urban100Limit: Number(process.env.URBAN100_LIMIT) || undefined });
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'quality-papers.json'),
    JSON.stringify({ date: new Date().toISOString(), papers }, null, 2),
  );
  console.log(`papers done in ${((Date.now() - t0) / 1000).toFixed(1)} s → bench/results/quality-papers.json`);
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  const { results, sheet } = await quality();
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  results.maxim = await maximSection(root, Number(process.env.ENGINE_THREADS || 2));
  results.papers = await papersSection(ctx);
  const report = { date: new Date().toISOString(), ...results, sheet_rows: sheet.map((r) => r.label) };
  writeFileSync(path.join(dir, 'quality.json'), JSON.stringify(report, null, 2));
  await writeSheet(sheet, path.join(dir, 'quality-sheet.png'));
  console.log(JSON.stringify(results, null, 2));
  console.log(
    `quality done in ${((Date.now() - t0) / 1000).toFixed(1)} s → bench/results/quality.json, quality-sheet.png`,
  );
}
