import { describe, expect, it } from 'vitest';
import { autoSharpenRgb } from './sharpenAuto.js';
import { input } from './testkit.js';
import { decodeRgb, fromPlanes, gaussianBlur, psnr, toPlanes, type Rgb } from './image.js';

const blurred = (img: Rgb, s: number) => fromPlanes(toPlanes(img).map((c) => gaussianBlur(c, img.w, img.h, s)), img.w, img.h);

describe('sharpen_auto backs off on sharp pictures', () => {
  it('barely touches an already sharp photo but still restores a blurred copy', async () => {
    const crisp = await decodeRgb((await input('motorcycle_left.png', { width: 240 })).data);
    expect(psnr(autoSharpenRgb(crisp).out.data, crisp.data)).toBeGreaterThan(42);
    const soft = blurred(crisp, 1.2);
    expect(psnr(autoSharpenRgb(soft).out.data, crisp.data)).toBeGreaterThan(psnr(soft.data, crisp.data));
  });

  it('leaves smooth bokeh alone (detail gate)', async () => {
    const img = await decodeRgb((await input('LadyBird.jpg', { crop: { left: 0, top: 800, width: 160, height: 120 } })).data);
    expect(psnr(autoSharpenRgb(img).out.data, img.data)).toBeGreaterThan(45);
  });
});
