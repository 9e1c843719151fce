/**
 * Quality section for cartoonize and perfect (retouch, se-night), called from scripts/quality.ts.
 * Photos: tests/fixtures/wallpapers-cr/ (800 px wide copies of Debian wallpaper photos, used by no
 * test; package and licence per photo in PHOTOS and tests/fixtures/LICENSES.md). Most of them were
 * also training photos of our enlarge / denoise nets, so se-night, whose first step is the denoise
 * net, is measured again on tests/fixtures/wallpapers/, which the nets never saw (nightOnUnseen); the
 * cartoon and retouch figures do not involve the nets. The `dev` photos
 * chose the engines' settings and the thresholds below; the figures that count are the `test` ones.
 *  - cartoonize: the engine's own ink map (alpha > 0.5). Stroke length of an ink component =
 *    its boundary pixels / 2 (a stroke of length L has ~2L boundary pixels); reported as the mean
 *    over components and weighted by ink. Flat regions = input luma (Gaussian σ 1) with a local
 *    standard deviation < 2 levels in a 7×7 window; "ink in flat" = share of the ink that lies there.
 *  - retouch (perfect): a faded, warm-cast copy (contrast 60–70 %, black raised to 25–45, red
 *    ×1.08–1.15, blue ×0.82–0.88); PSNR / SSIM of the input and of perfect against the original.
 *  - se-night: gamma 2, ×0.45 exposure, Poisson (60 e⁻ at white) + Gaussian σ 2 (maxim.ts
 *    `degrade.lowLight`), then the preset's steps as defined (PRESETS['se-night'] through the
 *    registry, so a new denoise engine is measured as it lands); PSNR against the original.
 * Writes bench/results/cartoon-retouch-sheet.png (input | cartoon | faded | retouched | dark | night,
 * one row per photo), full-size side-by-sides per photo under bench/results/cartoon-retouch/, and
 * adds rows to the contact sheet.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { boxMean, decodeRgb, gaussianBlur, luma, psnr, ssim, type Rgb } from '../../server/engines/image.js';
import { cartoon, cartoonFaces } from '../../server/engines/cartoonize.js';
import { runModule } from '../../server/engines/registry.js';
import { fromRgb } from '../../tests/support/engines.js';
import type { EngineContext } from '../../server/engines/types.js';
import { PRESETS } from '../../src/shared/domain/modules.js';
import { degrade } from './maxim.js';
import { writeRowsSheet } from './face-colour-cartoon.js';

export const PHOTOS: { file: string; split: 'dev' | 'test'; source: string; licence: string }[] = [
  {
    file: 'wine.jpg',
    split: 'dev',
    source: 'lomiri-wallpapers-16.04 Wine_by_Jakkub_Mede.jpg',
    licence: 'CC-BY-4.0 (Jakub Mede)',
  },
  {
    file: 'garden2.jpg',
    split: 'dev',
    source: 'mate-backgrounds nature/Garden.jpg',
    licence: 'GPL-2+ (Charles Barbin)',
  },
  {
    file: 'coldripple.jpg',
    split: 'dev',
    source: 'plasma-workspace-wallpapers ColdRipple',
    licence: 'LGPL-3 (Risto Saukonpää)',
  },
  {
    file: 'life.jpg',
    split: 'dev',
    source: 'lomiri-wallpapers-16.04 life_by_Aitzol_Berasategi.jpg',
    licence: 'CC-BY-4.0 (Aitzol Berasategi)',
  },
  {
    file: 'fig.jpg',
    split: 'test',
    source: 'lomiri-wallpapers-16.04 Picture_0B_by_freespace.jpg',
    licence: 'CC-BY-4.0 (Trevor "Freespace")',
  },
  {
    file: 'brushes.jpg',
    split: 'test',
    source: 'lomiri-wallpapers-16.04 Picture_1A_by_freespace.jpg',
    licence: 'CC-BY-4.0 (Trevor "Freespace")',
  },
  {
    file: 'friends.jpg',
    split: 'test',
    source: 'lomiri-wallpapers-16.04 friends_by_Aitzol_Berasategi.jpg',
    licence: 'CC-BY-4.0 (Aitzol Berasategi)',
  },
  {
    file: 'greentock.jpg',
    split: 'test',
    source: 'lomiri-wallpapers-16.04 greentock_by_Peter_Nerlich.jpg',
    licence: 'CC-BY-SA-4.0 (Peter Nerlich)',
  },
  {
    file: 'seeding.jpg',
    split: 'test',
    source: 'lomiri-wallpapers-16.04 seeding_by_Clements_Engelhardt.jpg',
    licence: 'CC0-1.0 (Clemens Engelhardt)',
  },
  {
    file: 'eveningglow.jpg',
    split: 'test',
    source: 'plasma-workspace-wallpapers EveningGlow',
    licence: 'LGPL-3 (Ian Hex)',
  },
  { file: 'grey.jpg', split: 'test', source: 'plasma-workspace-wallpapers Grey', licence: 'LGPL-3 (Sigi Sagi)' },
  {
    file: 'fallenleaf.jpg',
    split: 'test',
    source: 'plasma-workspace-wallpapers FallenLeaf',
    licence: 'LGPL-3 (Martin Klapetek)',
  },
  {
    file: 'onestandsout.jpg',
    split: 'test',
    source: 'plasma-workspace-wallpapers OneStandsOut',
    licence: 'LGPL-3 (Risto Saukonpää)',
  },
  {
    file: 'summer1am.jpg',
    split: 'test',
    source: 'plasma-workspace-wallpapers summer_1am',
    licence: 'LGPL-3 (Risto Saukonpää)',
  },
  { file: 'aqua.jpg', split: 'test', source: 'mate-backgrounds nature/Aqua.jpg', licence: 'GPL-2+ (Charles Barbin)' },
  { file: 'twowings.jpg', split: 'test', source: 'mate-backgrounds nature/TwoWings.jpg', licence: 'GPL-2+' },
  { file: 'wood.jpg', split: 'test', source: 'mate-backgrounds nature/Wood.jpg', licence: 'GPL-2+' },
  { file: 'raindrops.jpg', split: 'test', source: 'mate-backgrounds nature/RainDrops.jpg', licence: 'GPL-2+' },
  {
    file: 'freshflower.jpg',
    split: 'test',
    source: 'mate-backgrounds nature/FreshFlower.jpg',
    licence: 'GPL-2+ (Jens Ansorg)',
  },
  {
    file: 'blinds.jpg',
    split: 'test',
    source: 'mate-backgrounds nature/Blinds.jpg',
    licence: 'GPL-2+ (Lennart Poettering, Andrea Cimitan)',
  },
];

/**
 * Pass lines, chosen on the dev photos (see the README's cartoonize / perfect paragraphs): ink in flat
 * regions at most 2 % (dev worst 0.8 %), ink-weighted stroke length at least 35 px (dev shortest 40.9,
 * the forest stream), and the targets of 1.5 dB for retouch and 8 dB for se-night.
 */
