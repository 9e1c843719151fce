/** Preset scenes (src/shared/domain/modules.ts PRESETS) must beat their last step alone where they are meant to. */
import { describe, expect, it } from 'vitest';
import { PRESETS, type ModuleName, type ModuleParams, type PresetName } from '../../src/shared/domain/modules.js';
import { runModule } from './registry.js';
import { addScratches, scratchRemoval } from './scratches.js';
import { ctx, fromRgb, input } from '../../tests/support/engines.js';
import { decodeRgb, fromPlanes, gaussianBlur, psnr, resizeRgb, toPlanes, type Rgb } from './image.js';

const run = async (m: ModuleName, img: Rgb, p: ModuleParams) =>
  decodeRgb((await runModule(m, await fromRgb(img), p, ctx())).data);
const preset = async (name: PresetName, img: Rgb) => {
  let x = img;
  for (const s of PRESETS[name]) x = await run(s.config.module, x, s.config.module_params);
  return x;
};

describe('preset scenes', () => {
  it('se-hd beats enlarge 2x alone on a soft ×2-downscaled crop and costs little on a clean one', async () => {
    const hi = await decodeRgb(
      (await input('astronaut.png', { crop: { left: 120, top: 60, width: 160, height: 128 } })).data,
    );
    const lo = await resizeRgb(hi, 80, 64);
    const soft = fromPlanes(
      toPlanes(lo).map((p) => gaussianBlur(p, lo.w, lo.h, 1)),
      lo.w,
      lo.h,
    );
    const gain = async (x: Rgb) =>
      psnr((await preset('se-hd', x)).data, hi.data) - psnr((await run('enlarge', x, { scale: 2 })).data, hi.data);
    // our nets undo the blur of a plain downscale themselves, so the sharpen_auto step pays off on soft photos only
    expect(await gain(soft)).toBeGreaterThan(0.2);
    expect(await gain(lo)).toBeGreaterThan(-0.6);
  });

  it('se-old-repair removes most synthetic scratches; its enlarge step alone keeps them', async () => {
    const clean = await decodeRgb((await input('LadyBird.jpg', { width: 400 })).data);
    const { img: bad, mask } = addScratches(clean, { seed: 5 });
    const up = new Uint8Array(mask.length * 4);
    for (let y = 0; y < clean.h * 2; y++)
      for (let x = 0; x < clean.w * 2; x++) up[y * clean.w * 2 + x] = mask[(y >> 1) * clean.w + (x >> 1)]!;
    const last = PRESETS['se-old-repair'].at(-1)!.config.module_params;
    const share = async (f: (x: Rgb) => Promise<Rgb>) => {
      const a = await f(clean),
        b = await f(bad);
      return scratchRemoval(a, await resizeRgb(bad, a.w, a.h), b, up);
    };
    const presetShare = await share((x) => preset('se-old-repair', x));
    const enlargeShare = await share((x) => run('enlarge', x, last));
    expect(presetShare).toBeGreaterThan(0.7);
    expect(presetShare).toBeGreaterThan(enlargeShare + 0.4);
  });
});
