import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { defaultParams } from '../../src/domain/modules.js';
import { colorizeEngine, colorizeProEngine, colorizeRgb } from './colorize.js';
import { abError, grey, skyHue } from '../../scripts/quality/face-colour-cartoon.js';
import { readPsdSummary } from './psd.js';
import { ctx, input, meanChroma, rgbOf } from './testkit.js';
import { decodeRgb, type Rgb } from './image.js';
import { OnnxGraph } from './convert/onnx.js';
import { rgbToLab } from './lab.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures');

describe('colorize (scene regions + exemplar transfer)', () => {
  // photos turned grey and colorized; Storm and sunset have blue skies, rocket a dark one
  const greyOf = async (name: string) => {
    const truth = await rgbOf((await input(name, { width: 160 })).data);
    return { truth, grey: grey(truth) };
  };

  it('has lower a*b* error than the plain exemplar transfer it replaced', async () => {
    let before = 0, after = 0;
    for (const f of ['Storm.jpg', 'sunset.jpg', 'rocket.jpg']) {
      const { truth, grey: g } = await greyOf(f);
      before += abError((await colorizeRgb(g, 10, false, ctx(), 'welsh')).out, truth);
      after += abError((await colorizeRgb(g, 10, false, ctx())).out, truth);
    }
    // measured 81.1 → 45.0 (sum over the three at 160 px; no colour: 48.6)
    expect(after).toBeLessThan(before * 0.8);
  });

  it('paints blue skies blue', async () => {
    for (const f of ['Storm.jpg', 'sunset.jpg']) {
      const { truth, grey: g } = await greyOf(f);
      const sky = skyHue((await colorizeRgb(g, 10, false, ctx())).out, truth);
      expect(sky.n).toBeGreaterThan(100);
      expect(sky.hue).toBeGreaterThan(220);
      expect(sky.hue).toBeLessThan(290);
      expect(sky.chroma).toBeGreaterThan(8);
    }
  });

  /** A fixture (optionally cropped, then resized to `width`) as truth and as its grey version. */
  const cropOf = async (name: string, width: number, crop?: { left: number; top: number; width: number; height: number }) => {
    let s = sharp(path.join(fixtures, name)).removeAlpha();
    if (crop) s = s.extract(crop);
    const truth = await decodeRgb(await s.resize(width).png().toBuffer());
    return { truth, grey: grey(truth) };
  };
  const meanLab = (img: Rgb) => {
    const [L, A, B] = rgbToLab(img.data, img.w * img.h);
    let l = 0, a = 0, b = 0;
    for (let i = 0; i < L.length; i++) { l += L[i]!; a += A[i]!; b += B[i]!; }
    return { L: l / L.length, a: a / L.length, b: b / L.length, chroma: Math.hypot(a, b) / L.length };
  };

  it('colorize_pro beats colorize on a held-out crop: the sky cut off by the bridge cables is still sky', async () => {
    // held-out bridge.jpg (its only use in a test): measured at 200 px, colorize 11.73, pro 10.91, no colour 20.55
    const { truth, grey: g } = await cropOf('heldout/bridge.jpg', 200, { left: 160, top: 0, width: 320, height: 270 });
    const std = abError((await colorizeRgb(g, 10, false, ctx())).out, truth);
    const pro = abError((await colorizeRgb(g, 30, true, ctx())).out, truth);
    expect(pro).toBeLessThan(std - 0.4);
    expect(std).toBeLessThan(abError(g, truth));
  });

  it('a sky comes out blue, grass green (upper and lower thirds of landscapes at 160 px)', async () => {
    const third = (img: Rgb, lower: boolean) => {
      const rows = Math.floor(img.h / 3), y0 = lower ? img.h - rows : 0;
      return meanLab({ w: img.w, h: rows, data: img.data.subarray(y0 * img.w * 3, (y0 + rows) * img.w * 3) });
    };
    for (const [f, bMax] of [['sunset.jpg', -15], ['heldout/bridge.jpg', -15]] as const) {
      const { grey: g } = await cropOf(f, 160);
      expect(third((await colorizeRgb(g, 10, false, ctx())).out, false).b).toBeLessThan(bMax); // measured −23.1, −23.9
    }
    for (const [f, aMax] of [['GreenMeadow.jpg', -8], ['heldout/aitzgorri.jpg', -5]] as const) {
      const { grey: g } = await cropOf(f, 160);
      const lower = third((await colorizeRgb(g, 10, false, ctx())).out, true);
      expect(lower.a).toBeLessThan(aMax); // measured −13.1, −8.5
      expect(lower.b).toBeGreaterThan(8); // measured 22.0, 16.6
    }
  });

  it('a night sky stays dark and grey; a dark dusk sky keeps its darkness', async () => {
    // Storm's sky at a third of its light: mean L* about 12, a night sky
    const { truth } = await cropOf('Storm.jpg', 160, { left: 0, top: 0, width: 640, height: 200 });
    const night = grey({ ...truth, data: truth.data.map((v) => Math.round(v * 0.12)) });
    const n0 = meanLab(night), n1 = meanLab((await colorizeRgb(night, 10, false, ctx())).out);
    expect(n0.L).toBeLessThan(15);
    expect(Math.abs(n1.L - n0.L)).toBeLessThan(1);
    expect(n1.chroma).toBeLessThan(3);
    const dusk = await cropOf('rocket.jpg', 160);
    const d0 = meanLab(dusk.grey), d1 = meanLab((await colorizeRgb(dusk.grey, 10, false, ctx())).out);
    expect(Math.abs(d1.L - d0.L)).toBeLessThan(1.5);
    expect(d1.b).toBeGreaterThan(-10);
  });

  it('a defocused background (bokeh) is not sky: no blue on YellowFlower', async () => {
    const { grey: g } = await cropOf('YellowFlower.jpg', 200);
    const out = (await colorizeRgb(g, 10, false, ctx())).out;
    const [L, , B] = rgbToLab(out.data, out.w * out.h);
    let blue = 0;
    for (let i = 0; i < L.length; i++) if (B[i]! < -8) blue++;
    expect(blue / L.length).toBeLessThan(0.02);
  });

  it('gives the grayscale camera.png real chroma and keeps its size', async () => {
    const img = await input('camera.png', { width: 200 });
    expect(meanChroma(await rgbOf(img.data))).toBeLessThan(1);
    const out = await colorizeEngine.run(img, defaultParams('colorize'), ctx());
    expect([out.width, out.height]).toEqual([200, 200]);
    const px = await rgbOf(out.data);
    expect(meanChroma(px)).toBeGreaterThan(6);
    // luminance is the original's
    const g0 = await sharp(img.data).grayscale().raw().toBuffer();
    const g1 = await sharp(out.data).grayscale().raw().toBuffer();
    let d = 0;
    for (let i = 0; i < g0.length; i++) d += Math.abs(g0[i]! - g1[i]!);
    expect(d / g0.length).toBeLessThan(8);
  });

  it('render_factor changes the result; psd=true writes a two-layer PSD', async () => {
    const img = await input('camera.png', { width: 128 });
    const a = await colorizeProEngine.run(img, { ...defaultParams('colorize_pro'), render_factor: 5, psd: true }, ctx());
    const b = await colorizeProEngine.run(img, { ...defaultParams('colorize_pro'), render_factor: 30 }, ctx());
    expect(Buffer.compare(a.data, b.data)).not.toBe(0);
    const psd = a.extras?.psd;
    expect(psd?.format).toBe('psd');
    const s = readPsdSummary(psd!.data);
    expect(s).toEqual({ width: 128, height: 128, channels: 3, layers: ['Original', 'Colorized'] });
    expect(b.extras).toBeUndefined();
  });

  it('refuses a PSD for a level without it', async () => {
    const img = await input('camera.png', { width: 64 });
    await expect(colorizeEngine.run(img, { ...defaultParams('colorize'), psd: true }, { ...ctx(), level: 'guest' })).rejects.toThrow(/Only Pro/);
  });

  it('COLORIZE_MODEL replaces the transfer with an ONNX colorizer (L−50 in, a*b* out)', async () => {
    // a tiny honest model built with our own ONNX writer: a*b* = (40, −30) everywhere
    const g = new OnnxGraph('const-colorizer');
    g.input('L', [1, 1, 'H', 'W']);
    g.node('Conv', ['L', g.floatInit('w', [2, 1, 1, 1], new Float32Array(2)), g.floatInit('b', [2], Float32Array.of(40, -30))], ['ab'], { kernel_shape: [1, 1] });
    g.output('ab', [1, 2, 'H', 'W']);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pixmill-colorizer-'));
    writeFileSync(path.join(dir, 'c.onnx'), g.encode());
    process.env.COLORIZE_MODEL = path.join(dir, 'c.onnx');
    try {
      const img = await input('camera.png', { width: 96 });
      const out = await rgbOf((await colorizeEngine.run(img, defaultParams('colorize'), ctx())).data);
      const [L, A, B] = rgbToLab(out.data, out.w * out.h);
      let a = 0, b = 0, n = 0;
      for (let i = 0; i < L.length; i++) if (L[i]! > 30 && L[i]! < 80) { a += A[i]!; b += B[i]!; n++; }
      expect(a / n).toBeGreaterThan(25);
      expect(b / n).toBeLessThan(-18);
    } finally {
      delete process.env.COLORIZE_MODEL;
    }
  });
});