export const THRESHOLDS = {
  /** at most this share of the ink in flat regions of the input */
  inkInFlat: 0.02,
  /** ink-weighted mean stroke length at least (px, 800 px wide photo) */
  strokeLength: 35,
  retouchGainDb: 1.5,
  nightGainDb: 8,
};

const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10000) / 10000;

/** Flat regions of a picture: local standard deviation of its (σ 1 blurred) luma below `maxStd` in a (2r+1)² window. */
export function flatMask(img: Rgb, maxStd = 2, r = 3): Uint8Array {
  const y = gaussianBlur(luma(img), img.w, img.h, 1);
  const y2 = Float32Array.from(y, (v) => v * v);
  const m = boxMean(y, img.w, img.h, r),
    m2 = boxMean(y2, img.w, img.h, r);
  const out = new Uint8Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = m2[i]! - m[i]! * m[i]! < maxStd * maxStd ? 1 : 0;
  return out;
}

/** Stroke statistics of an ink map (alpha 0..1): see the module comment. */
export function strokeStats(ink: Float32Array, w: number, h: number, flat?: Uint8Array) {
  const n = w * h;
  const on = new Uint8Array(n);
  let total = 0,
    inFlat = 0,
    flatPx = 0;
  for (let i = 0; i < n; i++) {
    if (ink[i]! > 0.5) {
      on[i] = 1;
      total++;
      if (flat?.[i]) inFlat++;
    }
    if (flat?.[i]) flatPx++;
  }
  const seen = new Uint8Array(n),
    stack = new Int32Array(n);
  let comps = 0,
    lenSum = 0,
    weighted = 0;
  for (let s = 0; s < n; s++) {
    if (!on[s] || seen[s]) continue;
    let sp = 0,
      area = 0,
      boundary = 0;
    stack[sp++] = s;
    seen[s] = 1;
    while (sp) {
      const i = stack[--sp]!;
      area++;
      const x = i % w,
        y = (i - x) / w;
      if (x === 0 || x === w - 1 || y === 0 || y === h - 1 || !on[i - 1] || !on[i + 1] || !on[i - w] || !on[i + w])
        boundary++;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx,
            yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (on[j] && !seen[j]) {
            seen[j] = 1;
            stack[sp++] = j;
          }
        }
    }
    const len = boundary / 2;
    comps++;
    lenSum += len;
    weighted += len * area;
  }
  return {
    ink: total / n,
    strokes: comps,
    meanStroke: comps ? lenSum / comps : 0,
    inkWeightedStroke: total ? weighted / total : 0,
    inkInFlat: total ? inFlat / total : 0,
    flatShare: flatPx / n,
  };
}

