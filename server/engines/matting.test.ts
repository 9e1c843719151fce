import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mattingEngine } from './matting.js';
import { ctx, input } from './testkit.js';

async function alphaAt(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { info, a: (x: number, y: number) => data[(y * info.width + x) * 4 + 3]! };
}

describe('matting (IS-Net)', () => {
  it('makes the corners of chelsea transparent and keeps the cat opaque, at full resolution', async () => {
    const img = await input('chelsea.png');
    const out = await mattingEngine.run(img, { rescale: 532 }, ctx());
    expect(out.format).toBe('png');
    expect([out.width, out.height]).toEqual([451, 300]);
    const meta = await sharp(out.data).metadata();
    expect(meta.channels).toBe(4);
    expect(meta.hasAlpha).toBe(true);
    const { a, info } = await alphaAt(out.data);
    expect([info.width, info.height]).toEqual([451, 300]);
    for (const [x, y] of [[3, 3], [447, 3]]) expect(a(x, y)).toBeLessThan(30);
    // the cat's face sits around the middle of the picture
    expect(a(225, 150)).toBeGreaterThan(220);
    expect(out.extras?.white?.format).toBe('jpg');
    const white = await sharp(out.extras!.white!.data).raw().toBuffer({ resolveWithObject: true });
    expect(white.info.channels).toBe(3);
    expect(white.data[(3 * 451 + 3) * 3]).toBeGreaterThan(225); // background became white
  });

  it('honours rescale: the preview extra has that long side', async () => {
    const img = await input('coffee.png');
    const out = await mattingEngine.run(img, { rescale: 320 }, ctx());
    const meta = await sharp(out.extras!.preview!.data).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(320);
    expect(meta.hasAlpha).toBe(true);
  });
});
