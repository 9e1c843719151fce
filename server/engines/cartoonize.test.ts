import { describe, expect, it } from 'vitest';
import { cartoon, cartoonizeEngine } from './cartoonize.js';
import { faceEnhancerEngine } from './faceEnhancer.js';
import { detectFaces } from './faces.js';
import { ctx, distinctColours, input, rgbOf, MODELS_DIR } from '../../tests/support/engines.js';
import { faceChange } from '../../scripts/quality/face-colour-cartoon.js';
import { flatMask, strokeStats } from '../../scripts/quality/cartoon-retouch.js';
import { gaussianNoise, luma, type Rgb } from './image.js';

/** A grey picture from a luma function, with Gaussian noise σ. */
function synth(w: number, h: number, f: (x: number, y: number) => number, sigma: number): Rgb {
  const noise = gaussianNoise(w * h, sigma, 11);
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        v = Math.max(0, Math.min(255, Math.round(f(x, y) + noise[i]!)));
      // a blue-ish sky tint
      data[i * 3] = Math.round(v * 0.8);
      data[i * 3 + 1] = Math.round(v * 0.9);
      data[i * 3 + 2] = v;
    }
  return { w, h, data };
}

/** Pixels of the output darker than `t` (ink) as a 0/1 map. */
const darkMap = (img: Rgb, t: number) => Float32Array.from(luma(img), (v) => (v < t ? 1 : 0));

describe('cartoonize', () => {
  it('puts no ink on a noisy sky gradient', () => {
    // smooth sky: 130 at the horizon to 220 at the top, σ 4 noise (a phone photo's sky)
    const sky = synth(480, 320, (_x, y) => 220 - (90 * y) / 320, 4);
    const out = cartoon(sky).image;
    // nothing in the picture is darker than 100 unless ink was drawn (the sky's darkest is ~115)
    const dark = darkMap(out, 100);
    expect(dark.reduce((a, v) => a + v, 0)).toBe(0); // the Canny ink of the previous engine: 9.9 % of the sky
  });

  it('draws one long stroke along a curved edge whose contrast fades, thick where strong, thin where weak', () => {
    const w = 480,
      h = 320;
    const curve = (x: number) => 160 + 60 * Math.sin((2 * Math.PI * x) / w);
    // above the curve 200, below it 200 − contrast, the contrast falling from 130 (left) to 25 (right)
    const img = synth(w, h, (x, y) => (y < curve(x) ? 200 : 200 - (130 - (105 * x) / w)), 3);
    const ink = darkMap(cartoon(img).image, 60);
    const st = strokeStats(ink, w, h);
    // one stroke (two at most) running nearly the whole width: measured 458 of 480 columns, length 452;
    // the previous engine's Canny stopped where the contrast fell under its threshold (312 columns)
    let cols = 0,
      off = 0,
      left = 0,
      right = 0;
    for (let x = 0; x < w; x++) {
      let any = 0;
      for (let y = 0; y < h; y++) {
        const v = ink[y * w + x]!;
        any |= v;
        if (v && Math.abs(y - curve(x)) > 4) off++;
        if (x >= 20 && x < 120) left += v;
        if (x >= 360 && x < 460) right += v;
      }
      cols += any;
    }
    expect(cols).toBeGreaterThan(0.9 * w);
    expect(st.strokes).toBeLessThanOrEqual(2);
    expect(st.inkWeightedStroke).toBeGreaterThan(0.8 * w);
    // the ink lies on the edge (within 4 px of it) ...
    expect(off).toBeLessThan(0.01 * st.ink * w * h);
    // ... and tapers: mean width 3.6 px at the strong end, 1.9 px at the weak end (previous engine: 3.35 / none)
    expect(left / 100).toBeGreaterThan(1.5 * (right / 100));
    expect(right / 100).toBeGreaterThan(0.8);
  });

  it('a photo: fewer colours, long strokes, no ink in its flat regions', async () => {
    const img = await input('chelsea.png', { width: 240 });
    const before = await rgbOf(img.data);
    const out = await cartoonizeEngine.run(img, { model_name: 'CartoonizeStable' }, ctx());
    expect([out.width, out.height]).toEqual([before.w, before.h]);
    const px = await rgbOf(out.data);
    expect(distinctColours(px)).toBeLessThan(distinctColours(before) * 0.8);
    const r = cartoon(before);
    const st = strokeStats(r.ink, before.w, before.h, flatMask(before));
    expect(st.ink).toBeGreaterThan(0.01);
    expect(st.ink).toBeLessThan(0.2);
    expect(st.inkInFlat).toBeLessThan(0.02);
  });
});

describe('face_enhancer', () => {
  it('changes the face and nothing well outside it', async () => {
    const img = await input('astronaut.png');
    const before = await rgbOf(img.data);
    const [f] = await detectFaces(before, MODELS_DIR, 2);
    const out = await faceEnhancerEngine.run(img, { model_name: 'FaceEnhancerStable' }, ctx());
    const px = await rgbOf(out.data);
    expect([px.w, px.h]).toEqual([512, 512]);
    const c = faceChange(before, px, f!);
    // restoration of the head crop only (measured 1.77 inside the face box); nothing else changes
    expect(c.inside).toBeGreaterThan(1);
    expect(c.outside).toBe(0);
  });
});
