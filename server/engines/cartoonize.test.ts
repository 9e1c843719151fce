import { describe, expect, it } from 'vitest';
import { cartoonizeEngine } from './cartoonize.js';
import { faceEnhancerEngine } from './faceEnhancer.js';
import { detectFaces } from './faces.js';
import { ctx, distinctColours, input, rgbOf, MODELS_DIR } from './testkit.js';

describe('cartoonize', () => {
  it('reduces the number of distinct colours sharply and draws dark lines', async () => {
    const img = await input('chelsea.png', { width: 200 });
    const before = await rgbOf(img.data);
    const out = await cartoonizeEngine.run(img, { model_name: 'CartoonizeStable' }, ctx());
    expect([out.width, out.height]).toEqual([before.w, before.h]);
    const px = await rgbOf(out.data);
    expect(distinctColours(px)).toBeLessThan(distinctColours(before) * 0.6);
    let dark = 0;
    for (let i = 0; i < px.data.length; i += 3) if (px.data[i]! + px.data[i + 1]! + px.data[i + 2]! < 90) dark++;
    expect(dark).toBeGreaterThan(50);
  });
});

describe('face_enhancer', () => {
  it('changes the face region more than the rest', async () => {
    const img = await input('astronaut.png');
    const before = await rgbOf(img.data);
    const [f] = await detectFaces(before, MODELS_DIR, 2);
    const out = await faceEnhancerEngine.run(img, { model_name: 'FaceEnhancerStable' }, ctx());
    const px = await rgbOf(out.data);
    expect([px.w, px.h]).toEqual([512, 512]);
    let inside = 0, nIn = 0, outside = 0, nOut = 0;
    for (let y = 0; y < 512; y++)
      for (let x = 0; x < 512; x++) {
        const i = (y * 512 + x) * 3;
        const d = Math.abs(px.data[i]! - before.data[i]!) + Math.abs(px.data[i + 1]! - before.data[i + 1]!);
        const isIn = x > f!.x && x < f!.x + f!.w && y > f!.y && y < f!.y + f!.h;
        if (isIn) { inside += d; nIn++; } else { outside += d; nOut++; }
      }
    expect(inside / nIn).toBeGreaterThan(1);
    expect(inside / nIn).toBeGreaterThan((outside / nOut) * 5);
  });
});
