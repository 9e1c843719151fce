import { describe, expect, it } from 'vitest';
import { defaultParams, parseParams } from '../../src/shared/domain/modules.js';
import { reasonMsg } from '../../src/shared/domain/reasons.js';
import { enlargeEngine, enlargeSettings } from './enlarge.js';
import { ctx, input, rgbOf, fromRgb } from '../../tests/support/engines.js';
import { psnr, resizeRgb, decodeRgb, gaussianNoise, gaussianBlur, toPlanes, fromPlanes, blockiness } from './image.js';
import { backProject, NEURAL_BUDGET_S, PASS_S_PER_MP, pathOf, planPasses } from './enlarge.js';

const params = (p: Record<string, unknown>) => {
  const r = parseParams('enlarge', p);
  if (!r.ok) throw new Error(reasonMsg(r.error));
  return r.value;
};

describe('enlarge (our x2 net, chained)', () => {
  it('beats Lanczos in PSNR on a ×2-downscaled crop, with exact output size', async () => {
    const hi = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 200, top: 150, width: 128, height: 96 } })).data,
    );
    const lo = await resizeRgb(hi, 64, 48, 'lanczos3');
    const progress: number[] = [];
    const out = await enlargeEngine.run(
      await fromRgb(lo),
      params({ scale: 2, suppress_noise: 0, remove_blur: 0 }),
      ctx(progress),
    );
    expect([out.width, out.height]).toEqual([128, 96]);
    const up = await rgbOf(out.data);
    expect([up.w, up.h]).toEqual([128, 96]);
    const lanczos = await resizeRgb(lo, 128, 96, 'lanczos3');
    expect(psnr(up.data, hi.data)).toBeGreaterThan(psnr(lanczos.data, hi.data) + 1);
    expect(progress.at(-1)).toBe(1);
  });

  it('with the default params still beats Lanczos', async () => {
    const hi = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 300, top: 200, width: 96, height: 96 } })).data,
    );
    const lo = await resizeRgb(hi, 48, 48, 'lanczos3');
    const out = await enlargeEngine.run(await fromRgb(lo), defaultParams('enlarge'), ctx());
    const up = await rgbOf(out.data);
    expect(psnr(up.data, hi.data)).toBeGreaterThan(psnr((await resizeRgb(lo, 96, 96, 'lanczos3')).data, hi.data));
  });

  it.each([
    [4, 'high'],
    [6, 'high'],
    [8, 'high'],
    [4, 'best'],
  ] as const)('scale %i (%s) gives exactly w·scale × h·scale', async (scale, quality) => {
    const img = await input('astronaut.png', { crop: { left: 200, top: 100, width: 21, height: 17 }, format: 'jpeg' });
    const out = await enlargeEngine.run(img, params({ scale, quality }), ctx([], 'jpeg'));
    expect([out.width, out.height]).toEqual([21 * scale, 17 * scale]);
    expect(out.format).toBe('jpeg');
    const px = await rgbOf(out.data);
    expect([px.w, px.h]).toEqual([21 * scale, 17 * scale]);
  });

  it('refuses an output above the largest side with a clear error, before any inference', async () => {
    const { default: sharp } = await import('sharp');
    const data = await sharp({ create: { width: 2100, height: 10, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    await expect(
      enlargeEngine.run({ data, width: 2100, height: 10, format: 'png' }, params({ scale: 8 }), ctx()),
    ).rejects.toThrow(/at most 16384 px/);
  });

  it('remove_blur sets how much restored detail is kept (sharper above the default); suppress_noise acts on measured noise only', async () => {
    // the cat's ear and the wall behind it, downscaled by 2: measured clean (no blocks, no noise), so the clean net at any suppress_noise
    const { default: sharp } = await import('sharp');
    const src = await input('chelsea.png', { crop: { left: 330, top: 100, width: 96, height: 96 } });
    const img = await fromRgb(await rgbOf(await sharp(src.data).resize(48, 48, { kernel: 'cubic' }).png().toBuffer()));
    const run = async (x: typeof img, p: Record<string, unknown>) =>
      rgbOf((await enlargeEngine.run(x, params({ scale: 2, ...p }), ctx())).data);
    const { hfEnergy } = await import('../../tests/support/engines.js');
    const base = hfEnergy(await run(img, { suppress_noise: 0, remove_blur: 75 }));
    expect(hfEnergy(await run(img, { suppress_noise: 0, remove_blur: 0 }))).toBeLessThan(base * 0.9);
    expect(hfEnergy(await run(img, { suppress_noise: 0, remove_blur: 100 }))).toBeGreaterThan(base * 1.1);
    // a clean picture: no noise to suppress, the slider changes nothing
    expect((await run(img, { suppress_noise: 100 })).data).toEqual((await run(img, { suppress_noise: 0 })).data);
    // heavy noise: the pre-denoise smooths
    const clean = await rgbOf(img.data);
    const n = gaussianNoise(clean.data.length, 30, 4);
    const noisy = await fromRgb({
      ...clean,
      data: Uint8Array.from(clean.data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))),
    });
    expect(hfEnergy(await run(noisy, { suppress_noise: 100 }))).toBeLessThan(
      hfEnergy(await run(noisy, { suppress_noise: 0 })) * 0.8,
    );
  });

  it('autoparams reads noise and blur from the picture', async () => {
    const img = await decodeRgb((await input('coffee.png', { width: 160 })).data);
    const n = gaussianNoise(img.data.length, 30, 3);
    const noisy = {
      ...img,
      data: Uint8Array.from(img.data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))),
    };
    const soft = fromPlanes(
      toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, 2)),
      img.w,
      img.h,
    );
    const auto = { ...defaultParams('enlarge'), autoparams: true };
    expect(enlargeSettings(auto, noisy).preDenoise).toBeGreaterThan(30);
    expect(enlargeSettings(auto, img).preDenoise).toBe(0);
    expect(enlargeSettings(auto, soft).postSharpen).toBeGreaterThan(enlargeSettings(auto, img).postSharpen);
    expect(enlargeSettings({ ...defaultParams('enlarge'), quality: 'best' }).ensemble).toBe(8);
    expect(enlargeSettings(defaultParams('enlarge'), img)).toMatchObject({
      ensemble: 1,
      preDenoise: 0,
      detailGain: 1,
      postSharpen: 0,
      mixedShare: 0,
    });
  });

  it('best (self-ensemble) is at least as close to the original as high', async () => {
    const hi = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 200, top: 150, width: 96, height: 64 } })).data,
    );
    const lo = await resizeRgb(hi, 48, 32, 'cubic');
    const run = async (quality: string) =>
      rgbOf((await enlargeEngine.run(await fromRgb(lo), params({ scale: 2, quality }), ctx())).data);
    expect(psnr((await run('best')).data, hi.data)).toBeGreaterThan(psnr((await run('high')).data, hi.data) - 0.02);
  });

  it('keeps the transparency of a PNG with alpha', async () => {
    const { default: sharp } = await import('sharp');
    const rgba = Buffer.alloc(32 * 24 * 4);
    for (let i = 0; i < 32 * 24; i++) rgba.set([200, 80, 40, i % 32 < 16 ? 0 : 255], i * 4);
    const data = await sharp(rgba, { raw: { width: 32, height: 24, channels: 4 } })
      .png()
      .toBuffer();
    const out = await enlargeEngine.run({ data, width: 32, height: 24, format: 'png' }, params({ scale: 2 }), ctx());
    const { data: px, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([64, 48, 4]);
    expect(px[(10 * 64 + 4) * 4 + 3]).toBe(0);
    expect(px[(10 * 64 + 60) * 4 + 3]).toBe(255);
  });

  it('tiles blend without seams: small tiles give the same picture as one big tile', async () => {
    const { netUpscale, srNets } = await import('./netRunners.js');
    const { MODELS_DIR } = await import('../../tests/support/engines.js');
    const img = await decodeRgb(
      (await input('motorcycle_left.png', { crop: { left: 250, top: 180, width: 100, height: 76 } })).data,
    );
    // the blend of the clean and the mixed net, in one tile and in 32-px tiles
    const nets = srNets(2, 0.5);
    expect(nets.nets).toHaveLength(2);
    const whole = await netUpscale(img, { ...nets, tile: { ...nets.tile, tile: 128 } }, MODELS_DIR, 2);
    const tiled = await netUpscale(img, { ...nets, tile: { ...nets.tile, tile: 32 } }, MODELS_DIR, 2);
    expect(psnr(tiled.data, whole.data)).toBeGreaterThan(45);
  });

  it.each([4, 8] as const)(
    'x%i has no block mosaic (blockiness within 20 percent of Lanczos) and beats Lanczos',
    async (scale) => {
      // a 32×24 input at x8 (a 16×12 one has too little for any net to go on)
      const hi = await decodeRgb(
        (await input('motorcycle_left.png', { crop: { left: 208, top: 160, width: 256, height: 192 } })).data,
      );
      const lo = await resizeRgb(hi, 256 / scale, 192 / scale, 'lanczos3');
      const up = await rgbOf(
        (await enlargeEngine.run(await fromRgb(lo), params({ scale, suppress_noise: 0, remove_blur: 0 }), ctx())).data,
      );
      const lanczos = await resizeRgb(lo, 256, 192, 'lanczos3');
      expect(blockiness(up, scale)).toBeLessThan(blockiness(lanczos, scale) * 1.2);
      expect(psnr(up.data, hi.data)).toBeGreaterThan(psnr(lanczos.data, hi.data));
    },
  );

  it('back-projection pulls the s×s block means onto the input', () => {
    const lo = { w: 8, h: 6, data: Uint8Array.from({ length: 8 * 6 * 3 }, (_, i) => 60 + ((i * 37) % 140)) };
    const hi = { w: 32, h: 24, data: new Uint8Array(32 * 24 * 3).fill(128) };
    const err = () => {
      let e = 0;
      for (let i = 0; i < lo.data.length; i++) {
        const c = i % 3,
          p = (i - c) / 3,
          bx = p % 8,
          by = (p - bx) / 8;
        let s = 0;
        for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) s += hi.data[((by * 4 + y) * 32 + bx * 4 + x) * 3 + c]!;
        e += Math.abs(s / 16 - lo.data[i]!);
      }
      return e / lo.data.length;
    };
    const before = err();
    backProject(hi, lo, 4, 8);
    expect(err()).toBeLessThan(before * 0.25);
  });

  it("plans every plan's largest photo onto a net inside the job limit: big nets where they fit, the fast net where not; an ensemble shrinks and a blend gives way first", () => {
    const engines = (p: ReturnType<typeof planPasses>) => p.map((q) => q.engine);
    const spent = (p: ReturnType<typeof planPasses>, mp: number) => {
      let t = 0,
        area = mp;
      for (const q of p) {
        if (q.engine === 'net') t += PASS_S_PER_MP.net[q.factor] * area * q.ensemble * (q.blend ? 2 : 1);
        if (q.engine === 'fastNet') t += PASS_S_PER_MP.fastNet * area;
        area *= q.factor * q.factor;
      }
      return t;
    };
    // Basic's 14 MP and Pro's 34 MP at 2x, the largest 4x (4096², 16384 out) and 8x (2048²): all on nets
    for (const [scale, mp] of [
      [2, 14],
      [2, 34],
      [4, (4096 * 4096) / 1e6],
      [8, (2048 * 2048) / 1e6],
    ] as const) {
      const plan = planPasses(scale, mp);
      expect(engines(plan)).not.toContain('resize');
      expect(spent(plan, mp)).toBeLessThanOrEqual(NEURAL_BUDGET_S);
      expect(pathOf(plan)).not.toBe('resized');
    }
    // today's plan resized both (Lanczos above ~6.7 MP at 2x)
    expect(engines(planPasses(2, 14))).toEqual(['net']);
    expect(engines(planPasses(2, 34))).toEqual(['net']);
    expect(engines(planPasses(8, (2048 * 2048) / 1e6))).toEqual(['net', 'fastNet']);
    expect(pathOf(planPasses(8, (2048 * 2048) / 1e6))).toBe('fast_net');
    expect(engines(planPasses(8, 0.3))).toEqual(['net', 'net']);
    expect(pathOf(planPasses(8, 0.3))).toBe('net');
    // past the fast net's reach (an x2 of 200 MP is no plan's photo) it is resized, and says so
    expect(engines(planPasses(2, 200))).toEqual(['resize']);
    expect(pathOf(planPasses(2, 200))).toBe('resized');
    expect(planPasses(2, 0.2, 8)[0]).toEqual({ factor: 2, engine: 'net', ensemble: 8, blend: false });
    expect(planPasses(2, 10, 8)[0]).toMatchObject({ engine: 'net', ensemble: 4 });
    expect(planPasses(2, 30, 8)[0]).toMatchObject({ engine: 'net', ensemble: 1 });
    expect(planPasses(2, 2.8, 1, true)[0]).toMatchObject({ engine: 'net', blend: true });
    expect(planPasses(2, 30, 1, true)[0]).toMatchObject({ engine: 'net', blend: false });
  });

  it('a phone-like JPEG (q 75) comes out without blocks, where the clean net alone redraws them; a clean PNG gets the clean net', async () => {
    const { gridBlockiness, gradeInput } = await import('../../src/shared/imaging/inputGrade.js');
    const { luma } = await import('./image.js');
    const { default: sharp } = await import('sharp');
    // the flat backdrop and the rim of coffee.png (a photo no other enlarge test uses), downscaled by 2, saved at q 75
    const png = await sharp((await input('coffee.png', { crop: { left: 0, top: 0, width: 256, height: 192 } })).data)
      .resize(128, 96, { kernel: 'cubic' })
      .png()
      .toBuffer();
    const jpeg = await sharp(png).jpeg({ quality: 75 }).toBuffer();
    const img = { data: jpeg, width: 128, height: 96, format: 'jpeg' as const };
    const blocks = async (p: Record<string, unknown>) => {
      const up = await rgbOf((await enlargeEngine.run(img, params({ scale: 2, ...p }), ctx())).data);
      return gridBlockiness(luma(up), up.w, up.h, 16);
    };
    const measured = await blocks({});
    expect(measured).toBeLessThan(1.15);
    // suppress_noise 0 = the clean net whatever the photo: the blocks come back
    expect(await blocks({ suppress_noise: 0 })).toBeGreaterThan(measured + 0.1);
    const rgb = await rgbOf(png);
    expect(enlargeSettings(defaultParams('enlarge'), rgb, gradeInput(jpeg, luma(rgb), 128, 96)).mixedShare).toBe(1);
    expect(enlargeSettings(defaultParams('enlarge'), rgb, gradeInput(png, luma(rgb), 128, 96)).mixedShare).toBeLessThan(
      0.2,
    );
  });

  it('keeps the colour at the image border (mirrored tile margins, no dark rim)', async () => {
    const flat = { w: 24, h: 20, data: new Uint8Array(24 * 20 * 3).fill(180) };
    const up = await rgbOf(
      (await enlargeEngine.run(await fromRgb(flat), params({ scale: 2, suppress_noise: 0, remove_blur: 0 }), ctx()))
        .data,
    );
    for (const i of [0, 47, 48 * 39, 48 * 40 - 1]) expect(Math.abs(up.data[i * 3]! - 180)).toBeLessThan(4);
  });
});
