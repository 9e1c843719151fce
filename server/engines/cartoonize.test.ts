import { describe, expect, it } from 'vitest';
import { cartoonizeEngine } from './cartoonize.js';
import { faceEnhancerEngine } from './faceEnhancer.js';
import { detectFaces } from './faces.js';
import { ctx, distinctColours, input, rgbOf, MODELS_DIR } from './testkit.js';
import { faceChange } from '../../scripts/quality/face-colour-cartoon.js';

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
  it('changes the face visibly, the rest gently, with no halo at the blend ellipse', async () => {
    const img = await input('astronaut.png');
    const before = await rgbOf(img.data);
    const [f] = await detectFaces(before, MODELS_DIR, 2);
    const out = await faceEnhancerEngine.run(img, { model_name: 'FaceEnhancerStable' }, ctx());
    const px = await rgbOf(out.data);
    expect([px.w, px.h]).toEqual([512, 512]);
    const c = faceChange(before, px, f!);
    // measured 6.98 inside, 1.60 outside, 1.64 in the ring just outside the ellipse
    expect(c.inside).toBeGreaterThan(5);
    expect(c.inside).toBeGreaterThan(c.outside * 3);
    expect(c.ring).toBeLessThan(c.outside * 1.5 + 0.5);
  });
});
