import { describe, expect, it } from 'vitest';
import { isLowLight, perfectEngine, perfectRgb } from './perfect.js';
import { ctx, fromRgb, input, rgbOf } from './testkit.js';
import { decodeRgb, luma, psnr, type Rgb } from './image.js';

const means = (img: Rgb) => {
  const m = [0, 0, 0];
  for (let i = 0; i < img.data.length; i++) m[i % 3]! += img.data[i]!;
  return m.map((v) => v / (img.w * img.h));
};
const meanLuma = (img: Rgb) => luma(img).reduce((a, v) => a + v, 0) / (img.w * img.h);
const spread = (m: number[]) => Math.max(...m) - Math.min(...m);
const range = (img: Rgb) => {
  const y = [];
  for (let i = 0; i < img.data.length; i += 3) y.push(img.data[i + 1]!);
  y.sort((a, b) => a - b);
  return y[Math.floor(y.length * 0.99)]! - y[Math.floor(y.length * 0.01)]!;
};

describe('perfect (auto retouch)', () => {
  it('MAXIM retouching takes a cast, flat copy back towards the original and stretches its range', async () => {
    const ref = await decodeRgb((await input('coffee.png', { width: 160 })).data);
    // a dull, blue-tinted copy: contrast squeezed to 60..180, red/green dimmed
    const cast: Rgb = { ...ref, data: Uint8Array.from(ref.data, (v, i) => Math.round((60 + v * 0.47) * [0.8, 0.9, 1.1][i % 3]!)) };
    expect(isLowLight(cast)).toBe(false);
    const progress: number[] = [];
    const out = await perfectEngine.run(await fromRgb(cast), { model_name: 'perfect_2k' }, ctx(progress));
    expect([out.width, out.height]).toEqual([ref.w, ref.h]);
    const px = await rgbOf(out.data);
    // measured 14.1 → 16.95 dB (classical: 14.8); a grey-world criterion does not fit an orange cup
    expect(psnr(px.data, ref.data)).toBeGreaterThan(psnr(cast.data, ref.data) + 2);
    expect(range(px)).toBeGreaterThan(range(cast) * 1.2);
    expect(progress.at(-1)).toBe(1);
  });

  it('a dark picture goes to MAXIM low-light enhancement and comes out brighter', async () => {
    const ref = await decodeRgb((await input('rocket.jpg', { width: 192 })).data);
    const dark: Rgb = { ...ref, data: Uint8Array.from(ref.data, (v) => Math.round(0.45 * 255 * (v / 255) ** 2)) };
    expect(isLowLight(dark)).toBe(true);
    const px = await rgbOf((await perfectEngine.run(await fromRgb(dark), { model_name: 'perfect_2k' }, ctx())).data);
    expect([px.w, px.h]).toEqual([ref.w, ref.h]);
    expect(meanLuma(px)).toBeGreaterThan(1.8 * meanLuma(dark));
  });

  it('the classical retouch (kept for comparison) also removes a cast', async () => {
    const ref = await decodeRgb((await input('coffee.png', { width: 120 })).data);
    const cast: Rgb = { ...ref, data: Uint8Array.from(ref.data, (v, i) => Math.round((60 + v * 0.47) * [0.8, 0.9, 1.1][i % 3]!)) };
    const px = perfectRgb(cast);
    expect(spread(means(px))).toBeLessThan(spread(means(cast)) * 0.8);
    expect(range(px)).toBeGreaterThan(range(cast) * 1.3);
  });
});
