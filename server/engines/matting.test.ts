import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decontaminate, solidInterior } from '../../src/shared/imaging/matte.js';
import { mattingEngine } from './matting.js';
import { ctx, input, rgbOf } from '../../tests/support/engines.js';

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

  it('keeps a solid subject solid: the whole cat, muzzle included, is opaque', async () => {
    const out = await mattingEngine.run(await input('chelsea.png'), { rescale: 532 }, ctx());
    const { a } = await alphaAt(out.data);
    // muzzle and chest, which IS-Net left translucent (α 150–230)
    for (const [x, y] of [[230, 200], [200, 260], [120, 200]]) expect(a(x, y)).toBeGreaterThan(245);
    let opaque = 0;
    for (let y = 0; y < 300; y++) for (let x = 0; x < 451; x++) if (a(x, y) > 240) opaque++;
    expect(opaque / (451 * 300)).toBeGreaterThan(0.7);
  });

  it('solidInterior leaves soft edges and real holes, fills translucent interiors', () => {
    const w = 100, h = 100, al = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const r = Math.hypot(x - 50, y - 50);
      al[y * w + x] = r < 10 ? 0 : r < 30 ? 140 : r < 36 ? 140 * (36 - r) / 6 : 0; // ring, translucent
    }
    const out = solidInterior(al, w, h);
    expect(out[50 * w + 50]).toBe(0); // the hole stays clear
    expect(out[50 * w + 70]).toBeGreaterThan(200); // the body, far from clear pixels, is raised toward opaque
    expect(out[50 * w + 85]).toBeLessThan(140); // the outer soft edge is kept
  });

  it('decontaminates the soft edge: no rim of the old background colour', async () => {
    const fg = await rgbOf((await input('astronaut.png', { crop: { left: 180, top: 60, width: 96, height: 96 } })).data);
    const w = 96, h = 96, al = new Float32Array(w * h), img = { w, h, data: new Uint8Array(w * h * 3) };
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x, a = Math.min(1, Math.max(0, (55 - x) / 10)); // soft edge from x 45 to 55
      al[i] = a * 255;
      const bg = [20, 200, 40]; // green screen
      for (let c = 0; c < 3; c++) img.data[i * 3 + c] = Math.round(a * fg.data[i * 3 + c]! + (1 - a) * bg[c]!);
    }
    const out = decontaminate(img, al);
    let before = 0, after = 0;
    for (let y = 0; y < h; y++) for (let x = 46; x < 55; x++) {
      const i = y * w + x;
      // green excess over the foreground's own colour
      before += Math.max(0, img.data[i * 3 + 1]! - fg.data[i * 3 + 1]!);
      after += Math.max(0, out.data[i * 3 + 1]! - fg.data[i * 3 + 1]!);
    }
    expect(after).toBeLessThan(before * 0.4);
  });
});
