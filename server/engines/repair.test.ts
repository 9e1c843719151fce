import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectDefects, inpaint, repairEngine, repairRgb } from './repair.js';
import { addScratches, lineContrast, scratchRemoval } from './scratches.js';
import { ctx, fixture, fromRgb, input, rgbOf } from '../../tests/support/engines.js';
import { decodeRgb, psnr, type Rgb } from './image.js';

/** A crop of a held-out photo at 480 px wide (tests/fixtures/wallpapers). */
const crop = async (f: string, left: number, top: number, width: number, height: number): Promise<Rgb> =>
  decodeRgb(
    await sharp(fixture(`wallpapers/${f}`))
      .resize({ width: 480 })
      .extract({ left, top, width, height })
      .removeAlpha()
      .png()
      .toBuffer(),
  );

describe('repair (scratches and dust)', () => {
  // a scratch pixel counts as removed only when the repair lands within max(10, ¼ defect) grey levels
  // of the clean photo (scratchRemoval); the clean crop through the repair measures false repairs
  it.each([
    ['meadow grass (textured)', 'aitzgorri.jpg', 0, 180, 200, 140, 1],
    ['forest floor (textured)', 'path.jpg', 200, 180, 200, 120, 1],
    ['sky (smooth)', 'kite.jpg', 100, 100, 200, 150, 5],
  ] as const)(
    '%s: removes ≥ 80 percent of synthetic scratch pixels; the clean crop stays ≥ 40 dB',
    async (_label, f, l, t, w, h, seed) => {
      const clean = await crop(f, l, t, w, h);
      const { img, mask } = addScratches(clean, { seed });
      const { out } = await repairRgb(img, ctx());
      expect(scratchRemoval(clean, img, out, mask)).toBeGreaterThanOrEqual(0.8);
      expect(psnr(out.data, clean.data)).toBeGreaterThan(psnr(img.data, clean.data) + 5);
      expect(psnr((await repairRgb(clean, ctx())).out.data, clean.data)).toBeGreaterThanOrEqual(40);
    },
  );

  it('finds white scratches on saturated colour by the channels a scratch greys (yellow petals: luma alone found 60 percent)', async () => {
    // a white line over a yellow petal lifts luma by only ~30 levels but blue by ~200: the bar test
    // reads bright lines partly on the darkest channel (CHANNEL_SHIFT in repair.ts)
    const clean = await decodeRgb(
      await sharp(fixture('YellowFlower.jpg'))
        .resize({ width: 560 })
        .extract({ left: 200, top: 0, width: 200, height: 150 })
        .removeAlpha()
        .png()
        .toBuffer(),
    );
    const { img, mask } = addScratches(clean, { seed: 5 });
    expect(scratchRemoval(clean, img, (await repairRgb(img, ctx())).out, mask)).toBeGreaterThanOrEqual(0.8);
    expect(psnr((await repairRgb(clean, ctx())).out.data, clean.data)).toBeGreaterThanOrEqual(40);
  });

  it('the net follows scratches through rock texture that the classical detector finds only in parts (picos crop: 56 percent without it)', async () => {
    // the net's finds (hysteresis on its log-odds, NET_LOW / NET_SEED in repair.ts) are added to the
    // classical ones; without them the same crop and scratches give the classical figure
    const clean = await crop('picosdeeuropa.jpg', 100, 100, 200, 160);
    const { img, mask } = addScratches(clean, { seed: 1 });
    const classical = scratchRemoval(clean, img, inpaint(img, detectDefects(img)), mask);
    const withNet = scratchRemoval(clean, img, (await repairRgb(img, ctx())).out, mask);
    expect(withNet).toBeGreaterThanOrEqual(classical + 0.08);
    expect(withNet).toBeGreaterThanOrEqual(0.62);
    expect(psnr((await repairRgb(clean, ctx())).out.data, clean.data)).toBeGreaterThanOrEqual(38);
  });

  it('the net finds dust specks on foliage that fail the classical ring test (dragonfly crop: 23 percent without it)', async () => {
    // a speck among leaves has a ring of lit and shaded parts around it, so the even-ring test of
    // the classical detector rejects it; the net's own finds (hysteresis on its log-odds) keep it
    const clean = await crop('dragonfly.jpg', 100, 60, 200, 140);
    const { img, mask } = addScratches(clean, { seed: 1, lines: 0, specks: 30 });
    const classical = scratchRemoval(clean, img, inpaint(img, detectDefects(img)), mask);
    const withNet = scratchRemoval(clean, img, (await repairRgb(img, ctx())).out, mask);
    expect(classical).toBeLessThan(0.3);
    expect(withNet).toBeGreaterThanOrEqual(classical + 0.25);
    expect(psnr((await repairRgb(clean, ctx())).out.data, clean.data)).toBeGreaterThanOrEqual(40);
  });

  it('the net vetoes what the classical detector takes for a scratch on a clean photo (dune: 38.8 dB with every classical find filled)', async () => {
    // pixels the net is sure are the photo (NET_CLEAN in repair.ts) stay as they are: lit grass
    // edges beside line candidates are no longer repainted
    const clean = await decodeRgb(
      await sharp(fixture('wallpapers/dune.jpg')).resize({ width: 480 }).removeAlpha().png().toBuffer(),
    );
    const { out, mask } = await repairRgb(clean, ctx());
    expect(psnr(out.data, clean.data)).toBeGreaterThanOrEqual(41.5);
    expect(mask.reduce((a, v) => a + v, 0)).toBeLessThan(detectDefects(clean).reduce((a, v) => a + v, 0));
  });

  it('keeps real thin lines: coloured grass stalks against the sky keep their contrast', async () => {
    const clean = await crop('dune.jpg', 0, 0, 240, 110);
    const { out, mask } = await repairRgb(clean, ctx());
    const c = lineContrast(clean, out);
    expect(c.pixels).toBeGreaterThan(200); // the crop has stalks to lose
    expect(c.after).toBeGreaterThanOrEqual(0.9 * c.clean);
    expect(mask.reduce((a, b) => a + b, 0)).toBeLessThan(0.02 * mask.length);
    expect(psnr(out.data, clean.data)).toBeGreaterThanOrEqual(40);
  });

  it('keeps real thin lines: the grey tripod legs of camera.png (a line beside an edge is scene structure)', async () => {
    const clean = await decodeRgb(
      await sharp(fixture('camera.png'))
        .resize({ width: 512 })
        .extract({ left: 200, top: 330, width: 200, height: 160 })
        .grayscale()
        .toColourspace('srgb')
        .png()
        .toBuffer(),
    );
    const c = lineContrast(clean, (await repairRgb(clean, ctx())).out);
    expect(c.pixels).toBeGreaterThan(2000);
    expect(c.after).toBeGreaterThanOrEqual(0.9 * c.clean);
  });

  it('keeps a thin line that turns (a rim, a ring) and still removes a straight scratch beside it', async () => {
    // a bright 2-px ring of radius 80 px and a near-vertical scratch on a noisy grey ground: before
    // the straightness test the whole ring was painted out with the scratch
    const w = 240,
      h = 240;
    const img: Rgb = { w, h, data: new Uint8Array(w * h * 3) };
    const ring = new Uint8Array(w * h),
      scratch = new Uint8Array(w * h);
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const aRing = Math.max(0, Math.min(1, 1.3 - Math.abs(Math.hypot(x - 120, y - 120) - 80)));
        const aScratch = Math.max(0, Math.min(1, 1.2 - Math.abs(x - 18 - 0.03 * y)));
        let v = 100 + 8 * (rnd() - 0.5);
        v = (1 - aRing) * v + aRing * 200;
        v = (1 - aScratch) * v + aScratch * 230;
        if (aRing > 0.5) ring[y * w + x] = 1;
        if (aScratch > 0.5) scratch[y * w + x] = 1;
        img.data.fill(Math.round(v), (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
    const { mask } = await repairRgb(img, ctx());
    const flagged = (of: Uint8Array) => {
      let hit = 0,
        n = 0;
      for (let i = 0; i < of.length; i++) {
        if (!of[i]) continue;
        n++;
        hit += mask[i]!;
      }
      return hit / n;
    };
    expect(flagged(ring)).toBeLessThanOrEqual(0.05);
    expect(flagged(scratch)).toBeGreaterThanOrEqual(0.95);
  });

  it('the inpainting continues an edge that crosses a scratch', async () => {
    // a vertical edge (60 | 180) under a 3-px horizontal bright scratch: the fill must not blur it
    const w = 64,
      h = 48;
    const clean: Rgb = { w, h, data: new Uint8Array(w * h * 3) };
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) clean.data.fill(x < 32 ? 60 : 180, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const bad: Rgb = { w, h, data: Uint8Array.from(clean.data) };
    const mask = new Uint8Array(w * h);
    for (let x = 0; x < w; x++)
      for (const y of [23, 24, 25]) {
        mask[y * w + x] = 1;
        bad.data.fill(250, (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
    const out = inpaint(bad, mask);
    expect(psnr(out.data, clean.data)).toBeGreaterThan(40);
  });

  it('the inpainting follows a curved gradient across a scratch (cubic) and never overshoots its ends', () => {
    // a curved ramp v = 30 + 0.4·(y − 22)² under a 5-px horizontal scratch at rows 30–34: a straight
    // line between the good rows 29 and 35 misses the curve by 3.6 grey levels in the middle
    const w = 16,
      h = 40;
    const clean: Rgb = { w, h, data: new Uint8Array(w * h * 3) };
    for (let y = 0; y < h; y++) clean.data.fill(Math.round(30 + 0.4 * (y - 22) ** 2), y * w * 3, (y + 1) * w * 3);
    const bad: Rgb = { w, h, data: Uint8Array.from(clean.data) };
    const mask = new Uint8Array(w * h);
    for (let y = 30; y <= 34; y++) {
      mask.fill(1, y * w, (y + 1) * w);
      bad.data.fill(250, y * w * 3, (y + 1) * w * 3);
    }
    const out = inpaint(bad, mask);
    const x = 8; // away from the borders
    let worst = 0;
    for (let y = 30; y <= 34; y++)
      worst = Math.max(worst, Math.abs(out.data[(y * w + x) * 3]! - clean.data[(y * w + x) * 3]!));
    expect(worst).toBeLessThanOrEqual(1);
    // a step across the same scratch (the far side much brighter): the fill stays within the ends
    for (let y = 35; y < h; y++) bad.data.fill(200, y * w * 3, (y + 1) * w * 3);
    const stepOut = inpaint(bad, mask);
    const lo = bad.data[(29 * w + x) * 3]!;
    for (let y = 30; y <= 34; y++) {
      expect(stepOut.data[(y * w + x) * 3]!).toBeGreaterThanOrEqual(lo);
      expect(stepOut.data[(y * w + x) * 3]!).toBeLessThanOrEqual(200);
    }
  });

  it('the inpainting continues a fine oblique texture across a scratch (ends agree in value and slope)', () => {
    // stripes of period 10 px running at 1:2 and 1:3 to a vertical scratch 4 (3) px wide: along a
    // wrong direction the two ends can match in value on opposite flanks of a stripe; their slopes
    // then differ. Weighing the ends' value agreement alone: mean error 8.8 (11.3) grey levels.
    for (const [ax, ay, width] of [
      [1, 2, 4],
      [1, 3, 3],
    ] as const) {
      const w = 64,
        h = 64;
      const img: Rgb = { w, h, data: new Uint8Array(w * h * 3) };
      const mask = new Uint8Array(w * h);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const v = Math.round(128 + 60 * Math.sin((2 * Math.PI * (ax * x + ay * y)) / (10 * Math.hypot(ax, ay))));
          img.data.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
          if (x >= 30 && x < 30 + width) mask[y * w + x] = 1;
        }
      const out = inpaint(img, mask);
      let err = 0,
        n = 0;
      for (let y = 8; y < h - 8; y++)
        for (let x = 30; x < 30 + width; x++) {
          err += Math.abs(out.data[(y * w + x) * 3]! - img.data[(y * w + x) * 3]!);
          n++;
        }
      expect(err / n, `${ax}:${ay}`).toBeLessThanOrEqual(4);
    }
  });

  it('runs as an engine, same size, reports progress', async () => {
    const clean = await decodeRgb((await input('rocket.jpg', { width: 120 })).data);
    const progress: number[] = [];
    const out = await repairEngine.run(await fromRgb(addScratches(clean, { seed: 2 }).img), {}, ctx(progress));
    const px = await rgbOf(out.data);
    expect([px.w, px.h]).toEqual([clean.w, clean.h]);
    expect(progress.at(-1)).toBe(1);
  });
});

describe('repair of large pictures (searched on a shrunk copy)', () => {
  it('a photo enlarged 2× with its scratches, searched at half size, loses them as well as at its own size', async () => {
    const clean = await crop('kite.jpg', 100, 100, 200, 150);
    const { img, mask } = addScratches(clean, { seed: 5 });
    const up = async (im: Rgb) =>
      decodeRgb(
        await sharp(Buffer.from(im.data), { raw: { width: im.w, height: im.h, channels: 3 } })
          .resize(400, 300, { kernel: 'lanczos3' })
          .png()
          .toBuffer(),
      );
    const [clean2, bad2] = [await up(clean), await up(img)];
    const mask2 = new Uint8Array(400 * 300);
    for (let y = 0; y < 300; y++) for (let x = 0; x < 400; x++) mask2[y * 400 + x] = mask[(y >> 1) * 200 + (x >> 1)]!;
    const { out } = await repairRgb(bad2, { ...ctx(), shrinkBy: 2 });
    expect(scratchRemoval(clean2, bad2, out, mask2)).toBeGreaterThanOrEqual(0.9);
    expect(psnr((await repairRgb(clean2, { ...ctx(), shrinkBy: 2 })).out.data, clean2.data)).toBeGreaterThanOrEqual(40);
  });
});
