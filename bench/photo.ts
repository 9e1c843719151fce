/** The photo the engine benches run on: LadyBird.jpg cropped to 2048×1367 (2.8 MP), a JPEG as a user's upload would be. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { EngineImage } from '../server/engines/types.js';

export const BENCH_PHOTO = path.resolve(import.meta.dirname, '..', 'tests', 'fixtures', 'LadyBird.jpg');

export async function benchPhoto(): Promise<EngineImage> {
  const { data, info } = await sharp(readFileSync(BENCH_PHOTO))
    .rotate()
    .resize(2048, 1367, { fit: 'cover' })
    .jpeg({ quality: 92 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, format: 'jpeg' };
}
