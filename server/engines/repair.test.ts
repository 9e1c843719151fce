import { describe, expect, it } from 'vitest';
import { repairEngine, repairRgb } from './repair.js';
import { addScratches, scratchRemoval } from './scratches.js';
import { ctx, fromRgb, input, rgbOf } from './testkit.js';
import { decodeRgb, psnr } from './image.js';

describe('repair (scratches and dust)', () => {
  it.each([
    ['LadyBird.jpg', 400],
    ['rocket.jpg', 360],
  ] as const)('%s at %i px: removes ≥ 80 percent of synthetic scratch pixels and leaves the clean photo nearly alone', async (f, width) => {
    const clean = await decodeRgb((await input(f, { width })).data);
    const { img, mask } = addScratches(clean, { seed: 5 });
    const { out } = repairRgb(img);
    expect(scratchRemoval(clean, img, out, mask)).toBeGreaterThanOrEqual(0.8);
    expect(psnr(out.data, clean.data)).toBeGreaterThan(psnr(img.data, clean.data) + 5);
    expect(psnr(repairRgb(clean).out.data, clean.data)).toBeGreaterThan(30);
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
