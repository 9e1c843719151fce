/**
 * `npm run quality -- phone-jpeg`: enlarge x2 of phone-like JPEGs. The hidden scenes (papers.ts:
 * photos no net trained on and no test uses) at 640 px wide, saved as JPEG at q 70 / 80 / 90, enlarged
 * x2 by the engine at its default params, by today's engine (the v1 net, bench/v1Nets.ts) and by
 * Lanczos; blockiness across the input's 8-px grid = gridBlockiness of the output on the 16-px grid
 * (the mean luma step across the grid over the step at its midlines; the line: ≤ 1.15).
 * Writes bench/results/phone-jpeg/<photo>-q<q>.png: a 1:1 crop of 192×192 output pixels from the
 * busiest part of the picture, input (pixels doubled) | Lanczos | today's engine | engine.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModule } from '../../server/engines/registry.js';
import { ctx as engineContext, MODELS_DIR } from '../../tests/support/engines.js';
import { decodeRgb, luma, resizeRgb, type Rgb } from '../../server/engines/image.js';
import { gridBlockiness, gradeInput, mixedShare } from '../../src/shared/imaging/inputGrade.js';
import { v1Enlarge } from '../../bench/v1Nets.js';
import { HIDDEN_SCENES } from './papers.js';

const r3 = (v: number) => Math.round(v * 1000) / 1000;
const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);

/** The 96×96 input window with the most luma gradient energy (where blocks and detail both show). */
function busiest(img: Rgb): { left: number; top: number } {
  const y = luma(img);
  let best = { left: 0, top: 0 },
    bestE = -1;
  for (let top = 0; top + 96 <= img.h; top += 32)
    for (let left = 0; left + 96 <= img.w; left += 32) {
      let e = 0;
      for (let r = top; r < top + 96; r += 2)
        for (let c = left + 1; c < left + 96; c += 2) e += Math.abs(y[r * img.w + c]! - y[r * img.w + c - 1]!);
      if (e > bestE) [bestE, best] = [e, { left, top }];
    }
  return best;
}

export async function phoneJpegSection(
  root: string,
  threads = Number(process.env.ENGINE_THREADS || 2),
): Promise<Record<string, unknown>> {
  const ctx = engineContext([], 'png', threads);
  const dir = path.join(root, 'bench', 'results', 'phone-jpeg');
  mkdirSync(dir, { recursive: true });
  const photos = HIDDEN_SCENES.filter((f) => existsSync(f)).slice(0, Number(process.env.PHONE_JPEG_PHOTOS) || 4);
  const rows: Record<string, unknown>[] = [];
  const byQ: Record<string, { engine: number[]; v1: number[]; lanczos: number[] }> = {};
  for (const f of photos) {
    const png = await sharp(f).resize(640).removeAlpha().png().toBuffer();
    for (const q of [70, 80, 90]) {
      const jpeg = await sharp(png).jpeg({ quality: q }).toBuffer();
      const img = await decodeRgb(jpeg);
      const w = mixedShare(gradeInput(jpeg, luma(img), img.w, img.h));
      const engine = await decodeRgb(
        (await runModule('enlarge', { data: jpeg, width: img.w, height: img.h, format: 'jpeg' }, { scale: 2 }, ctx))
          .data,
      );
      const v1 = await v1Enlarge(img, 2, MODELS_DIR, threads);
      const lanczos = await resizeRgb(img, img.w * 2, img.h * 2, 'lanczos3');
      const bl = (x: Rgb) => r3(gridBlockiness(luma(x), x.w, x.h, 16));
      const row = {
        photo: path.basename(f),
        q,
        mixed_share: r3(w),
        input_8px: r3(gridBlockiness(luma(img), img.w, img.h, 8)),
        engine: bl(engine),
        v1: bl(v1),
        lanczos: bl(lanczos),
      };
      rows.push(row);
      const k = (byQ[`q${q}`] ??= { engine: [], v1: [], lanczos: [] });
      k.engine.push(row.engine);
      k.v1.push(row.v1);
      k.lanczos.push(row.lanczos);
      console.log(JSON.stringify(row));
      // 1:1 side by side: input (nearest ×2) | Lanczos | today's engine | engine
      const { left, top } = busiest(img);
      const cut = (x: Rgb, s: number) =>
        sharp(Buffer.from(x.data), { raw: { width: x.w, height: x.h, channels: 3 } }).extract({
          left: left * s,
          top: top * s,
          width: 96 * s,
          height: 96 * s,
        });
      const tiles = [
        await cut(img, 1).resize(192, 192, { kernel: 'nearest' }).png().toBuffer(),
        ...(await Promise.all([lanczos, v1, engine].map((x) => cut(x, 2).png().toBuffer()))),
      ];
      await sharp({ create: { width: 4 * 192 + 3 * 4, height: 192, channels: 3, background: '#ffffff' } })
        .composite(tiles.map((input, i) => ({ input, left: i * 196, top: 0 })))
        .png()
        .toFile(path.join(dir, `${path.basename(f).replace(/\.\w+$/, '')}-q${q}.png`));
    }
  }
  const summary = Object.fromEntries(
    Object.entries(byQ).map(([q, v]) => [
      q,
      { engine: r3(mean(v.engine)), v1: r3(mean(v.v1)), lanczos: r3(mean(v.lanczos)) },
    ]),
  );
  console.log('phone-like JPEGs x2, 16-px blockiness (mean):', JSON.stringify(summary));
  return { rows, summary };
}
