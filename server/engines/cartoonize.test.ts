import { describe, expect, it } from 'vitest';
import { cartoonizeEngine } from './cartoonize.js';
import { faceEnhancerEngine } from './faceEnhancer.js';
import { detectFaces } from './faces.js';
import { ctx, distinctColours, input, rgbOf, MODELS_DIR } from './testkit.js';
import { faceChange, flatRegions, inkContinuity } from '../../scripts/quality/face-colour-cartoon.js';

describe('cartoonize', () => {
  it('flat colour regions, bold continuous ink, fewer colours', async () => {
    const img = await input('chelsea.png', { width: 240 });
    const before = await rgbOf(img.data);
    const out = await cartoonizeEngine.run(img, { model_name: 'CartoonizeStable' }, ctx());
    expect([out.width, out.height]).toEqual([before.w, before.h]);
    const px = await rgbOf(out.data);
    expect(distinctColours(px)).toBeLessThan(distinctColours(before) * 0.8);
    const ink = inkContinuity(px);
    // ink: a few per cent of the picture, nearly all of it in long strokes (no speckle)
    expect(ink.ink).toBeGreaterThan(0.02);
    expect(ink.ink).toBeLessThan(0.25);
    expect(ink.continuity).toBeGreaterThan(0.95); // the previous DoG lines: 0.87, the photo's dark pixels 0.84
    const fr = flatRegions(px);
    // flat regions cover most of the picture (photo: 19 %), and there are not hundreds of blotches (measured 191)
    expect(fr.coverage).toBeGreaterThan(0.5);
    expect(fr.count).toBeGreaterThan(10);
    expect(fr.count).toBeLessThan(300);
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
    // measured 6.44 inside with FaceMesh masks (6.99 with the keypoint ellipses), 1.60 outside, 1.64 in the ring just outside the ellipse
    expect(c.inside).toBeGreaterThan(5);
    expect(c.inside).toBeGreaterThan(c.outside * 3);
    expect(c.ring).toBeLessThan(c.outside * 1.5 + 0.5);
  });
});
