import { describe, expect, it } from 'vitest';
import { portraitEngine } from './portrait.js';
import { detectFaces } from './faces.js';
import { ctx, hfEnergy, input, rgbOf, MODELS_DIR } from '../../tests/support/engines.js';

describe('face detection (BlazeFace)', () => {
  it('finds the face on astronaut.png within a plausible box', async () => {
    const img = await rgbOf((await input('astronaut.png')).data);
    const faces = await detectFaces(img, MODELS_DIR, 2);
    expect(faces.length).toBe(1);
    const f = faces[0]!;
    const cx = f.x + f.w / 2,
      cy = f.y + f.h / 2;
    // the astronaut's face is centred near (225, 125) and ~100 px wide in the 512² picture
    expect(cx).toBeGreaterThan(190);
    expect(cx).toBeLessThan(260);
    expect(cy).toBeGreaterThan(90);
    expect(cy).toBeLessThan(160);
    expect(f.w).toBeGreaterThan(60);
    expect(f.w).toBeLessThan(180);
  });

  it('finds no face on a coffee cup', async () => {
    const img = await rgbOf((await input('coffee.png')).data);
    expect(await detectFaces(img, MODELS_DIR, 2)).toEqual([]);
  });
});

describe('portrait (pencil sketch)', () => {
  it('is near-grayscale with strong edges', async () => {
    const img = await input('astronaut.png', { width: 256 });
    const out = await portraitEngine.run(img, { single_face: false }, ctx());
    expect([out.width, out.height]).toEqual([256, 256]);
    const px = await rgbOf(out.data);
    let maxDiff = 0;
    let light = 0;
    for (let i = 0; i < px.data.length; i += 3) {
      maxDiff = Math.max(maxDiff, Math.abs(px.data[i]! - px.data[i + 1]!), Math.abs(px.data[i + 1]! - px.data[i + 2]!));
      if (px.data[i]! > 200) light++;
    }
    expect(maxDiff).toBeLessThanOrEqual(2);
    expect(light / (256 * 256)).toBeGreaterThan(0.3); // paper-white background
    expect(hfEnergy(px)).toBeGreaterThan(50);
  });

  it('single_face crops to the face at a sensible size (≥ 512 px, not a 191-px thumbnail)', async () => {
    const img = await input('astronaut.png');
    const out = await portraitEngine.run(img, { single_face: true }, ctx());
    expect(out.width).toBe(out.height);
    expect(out.width).toBeGreaterThanOrEqual(512);
    // still a face crop: the face fills a good part of it
    const px = await rgbOf(out.data);
    const faces = await detectFaces(px, MODELS_DIR, 2);
    expect(faces.length).toBe(1);
    expect(faces[0]!.w / px.w).toBeGreaterThan(0.25);
  });

  it('keeps shadow detail: dark areas get strokes, not solid black', async () => {
    // the astronaut's dark suit collar
    const img = await input('astronaut.png', { crop: { left: 150, top: 330, width: 200, height: 120 } });
    const px = await rgbOf((await portraitEngine.run(img, { single_face: false }, ctx())).data);
    let black = 0;
    for (let i = 0; i < px.data.length; i += 3) if (px.data[i]! < 30) black++;
    expect(black / (px.w * px.h)).toBeLessThan(0.01);
    expect(hfEnergy(px)).toBeGreaterThan(20);
  });
});
