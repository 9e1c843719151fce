import { describe, expect, it } from 'vitest';
import { parseParams } from '../../src/shared/domain/modules.js';
import { reasonMsg } from '../../src/shared/domain/reasons.js';
import { effectiveSharpness, sharpenEngine } from './sharpen.js';
import { sharpenAutoEngine, autoSharpenRgb } from './sharpenAuto.js';
import { ctx, fromRgb, hfEnergy, input, rgbOf } from '../../tests/support/engines.js';
import { decodeRgb, fromPlanes, gaussianBlur, luma, psnr, toPlanes, type Rgb } from './image.js';

const params = (p: Record<string, unknown>) => {
  const r = parseParams('sharpen', p);
  if (!r.ok) throw new Error(reasonMsg(r.error));
  return r.value;
};
const blurred = (img: Rgb, s: number) =>
  fromPlanes(
    toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, s)),
    img.w,
    img.h,
  );

describe('sharpen (unsharp mask)', () => {
  it('raises high-frequency energy, monotonically in sharpness', async () => {
    const img = await input('coffee.png', { width: 150 });
    const hf = async (sharpness: number) =>
      hfEnergy(await rgbOf((await sharpenEngine.run(img, params({ sharpness, suppress_noise: 0 }), ctx())).data));
    const orig = hfEnergy(await rgbOf(img.data));
    const e = [await hf(25), await hf(50), await hf(75), await hf(100)];
    expect(e[0]).toBeGreaterThan(orig);
    for (let i = 1; i < e.length; i++) expect(e[i]).toBeGreaterThan(e[i - 1]!);
  });

  it('brings a blurred image closer to the original', async () => {
    const ref = await decodeRgb((await input('coffee.png', { width: 150 })).data);
    const soft = blurred(ref, 1);
    const out = await rgbOf(
      (await sharpenEngine.run(await fromRgb(soft), params({ sharpness: 50, suppress_noise: 10 }), ctx())).data,
    );
    expect(psnr(out.data, ref.data)).toBeGreaterThan(psnr(soft.data, ref.data));
  });

  it('suppress_noise lowers amplification; add_grain adds texture', async () => {
    const img = await input('coffee.png', { width: 150 });
    const hf = async (p: Record<string, unknown>) =>
      hfEnergy(await rgbOf((await sharpenEngine.run(img, params(p), ctx())).data));
    expect(await hf({ sharpness: 75, suppress_noise: 100 })).toBeLessThan(
      await hf({ sharpness: 75, suppress_noise: 0 }),
    );
    expect(await hf({ sharpness: 75, suppress_noise: 50, add_grain: 100 })).toBeGreaterThan(
      await hf({ sharpness: 75, suppress_noise: 50, add_grain: 0 }),
    );
  });
});

describe('sharpen autoparams', () => {
  it('sharpens a blurred picture harder than a crisp one', async () => {
    const crisp = await decodeRgb((await input('coffee.png', { width: 150 })).data);
    const soft = blurred(crisp, 1.5);
    const o = { sharpness: 0, suppressNoise: 0, addGrain: 0, autoparams: true };
    const k = (img: Rgb) => effectiveSharpness(luma(img), img.w, img.h, o);
    expect(k(soft)).toBeGreaterThan(k(crisp) + 10);
    const out = await rgbOf(
      (await sharpenEngine.run(await fromRgb(soft), params({ sharpness: 0, autoparams: true }), ctx())).data,
    );
    expect(hfEnergy(out)).toBeGreaterThan(hfEnergy(soft) * 1.3);
  });
});

describe('sharpen_auto (blur estimation)', () => {
  it('sharpens a blurred picture harder than a crisp one and raises its detail', async () => {
    const crisp = await decodeRgb((await input('motorcycle_left.png', { width: 160 })).data);
    const soft = blurred(crisp, 1.6);
    const a = autoSharpenRgb(crisp);
    const b = autoSharpenRgb(soft);
    expect(b.blur).toBeGreaterThan(a.blur);
    expect(b.amount).toBeGreaterThan(a.amount);
    const out = await sharpenAutoEngine.run(await fromRgb(soft), { model_name: 'DpedSharpenStable' }, ctx());
    expect([out.width, out.height]).toEqual([soft.w, soft.h]);
    const px = await rgbOf(out.data);
    expect(hfEnergy(px)).toBeGreaterThan(hfEnergy(soft) * 1.5);
    expect(psnr(px.data, crisp.data)).toBeGreaterThan(psnr(soft.data, crisp.data));
  });
});
