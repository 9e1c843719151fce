import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decontaminate, solidInterior } from '../../src/shared/imaging/matte.js';
import { boxMean } from '../../src/shared/imaging/planes.js';
import { mattingEngine } from './matting.js';
import { ctx, input, rgbOf } from '../../tests/support/engines.js';

async function alphaAt(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { info, a: (x: number, y: number) => data[(y * info.width + x) * 4 + 3]! };
}

/**
 * How decisive a cut-out's matte is. The subject is α ≥ 128; its inside is farther than r px (1 % of
 * the long side) from the subject's outline. `inside255`: the share of the inside that is fully opaque;
 * `softAway`: the share of the picture that is partly transparent (α 1–254) yet farther than r px
 * from the outline (a see-through subject or a ghost of the background, not an edge).
 */
async function matteShares(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const r = Math.max(3, Math.round(Math.max(w, h) / 100));
  const alpha = (i: number) => data[i * 4 + 3]!;
  const subject = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) subject[i] = alpha(i) >= 128 ? 1 : 0;
  const near = boxMean(subject, w, h, r);
  let inside = 0,
    opaque = 0,
    softAway = 0;
  for (let i = 0; i < w * h; i++) {
    const a = alpha(i),
      edge = near[i]! > 1e-6 && near[i]! < 1 - 1e-6;
    if (near[i]! >= 1 - 1e-6) {
      inside++;
      if (a === 255) opaque++;
    }
    if (a > 0 && a < 255 && !edge) softAway++;
  }
  return { inside255: opaque / inside, softAway: softAway / (w * h) };
}

describe('matting (IS-Net)', () => {
  it('makes the corners of chelsea transparent and keeps the cat opaque, at full resolution', async () => {
    const img = await input('chelsea.png');
    const progress: number[] = [];
    const out = await mattingEngine.run(img, { rescale: 532 }, ctx(progress));
    // the job's progress moves through the engine's phases (it sat at 0 % until the end)
    expect(progress.length).toBeGreaterThanOrEqual(10);
    expect(progress.every((p, i) => i === 0 || p > progress[i - 1]!)).toBe(true);
    expect(progress.filter((p) => p > 0.3 && p < 0.9).length).toBeGreaterThanOrEqual(5);
    expect(out.format).toBe('png');
    expect([out.width, out.height]).toEqual([451, 300]);
    const meta = await sharp(out.data).metadata();
    expect(meta.channels).toBe(4);
    expect(meta.hasAlpha).toBe(true);
    const { a, info } = await alphaAt(out.data);
    expect([info.width, info.height]).toEqual([451, 300]);
    for (const [x, y] of [
      [3, 3],
      [447, 3],
    ])
      expect(a(x, y)).toBeLessThan(30);
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
    // the cup: solid inside, and no faint ghost of the table (α 1–10) away from its outline
    const m = await matteShares(out.data);
    expect(m.inside255).toBeGreaterThan(0.999);
    expect(m.softAway).toBeLessThan(0.002);
  });

  it('keeps a solid subject solid: the whole cat, muzzle included, is opaque', async () => {
    const out = await mattingEngine.run(await input('chelsea.png'), { rescale: 532 }, ctx());
    const { a } = await alphaAt(out.data);
    // muzzle and chest, which IS-Net left translucent (α 150–230)
    for (const [x, y] of [
      [230, 200],
      [200, 260],
      [120, 200],
    ])
      expect(a(x, y)).toBeGreaterThan(245);
    let opaque = 0;
    for (let y = 0; y < 300; y++) for (let x = 0; x < 451; x++) if (a(x, y) > 240) opaque++;
    expect(opaque / (451 * 300)).toBeGreaterThan(0.7);
    // decisive: the inside fully opaque (IS-Net alone leaves it at α 245–254, see-through on a
    // checkerboard), soft only near the outline (the out-of-focus ear is the part left soft)
    const m = await matteShares(out.data);
    expect(m.inside255).toBeGreaterThan(0.96);
    expect(m.softAway).toBeLessThan(0.06);
  });

  it('solidInterior leaves soft edges and real holes, fills translucent interiors', () => {
    const w = 100,
      h = 100,
      al = new Float32Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const r = Math.hypot(x - 50, y - 50);
        al[y * w + x] = r < 10 ? 0 : r < 30 ? 140 : r < 36 ? (140 * (36 - r)) / 6 : 0; // ring, translucent
      }
    const out = solidInterior(al, w, h);
    expect(out[50 * w + 50]).toBe(0); // the hole stays clear
    expect(out[50 * w + 70]).toBeGreaterThan(200); // the body, far from clear pixels, is raised toward opaque
    expect(out[50 * w + 85]).toBeLessThan(140); // the outer soft edge is kept
  });

  it('decontaminates the soft edge: no rim of the old background colour', async () => {
    const fg = await rgbOf(
      (await input('astronaut.png', { crop: { left: 180, top: 60, width: 96, height: 96 } })).data,
    );
    const w = 96,
      h = 96,
      al = new Float32Array(w * h),
      img = { w, h, data: new Uint8Array(w * h * 3) };
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x,
          a = Math.min(1, Math.max(0, (55 - x) / 10)); // soft edge from x 45 to 55
        al[i] = a * 255;
        const bg = [20, 200, 40]; // green screen
        for (let c = 0; c < 3; c++) img.data[i * 3 + c] = Math.round(a * fg.data[i * 3 + c]! + (1 - a) * bg[c]!);
      }
    const out = decontaminate(img, al);
    let before = 0,
      after = 0;
    for (let y = 0; y < h; y++)
      for (let x = 46; x < 55; x++) {
        const i = y * w + x;
        // green excess over the foreground's own colour
        before += Math.max(0, img.data[i * 3 + 1]! - fg.data[i * 3 + 1]!);
        after += Math.max(0, out.data[i * 3 + 1]! - fg.data[i * 3 + 1]!);
      }
    expect(after).toBeLessThan(before * 0.4);
  });
});