/** Pictures of one height side by side, 8 px apart, written as PNG. */
async function sideBySide(imgs: Rgb[], file: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  const W = imgs.reduce((a, m) => a + m.w, 0) + 8 * (imgs.length - 1),
    H = Math.max(...imgs.map((m) => m.h));
  let left = 0;
  const comps = [];
  for (const m of imgs) {
    comps.push({
      input: await sharp(Buffer.from(m.data), { raw: { width: m.w, height: m.h, channels: 3 } })
        .png()
        .toBuffer(),
      left,
      top: 0,
    });
    left += m.w + 8;
  }
  await sharp({ create: { width: W, height: H, channels: 3, background: '#202020' } })
    .composite(comps)
    .png()
    .toFile(file);
}

/** Faded, warm-cast copy (variant k of three strengths). */
export function fadeCast(img: Rgb, k: number): Rgb {
  const c = 0.6 + (0.1 * (k % 3)) / 2,
    b = 25 + 10 * (k % 3),
    warm = [
      [1.12, 1, 0.82],
      [1.08, 1, 0.88],
      [1.15, 1.02, 0.85],
    ][k % 3]!;
  return {
    ...img,
    data: Uint8Array.from(img.data, (v, i) => Math.max(0, Math.min(255, Math.round(b + c * v * warm[i % 3]!)))),
  };
}

