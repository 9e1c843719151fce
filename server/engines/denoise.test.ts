import { describe, expect, it } from 'vitest';
import { defaultParams, parseParams } from '../../src/shared/domain/modules.js';
import { reasonMsg } from '../../src/shared/domain/reasons.js';
import { denoiseEngine, denoiseRgb } from './denoise.js';
import { ctx, fromRgb, hfEnergy, input, rgbOf } from '../../tests/support/engines.js';
import { decodeRgb, fromPlanes, gaussianBlur, gaussianNoise, psnr, toPlanes, type Rgb } from './image.js';

const params = (p: Record<string, unknown>) => {
  const r = parseParams('denoise', p);
  if (!r.ok) throw new Error(reasonMsg(r.error));
  return r.value;
};

async function clean(): Promise<Rgb> {
  return decodeRgb((await input('GreenMeadow.jpg', { width: 160 })).data);
}
function noisy(img: Rgb, sigma: number): Rgb {
  const n = gaussianNoise(img.data.length, sigma, 11);
  return { ...img, data: Uint8Array.from(img.data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))) };
}

describe('denoise (our blind denoising net)', () => {
  it('raises PSNR of a σ=25 noisy image well above the noisy input and above a Gaussian blur', async () => {
    const ref = await clean();
    const dirty = noisy(ref, 25);
    const out = await denoiseEngine.run(await fromRgb(dirty), params({ remove_noise: 75, sharpen: 0 }), ctx());
    expect([out.width, out.height]).toEqual([ref.w, ref.h]);
    const den = await rgbOf(out.data);
    const blur = fromPlanes(
      toPlanes(dirty).map((c) => gaussianBlur(c, ref.w, ref.h, 1.5)),
      ref.w,
      ref.h,
    );
    expect(psnr(den.data, ref.data)).toBeGreaterThan(psnr(dirty.data, ref.data) + 7);
    expect(psnr(den.data, ref.data)).toBeGreaterThan(psnr(blur.data, ref.data) + 1.5);
    // and above the classical non-local means it replaced
    const nlm = denoiseRgb(dirty, { removeNoise: 75, sharpen: 0, removeOriginalDetail: 0, autoparams: false });
    expect(psnr(den.data, ref.data)).toBeGreaterThan(psnr(nlm.data, ref.data));
  });

  it('leaves a clean photo nearly as it is at the defaults, and remove_noise 0 exactly as it is', async () => {
    const ref = await clean();
    const out = await rgbOf((await denoiseEngine.run(await fromRgb(ref), defaultParams('denoise'), ctx())).data);
    // grass at 160 px is almost all fine texture, which a blind denoiser takes for noise in part
    expect(psnr(out.data, ref.data)).toBeGreaterThan(32);
    const none = await rgbOf(
      (await denoiseEngine.run(await fromRgb(ref), params({ remove_noise: 0, sharpen: 0 }), ctx())).data,
    );
    expect(none.data).toEqual(ref.data);
  });

  it('each slider moves the result in the direction its name says', async () => {
    const dirty = await fromRgb(noisy(await clean(), 15));
    const hf = async (p: Record<string, unknown>) =>
      hfEnergy(await rgbOf((await denoiseEngine.run(dirty, params(p), ctx())).data));
    const base = await hf({ remove_noise: 50, sharpen: 0, remove_original_detail: 0 });
    expect(await hf({ remove_noise: 100, sharpen: 0, remove_original_detail: 0 })).toBeLessThan(base);
    expect(await hf({ remove_noise: 50, sharpen: 100, remove_original_detail: 0 })).toBeGreaterThan(base);
    expect(await hf({ remove_noise: 50, sharpen: 0, remove_original_detail: 100 })).toBeLessThan(base);
  });

  it('autoparams adapts to the measured noise', async () => {
    const ref = await clean();
    const dirty = noisy(ref, 25);
    const out = await rgbOf(
      (
        await denoiseEngine.run(
          await fromRgb(dirty),
          { ...defaultParams('denoise'), remove_noise: 0, sharpen: 0, autoparams: true },
          ctx(),
        )
      ).data,
    );
    expect(psnr(out.data, ref.data)).toBeGreaterThan(psnr(dirty.data, ref.data) + 6);
  });
});
