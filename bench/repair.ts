/**
 * `npm run bench repair`: the se-old-repair `repair` step (scratch/dust detection + inpainting) on
 * the 2.8 MP photo (LadyBird 2048×1367 with synthetic scratches, seed 3) and on the Pro plan's
 * largest input (the same scratched photo enlarged to 7100×4800, 34 MP: scratches as wide, relative
 * to the picture, as on a scan), with the share of scratch pixels removed at each size.
 */
import path from 'node:path';
import sharp from 'sharp';
import { decodeRgb, type Rgb } from '../server/engines/image.js';
import { addScratches, scratchRemoval } from '../server/engines/scratches.js';
import { repairRgb } from '../server/engines/repair.js';
import { ctx } from '../tests/support/engines.js';
import type { BenchRow } from './run.js';

const root = path.resolve(import.meta.dirname, '..');

export async function benchRepair(): Promise<BenchRow[]> {
  const clean = await decodeRgb(
    await sharp(path.join(root, 'tests', 'fixtures', 'LadyBird.jpg'))
      .rotate()
      .resize(2048, 1367, { fit: 'fill' })
      .removeAlpha()
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
  const { img: bad, mask } = addScratches(clean, { seed: 3 });
  const up = async (im: Rgb) =>
    decodeRgb(
      await sharp(Buffer.from(im.data), { raw: { width: im.w, height: im.h, channels: 3 } })
        .resize(7100, 4800, { fit: 'fill', kernel: 'lanczos3' })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
  const rows: BenchRow[] = [];
  let t0 = performance.now();
  const small = await repairRgb(bad, ctx());
  rows.push({
    name: 'repair 2.8 MP (2048×1367)',
    value: (performance.now() - t0) / 1000,
    unit: 's',
    key: true,
    note: `removed ${(100 * scratchRemoval(clean, bad, small.out, mask)).toFixed(0)} % of scratch pixels`,
  });
  const [cleanL, badL] = [await up(clean), await up(bad)];
  const maskL = new Uint8Array(cleanL.w * cleanL.h);
  for (let y = 0; y < cleanL.h; y++)
    for (let x = 0; x < cleanL.w; x++)
      maskL[y * cleanL.w + x] =
        mask[Math.floor((y * clean.h) / cleanL.h) * clean.w + Math.floor((x * clean.w) / cleanL.w)]!;
  t0 = performance.now();
  const large = await repairRgb(badL, ctx());
  rows.push({
    name: 'repair 34 MP (7100×4800)',
    value: (performance.now() - t0) / 1000,
    unit: 's',
    key: true,
    note: `detected on a 3×-shrunk copy; removed ${(100 * scratchRemoval(cleanL, badL, large.out, maskL)).toFixed(0)} %`,
  });
  return rows;
}