export async function cartoonRetouchSection(
  root: string,
  ctx: EngineContext,
  sheet: { label: string; input: Buffer; output: Buffer }[],
  only?: 'dev' | 'test',
) {
  const dir = path.join(root, 'tests', 'fixtures', 'wallpapers-cr');
  const pngBuf = (img: Rgb) =>
    sharp(Buffer.from(img.data), { raw: { width: img.w, height: img.h, channels: 3 } })
      .png()
      .toBuffer();
  const run = async (m: Parameters<typeof runModule>[0], img: Rgb, p: Record<string, unknown> = {}) =>
    decodeRgb((await runModule(m, await fromRgb(img), p, ctx)).data);
  const rows: Rgb[][] = [];
  const per: Record<string, unknown>[] = [];
  for (const [k, ph] of PHOTOS.entries()) {
    if (only && ph.split !== only) continue;
    const full = await decodeRgb(
      await sharp(readFileSync(path.join(dir, ph.file)))
        .removeAlpha()
        .png()
        .toBuffer(),
    );
    // cartoonize at 800 px wide
    const t0 = Date.now();
    const fm = await cartoonFaces(full, ctx.modelsDir, ctx.threads);
    const c = cartoon(full, fm.faces, fm.meshes);
    const ms = Date.now() - t0;
    const st = strokeStats(c.ink, full.w, full.h, flatMask(full));
    // retouch and night at 512 px wide
    const ref = await decodeRgb(
      await sharp(readFileSync(path.join(dir, ph.file)))
        .resize({ width: 512 })
        .removeAlpha()
        .png()
        .toBuffer(),
    );
    const faded = fadeCast(ref, k);
    const ret = await run('perfect', faded);
    const dark = degrade.lowLight(ref, 3 + k);
    let night = dark;
    for (const s of PRESETS['se-night']) night = await run(s.config.module, night, s.config.module_params);
    const row = {
      image: ph.file,
      split: ph.split,
      source: ph.source,
      licence: ph.licence,
      cartoon: {
        ms,
        faces: fm.faces.length,
        ink_share: r4(st.ink),
        strokes: st.strokes,
        mean_stroke_px: r2(st.meanStroke),
        ink_weighted_stroke_px: r2(st.inkWeightedStroke),
        flat_share: r2(st.flatShare),
        ink_in_flat: r4(st.inkInFlat),
      },
      retouch: {
        input: { psnr: r2(psnr(faded.data, ref.data)), ssim: r4(ssim(faded, ref)) },
        perfect: { psnr: r2(psnr(ret.data, ref.data)), ssim: r4(ssim(ret, ref)) },
        gain_db: r2(psnr(ret.data, ref.data) - psnr(faded.data, ref.data)),
      },
      night: {
        input: r2(psnr(dark.data, ref.data)),
        se_night: r2(psnr(night.data, ref.data)),
        gain_db: r2(psnr(night.data, ref.data) - psnr(dark.data, ref.data)),
      },
    };
    per.push(row);
    console.log(`cartoon-retouch: ${JSON.stringify(row)}`);
    // side-by-sides at full size (look at them at fit and 1:1): input | cartoon; faded | perfect | original; dark | se-night | original
    await sideBySide(
      [full, c.image],
      path.join(root, 'bench', 'results', 'cartoon-retouch', `${ph.file.replace(/\.\w+$/, '')}-cartoon.png`),
    );
    await sideBySide(
      [faded, ret, ref],
      path.join(root, 'bench', 'results', 'cartoon-retouch', `${ph.file.replace(/\.\w+$/, '')}-retouch.png`),
    );
    await sideBySide(
      [dark, night, ref],
      path.join(root, 'bench', 'results', 'cartoon-retouch', `${ph.file.replace(/\.\w+$/, '')}-night.png`),
    );
    const small = await decodeRgb(
      await sharp(await pngBuf(c.image))
        .resize({ width: 512 })
        .png()
        .toBuffer(),
    );
    rows.push([ref, small, faded, ret, dark, night]);
    if (ph.file === 'eveningglow.jpg' || ph.file === 'friends.jpg')
      sheet.push({
        label: `cartoonize ${ph.file} (held-out)`,
        input: await pngBuf(full),
        output: await pngBuf(c.image),
      });
    if (ph.file === 'fig.jpg')
      sheet.push({
        label: 'perfect on a faded warm cast (held-out)',
        input: await pngBuf(faded),
        output: await pngBuf(ret),
      });
    if (ph.file === 'fig.jpg')
      sheet.push({
        label: 'se-night on a dark noisy photo (held-out)',
        input: await pngBuf(dark),
        output: await pngBuf(night),
      });
  }
  const summary = (split: 'dev' | 'test') => {
    const rs = per.filter((r) => r.split === split) as unknown as {
      cartoon: { ink_in_flat: number; ink_weighted_stroke_px: number; mean_stroke_px: number };
      retouch: { gain_db: number; input: { ssim: number }; perfect: { ssim: number } };
      night: { gain_db: number };
    }[];
    if (!rs.length) return undefined;
    const mean = (f: (r: (typeof rs)[number]) => number) => r2(rs.reduce((a, r) => a + f(r), 0) / rs.length);
    return {
      photos: rs.length,
      mean_ink_in_flat: mean((r) => r.cartoon.ink_in_flat),
      mean_ink_weighted_stroke_px: mean((r) => r.cartoon.ink_weighted_stroke_px),
      mean_stroke_px: mean((r) => r.cartoon.mean_stroke_px),
      mean_retouch_gain_db: mean((r) => r.retouch.gain_db),
      mean_retouch_ssim: { input: mean((r) => r.retouch.input.ssim), perfect: mean((r) => r.retouch.perfect.ssim) },
      mean_night_gain_db: mean((r) => r.night.gain_db),
      pass: {
        ink_in_flat: rs.filter((r) => r.cartoon.ink_in_flat <= THRESHOLDS.inkInFlat).length,
        stroke_length: rs.filter((r) => r.cartoon.ink_weighted_stroke_px >= THRESHOLDS.strokeLength).length,
        retouch: rs.filter((r) => r.retouch.gain_db >= THRESHOLDS.retouchGainDb).length,
        night: rs.filter((r) => r.night.gain_db >= THRESHOLDS.nightGainDb).length,
      },
    };
  };
  await writeRowsSheet(rows, path.join(root, 'bench', 'results', 'cartoon-retouch-sheet.png'), 160);
  return {
    thresholds: THRESHOLDS,
    dev: summary('dev'),
    test: summary('test'),
    night_unseen_by_nets: await nightOnUnseen(root, run),
    per_photo: per,
  };
}

