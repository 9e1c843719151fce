/**
 * Colorize on the scene photos (colorize-photos.ts), per photo: a*b* error of "no colour" (grey),
 * colorize (render_factor 10) and colorize_pro (render_factor 30), their ratio to grey, and the
 * split's mean reduction and worst ratio. `SPLIT=dev|heldout|all` (default heldout);
 * `node --import tsx scripts/quality/colorize-eval.ts` prints a table; quality.ts calls colorizeScenes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { colorizeRgb } from '../../server/engines/colorize.js';
import { ctx as engineContext } from '../../tests/support/engines.js';
import type { EngineContext } from '../../server/engines/types.js';
import type { Rgb } from '../../server/engines/image.js';
import { abError, greyOf, isDev, loadScenePhoto, SCENE_PHOTOS } from './colorize-photos.js';

const r2 = (v: number) => Math.round(v * 100) / 100;

export interface SceneRow {
  id: string;
  split: 'dev' | 'heldout';
  pkg: string;
  licence: string;
  grey: number;
  colorize: number;
  colorize_pro: number;
}
export interface SceneSummary {
  photos: number;
  missing: string[];
  mean: { grey: number; colorize: number; colorize_pro: number };
  reduction: { colorize: number; colorize_pro: number };
  worst_ratio: { colorize: number; colorize_pro: number };
  pro_beats_standard: number;
}

export function summarise(rows: SceneRow[], missing: string[]): SceneSummary {
  const m = (k: 'grey' | 'colorize' | 'colorize_pro') => rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length);
  const worst = (k: 'colorize' | 'colorize_pro') => Math.max(...rows.map((r) => r[k] / r.grey));
  const g = m('grey');
  return {
    photos: rows.length,
    missing,
    mean: { grey: r2(g), colorize: r2(m('colorize')), colorize_pro: r2(m('colorize_pro')) },
    reduction: { colorize: r2(1 - m('colorize') / g), colorize_pro: r2(1 - m('colorize_pro') / g) },
    worst_ratio: { colorize: r2(worst('colorize')), colorize_pro: r2(worst('colorize_pro')) },
    pro_beats_standard: rows.filter((r) => r.colorize_pro < r.colorize).length,
  };
}

/** Runs both modes on a split; `sheetDir` gets grey | colorize | pro | truth per photo. */
export async function colorizeScenes(
  root: string,
  ctx: EngineContext,
  split: 'dev' | 'heldout' | 'all',
  sheetDir?: string,
  width = 480,
) {
  const rows: SceneRow[] = [];
  const missing: string[] = [];
  const tiles: { id: string; imgs: Rgb[] }[] = [];
  for (const p of SCENE_PHOTOS) {
    const dev = isDev(p);
    if ((split === 'dev' && !dev) || (split === 'heldout' && dev)) continue;
    const truth = await loadScenePhoto(root, p, width);
    if (!truth) {
      missing.push(p.id);
      continue;
    }
    const g = greyOf(truth);
    const std = (await colorizeRgb(g, 10, false, ctx)).out;
    const pro = (await colorizeRgb(g, 30, true, ctx)).out;
    rows.push({
      id: p.id,
      split: dev ? 'dev' : 'heldout',
      pkg: p.pkg,
      licence: p.licence,
      grey: r2(abError(g, truth)),
      colorize: r2(abError(std, truth)),
      colorize_pro: r2(abError(pro, truth)),
    });
    if (sheetDir) tiles.push({ id: p.id, imgs: [g, std, pro, truth] });
    if (process.env.VERBOSE) console.error(rows.at(-1));
  }
  if (sheetDir) {
    mkdirSync(sheetDir, { recursive: true });
    for (const t of tiles) {
      const h = 180;
      const parts = await Promise.all(
        t.imgs.map((im) =>
          sharp(Buffer.from(im.data), { raw: { width: im.w, height: im.h, channels: 3 } })
            .resize({ height: h })
            .png()
            .toBuffer(),
        ),
      );
      const tw = Math.round((t.imgs[0]!.w * h) / t.imgs[0]!.h);
      await sharp({ create: { width: 4 * tw + 18, height: h, channels: 3, background: '#202020' } })
        .composite(parts.map((input, i) => ({ input, left: i * (tw + 6), top: 0 })))
        .png()
        .toFile(path.join(sheetDir, `${t.id}.png`));
    }
  }
  return { rows, summary: summarise(rows, missing) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const split = (process.env.SPLIT ?? 'heldout') as 'dev' | 'heldout' | 'all';
  const { rows, summary } = await colorizeScenes(root, engineContext([], 'png', 2), split, process.env.SHEET);
  for (const r of rows)
    console.log(
      `${r.id.padEnd(14)} ${r.split.padEnd(8)} grey ${r.grey.toFixed(2).padStart(6)}  std ${r.colorize.toFixed(2).padStart(6)} (${(r.colorize / r.grey).toFixed(2)})  pro ${r.colorize_pro.toFixed(2).padStart(6)} (${(r.colorize_pro / r.grey).toFixed(2)})`,
    );
  console.log(JSON.stringify(summary));
  if (process.env.JSON) writeFileSync(process.env.JSON, JSON.stringify({ rows, summary }, null, 2));
}
