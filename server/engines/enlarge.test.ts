import { describe, expect, it } from 'vitest';
import { defaultParams, parseParams } from '../../src/domain/modules.js';
import { enlargeEngine, enlargeSettings } from './enlarge.js';
import { ctx, input, rgbOf, fromRgb } from './testkit.js';
import { psnr, resizeRgb, decodeRgb, gaussianNoise, gaussianBlur, toPlanes, fromPlanes } from './image.js';

const params = (p: Record<string, unknown>) => {
  const r = parseParams('enlarge', p);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('enlarge (ESRGAN)', () => {
  it('beats Lanczos in PSNR on a ×2-downscaled crop, with exact output size', async () => {
    const hi = await decodeRgb((await input('motorcycle_left.png', { crop: { left: 200, top: 150, width: 128, height: 96 } })).data);
    const lo = await resizeRgb(hi, 64, 48, 'lanczos3');
    const progress: number[] = [];
    const out = await enlargeEngine.run(await fromRgb(lo), params({ scale: 2, suppress_noise: 0, remove_blur: 0 }), ctx(progress));
    expect([out.width, out.height]).toEqual([128, 96]);
    const up = await rgbOf(out.data);
    expect([up.w, up.h]).toEqual([128, 96]);
    const lanczos = await resizeRgb(lo, 128, 96, 'lanczos3');
    expect(psnr(up.data, hi.data)).toBeGreaterThan(psnr(lanczos.data, hi.data) + 0.5);
    expect(progress.at(-1)).toBe(1);
  });

  it('with the default params still beats Lanczos', async () => {
    const hi = await decodeRgb((await input('motorcycle_left.png', { crop: { left: 300, top: 200, width: 96, height: 96 } })).data);
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
    const data = await sharp({ create: { width: 2100, height: 10, channels: 3, background: '#808080' } }).png().toBuffer();
    await expect(enlargeEngine.run({ data, width: 2100, height: 10, format: 'png' }, params({ scale: 8 }), ctx())).rejects.toThrow(/at most 16384 px/);
  });

  it('remove_blur raises edge contrast; suppress_noise smooths', async () => {
    const img = await input('chelsea.png', { crop: { left: 150, top: 80, width: 48, height: 48 } });
    const run = async (p: Record<string, unknown>) => rgbOf((await enlargeEngine.run(img, params({ scale: 2, ...p }), ctx())).data);
    const { hfEnergy } = await import('./testkit.js');
    const base = hfEnergy(await run({ suppress_noise: 0, remove_blur: 0 }));
    expect(hfEnergy(await run({ suppress_noise: 0, remove_blur: 100 }))).toBeGreaterThan(base * 1.1);
    expect(hfEnergy(await run({ suppress_noise: 100, remove_blur: 0 }))).toBeLessThan(base);
  });

  it('autoparams reads noise and blur from the picture', async () => {
    const img = await decodeRgb((await input('coffee.png', { width: 160 })).data);
    const n = gaussianNoise(img.data.length, 20, 3);
    const noisy = { ...img, data: Uint8Array.from(img.data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))) };
    const soft = fromPlanes(toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, 2)), img.w, img.h);
    const auto = { ...defaultParams('enlarge'), autoparams: true };
    expect(enlargeSettings(auto, noisy).suppressNoise).toBeGreaterThan(enlargeSettings(auto, img).suppressNoise + 30);
    expect(enlargeSettings(auto, soft).removeBlur).toBeGreaterThan(enlargeSettings(auto, img).removeBlur);
    expect(enlargeSettings({ ...defaultParams('enlarge'), quality: 'best' }).size).toBe('medium');
  });

  it('keeps the transparency of a PNG with alpha', async () => {
    const { default: sharp } = await import('sharp');
    const rgba = Buffer.alloc(32 * 24 * 4);
    for (let i = 0; i < 32 * 24; i++) rgba.set([200, 80, 40, i % 32 < 16 ? 0 : 255], i * 4);
    const data = await sharp(rgba, { raw: { width: 32, height: 24, channels: 4 } }).png().toBuffer();
    const out = await enlargeEngine.run({ data, width: 32, height: 24, format: 'png' }, params({ scale: 2 }), ctx());
    const { data: px, info } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([64, 48, 4]);
    expect(px[(10 * 64 + 4) * 4 + 3]).toBe(0);
    expect(px[(10 * 64 + 60) * 4 + 3]).toBe(255);
  });

  it('tiles blend without seams: small tiles give the same picture as one big tile', async () => {
    const { upscaleTiled } = await import('./esrgan.js');
    const { MODELS_DIR } = await import('./testkit.js');
    const img = await decodeRgb((await input('motorcycle_left.png', { crop: { left: 250, top: 180, width: 100, height: 76 } })).data);
    const tiled = await upscaleTiled(img, 'slim', 2, MODELS_DIR, 2, undefined, { tile: 32 });
    const whole = await upscaleTiled(img, 'slim', 2, MODELS_DIR, 2, undefined, { tile: 512 });
    expect(psnr(tiled.data, whole.data)).toBeGreaterThan(45);
  });
});
