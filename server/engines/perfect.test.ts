import { describe, expect, it } from 'vitest';
import { perfectEngine } from './perfect.js';
import { ctx, fromRgb, input, rgbOf } from './testkit.js';
import { decodeRgb, type Rgb } from './image.js';

const means = (img: Rgb) => {
  const m = [0, 0, 0];
  for (let i = 0; i < img.data.length; i++) m[i % 3]! += img.data[i]!;
  return m.map((v) => v / (img.w * img.h));
};

describe('perfect (auto retouch)', () => {
  it('reduces a colour cast and stretches a flat tonal range', async () => {
    const ref = await decodeRgb((await input('coffee.png', { width: 160 })).data);
    // a dull, blue-tinted copy: contrast squeezed to 60..180, red/green dimmed
    const cast: Rgb = { ...ref, data: Uint8Array.from(ref.data, (v, i) => Math.round((60 + v * 0.47) * [0.8, 0.9, 1.1][i % 3]!)) };
    const out = await perfectEngine.run(await fromRgb(cast), { model_name: 'perfect_2k' }, ctx());
    expect([out.width, out.height]).toEqual([ref.w, ref.h]);
    const px = await rgbOf(out.data);
    const spread = (m: number[]) => Math.max(...m) - Math.min(...m);
    expect(spread(means(px))).toBeLessThan(spread(means(cast)) * 0.8);
    const range = (img: Rgb) => {
      const y = [];
      for (let i = 0; i < img.data.length; i += 3) y.push(img.data[i + 1]!);
      y.sort((a, b) => a - b);
      return y[Math.floor(y.length * 0.99)]! - y[Math.floor(y.length * 0.01)]!;
    };
    expect(range(px)).toBeGreaterThan(range(cast) * 1.3);
  });
});
