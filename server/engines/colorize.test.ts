import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { defaultParams } from '../../src/domain/modules.js';
import { colorizeEngine, colorizeProEngine } from './colorize.js';
import { readPsdSummary } from './psd.js';
import { ctx, input, meanChroma, rgbOf } from './testkit.js';

describe('colorize (exemplar colour transfer)', () => {
  it('gives the grayscale camera.png real chroma and keeps its size', async () => {
    const img = await input('camera.png', { width: 200 });
    expect(meanChroma(await rgbOf(img.data))).toBeLessThan(1);
    const out = await colorizeEngine.run(img, defaultParams('colorize'), ctx());
    expect([out.width, out.height]).toEqual([200, 200]);
    const px = await rgbOf(out.data);
    expect(meanChroma(px)).toBeGreaterThan(6);
    // luminance is the original's
    const g0 = await sharp(img.data).grayscale().raw().toBuffer();
    const g1 = await sharp(out.data).grayscale().raw().toBuffer();
    let d = 0;
    for (let i = 0; i < g0.length; i++) d += Math.abs(g0[i]! - g1[i]!);
    expect(d / g0.length).toBeLessThan(8);
  });

  it('render_factor changes the result; psd=true writes a two-layer PSD', async () => {
    const img = await input('camera.png', { width: 128 });
    const a = await colorizeProEngine.run(img, { ...defaultParams('colorize_pro'), render_factor: 5, psd: true }, ctx());
    const b = await colorizeProEngine.run(img, { ...defaultParams('colorize_pro'), render_factor: 30 }, ctx());
    expect(Buffer.compare(a.data, b.data)).not.toBe(0);
    const psd = a.extras?.psd;
    expect(psd?.format).toBe('psd');
    const s = readPsdSummary(psd!.data);
    expect(s).toEqual({ width: 128, height: 128, channels: 3, layers: ['Original', 'Colorized'] });
    expect(b.extras).toBeUndefined();
  });

  it('refuses a PSD for a level without it', async () => {
    const img = await input('camera.png', { width: 64 });
    await expect(colorizeEngine.run(img, { ...defaultParams('colorize'), psd: true }, { ...ctx(), level: 'guest' })).rejects.toThrow(/Only Pro/);
  });
});