/** `img` with each channel scaled so its mean is `ref`'s: the exposure taken as known. */
export function meansMatched(img: Rgb, ref: Rgb): Rgb {
  const mean = (m: Rgb, c: number) => {
    let s = 0;
    for (let i = c; i < m.data.length; i += 3) s += m.data[i]!;
    return s / (m.w * m.h);
  };
  const k = [0, 1, 2].map((c) => mean(ref, c) / Math.max(1, mean(img, c)));
  return { ...img, data: Uint8Array.from(img.data, (v, i) => Math.min(255, Math.round(v * k[i % 3]!))) };
}

/**
 * se-night's first step is our denoise net, which was trained on clean crops of most photos above
 * (scripts/train/data.py, RESTORE), so their night figures flatter it. This measures the preset again on
 * photos the nets never saw: tests/fixtures/wallpapers/ (Debian wallpapers kept out of the nets' training).
 * `exposure_known`: the result with its channel means scaled to the original's, an upper bound that
 * tells how much of the gap is the brightness the low-light model chose.
 */
export async function nightOnUnseen(
  root: string,
  run: (m: Parameters<typeof runModule>[0], img: Rgb, p?: Record<string, unknown>) => Promise<Rgb>,
) {
  const dir = path.join(root, 'tests', 'fixtures', 'wallpapers');
  const rows: { image: string; input: number; se_night: number; gain_db: number; exposure_known: number }[] = [];
  for (const [k, f] of readdirSync(dir)
    .filter((x) => x.endsWith('.jpg'))
    .sort()
    .entries()) {
    const ref = await decodeRgb(
      await sharp(readFileSync(path.join(dir, f)))
        .resize({ width: 512 })
        .removeAlpha()
        .png()
        .toBuffer(),
    );
    const dark = degrade.lowLight(ref, 40 + k);
    let night = dark;
    for (const s of PRESETS['se-night']) night = await run(s.config.module, night, s.config.module_params);
    rows.push({
      image: f,
      input: r2(psnr(dark.data, ref.data)),
      se_night: r2(psnr(night.data, ref.data)),
      gain_db: r2(psnr(night.data, ref.data) - psnr(dark.data, ref.data)),
      exposure_known: r2(psnr(meansMatched(night, ref).data, ref.data)),
    });
    console.log(`night (unseen by the nets): ${JSON.stringify(rows.at(-1))}`);
  }
  return {
    photos: rows.length,
    mean_gain_db: r2(rows.reduce((a, r) => a + r.gain_db, 0) / Math.max(1, rows.length)),
    pass: rows.filter((r) => r.gain_db >= THRESHOLDS.nightGainDb).length,
    per_photo: rows,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const { ctx } = await import('../../tests/support/engines.js');
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  const res = await cartoonRetouchSection(
    root,
    ctx([], 'png', 2),
    [],
    (process.env.SPLIT as 'dev' | 'test' | undefined) || undefined,
  );
  console.log(JSON.stringify({ dev: res.dev, test: res.test }, null, 2));
}
