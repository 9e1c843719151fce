import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { defaultParams } from '../../src/shared/domain/modules.js';
import { COLORIZE_MODEL_FILE, colorizeEngine, colorizeProEngine, colorizeRgb } from './colorize.js';
import { abError, grey, skyHue } from '../../scripts/quality/face-colour-cartoon.js';
import { readQtResource } from '../../scripts/quality/colorize-photos.js';
import { deflateSync } from 'node:zlib';
import { readPsdSummary } from './psd.js';
import { ctx, input, meanChroma, rgbOf } from '../../tests/support/engines.js';
import { decodeRgb, gaussianBlur, gaussianNoise, type Rgb } from './image.js';
import { OnnxGraph } from './convert/onnx.js';
import { labToRgb, rgbToLab } from './lab.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures');

/**
 * A grey synthetic scene: a smooth sky brightening towards the horizon (upper 40 %), a textured
 * field (lower 60 %), and on the skyline a block of horizontal planks (oriented texture: not
 * foliage, not sky — a part of the scene the colorizer does not understand).
 */
function synthScene(): Rgb {
  const w = 240,
    h = 160,
    n = w * h;
  const noise = gaussianBlur(gaussianNoise(n, 10, 7), w, h, 0.8);
  const L = new Float32Array(n);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        t = y / h;
      L[i] = t < 0.4 ? 62 + 20 * (t / 0.4) : 45 + 2.2 * noise[i]!;
      if (x >= 0.6 * w && x < 0.8 * w && t >= 0.12 && t < 0.42) L[i] = 42 + (y % 6 < 3 ? 8 : -8);
    }
  const z = new Float32Array(n);
  return { w, h, data: labToRgb(L, z, z) };
}

/** Mean a*, b* over a window given in fractions of the picture. */
function meanAb(img: Rgb, x0: number, x1: number, y0: number, y1: number): { a: number; b: number } {
  const [, A, B] = rgbToLab(img.data, img.w * img.h);
  let a = 0,
    b = 0,
    c = 0;
  for (let y = Math.round(y0 * img.h); y < Math.round(y1 * img.h); y++)
    for (let x = Math.round(x0 * img.w); x < Math.round(x1 * img.w); x++) {
      a += A[y * img.w + x]!;
      b += B[y * img.w + x]!;
      c++;
    }
  return { a: a / c, b: b / c };
}

describe('colorize colours what it understands and stays near neutral elsewhere', () => {
  it('sky blue, field green, the planks on the skyline a near-neutral warm grey (colorize and colorize_pro)', async () => {
    const scene = synthScene();
    for (const [rf, best] of [
      [10, false],
      [30, true],
    ] as const) {
      const out = (await colorizeRgb(scene, rf, best, ctx())).out;
      const sky = meanAb(out, 0, 0.5, 0.02, 0.35),
        field = meanAb(out, 0.05, 0.95, 0.6, 0.95),
        planks = meanAb(out, 0.63, 0.77, 0.16, 0.38);
      // measured: sky (−2.2, −20.2) / (−2.2, −20.5); field (−8.2, 20.1) / (−6.8, 28.4); planks (0.3, 9.3) / (−0.3, 8.9)
      // (with the exemplar transfer on the rest the planks were painted as foliage: (−9.9, 16.4) / (2.6, 17.4))
      expect(sky.b).toBeLessThan(-10);
      expect(field.a).toBeLessThan(-2);
      expect(field.b).toBeGreaterThan(5);
      expect(Math.abs(planks.a)).toBeLessThan(3);
      expect(planks.b).toBeLessThan(10);
      expect(planks.b).toBeGreaterThan(0);
    }
  });

  it('puts no cast over a scene it does not understand: mean a*, b* of indoor photos stay near neutral', async () => {
    for (const f of ['coffee.png', 'chelsea.png', 'motorcycle_left.png']) {
      const g = grey(await rgbOf((await input(f, { width: 200 })).data));
      for (const [rf, best] of [
        [10, false],
        [30, true],
      ] as const) {
        const m = meanAb((await colorizeRgb(g, rf, best, ctx())).out, 0, 1, 0, 1);
        // measured (a, b): coffee (1.4, 5.5) / (1.4, 6.5), chelsea (0.2, 4.2) / (0.3, 6.2), motorcycle (−0.2, 5.9) / (−0.3, 7.1);
        // with the exemplar transfer on the rest: (−2.0, 11.9) / (2.1, 15.2), (−5.5, 11.3) / (−5.3, 14.1), (−9.0, 16.1) / (−5.5, 17.0)
        expect(Math.abs(m.a)).toBeLessThan(3);
        expect(m.b).toBeLessThan(11);
      }
    }
  });

  it('a dark picture (under water, blue hour) gets no warm tone: the planks of the synthetic scene stay grey once most of it is dark', async () => {
    const scene = synthScene();
    const [L] = rgbToLab(scene.data, scene.w * scene.h);
    // the field (lower 60 %) and the sky darkened to L* 8–20: 75 % of the picture below L* 25
    for (let i = 0; i < L.length; i++) {
      const x = i % scene.w,
        t = Math.floor(i / scene.w) / scene.h;
      const planks = x >= 0.6 * scene.w && x < 0.8 * scene.w && t >= 0.12 && t < 0.42;
      if (!planks) L[i] = 8 + (L[i]! - 40) * 0.25;
    }
    const z = new Float32Array(L.length);
    const dark = { ...scene, data: labToRgb(L, z, z) };
    for (const [rf, best] of [
      [10, false],
      [30, true],
    ] as const) {
      const planks = meanAb((await colorizeRgb(dark, rf, best, ctx())).out, 0.63, 0.77, 0.16, 0.38);
      // measured (a, b): (−0.4, 1.2) / (−0.6, 0.9); with the tone kept in dark pictures (1.0, 7.1)
      expect(Math.hypot(planks.a, planks.b)).toBeLessThan(2.5);
    }
  });
});

describe('colorize (scene regions + exemplar transfer)', () => {
  // photos turned grey and colorized; Storm and sunset have blue skies, rocket a dark one
  const greyOf = async (name: string) => {
    const truth = await rgbOf((await input(name, { width: 160 })).data);
    return { truth, grey: grey(truth) };
  };

  it('has lower a*b* error than the plain exemplar transfer it replaced', async () => {
    let before = 0,
      after = 0;
    for (const f of ['Storm.jpg', 'sunset.jpg', 'rocket.jpg']) {
      const { truth, grey: g } = await greyOf(f);
      before += abError((await colorizeRgb(g, 10, false, ctx(), { method: 'welsh' })).out, truth);
      after += abError((await colorizeRgb(g, 10, false, ctx())).out, truth);
    }
    // measured 81.1 → 41.7 (sum over the three at 160 px; no colour: 48.6)
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
  const cropOf = async (
    name: string,
    width: number,
    crop?: { left: number; top: number; width: number; height: number },
  ) => {
    let s = sharp(path.join(fixtures, name)).removeAlpha();
    if (crop) s = s.extract(crop);
    const truth = await decodeRgb(await s.resize(width).png().toBuffer());
    return { truth, grey: grey(truth) };
  };
  const meanLab = (img: Rgb) => {
    const [L, A, B] = rgbToLab(img.data, img.w * img.h);
    let l = 0,
      a = 0,
      b = 0;
    for (let i = 0; i < L.length; i++) {
      l += L[i]!;
      a += A[i]!;
      b += B[i]!;
    }
    return { L: l / L.length, a: a / L.length, b: b / L.length, chroma: Math.hypot(a, b) / L.length };
  };

  it('colorize_pro beats colorize on a crop of the bridge photo: the sky cut off by the bridge cables is still sky', async () => {
    // bridge.jpg (a development photo of the scene set since the GCompris photos became the held-out split): measured at 200 px, colorize 8.96, pro 8.40, no colour 20.55
    const { truth, grey: g } = await cropOf('wallpapers/bridge.jpg', 200, {
      left: 160,
      top: 0,
      width: 320,
      height: 270,
    });
    const std = abError((await colorizeRgb(g, 10, false, ctx())).out, truth);
    const pro = abError((await colorizeRgb(g, 30, true, ctx())).out, truth);
    expect(pro).toBeLessThan(std - 0.4);
    expect(std).toBeLessThan(abError(g, truth));
  });

  it('a sky comes out blue, grass green (upper and lower thirds of landscapes at 160 px)', async () => {
    const third = (img: Rgb, lower: boolean) => {
      const rows = Math.floor(img.h / 3),
        y0 = lower ? img.h - rows : 0;
      return meanLab({ w: img.w, h: rows, data: img.data.subarray(y0 * img.w * 3, (y0 + rows) * img.w * 3) });
    };
    for (const [f, bMax] of [
      ['sunset.jpg', -15],
      ['wallpapers/bridge.jpg', -15],
    ] as const) {
      const { grey: g } = await cropOf(f, 160);
      expect(third((await colorizeRgb(g, 10, false, ctx())).out, false).b).toBeLessThan(bMax); // measured −23.1, −24.6
    }
    // (GreenMeadow's close-up blades run one way: muted, like planks and bristles)
    for (const [f, aMax] of [['wallpapers/aitzgorri.jpg', -2.5]] as const) {
      const { grey: g } = await cropOf(f, 160);
      const lower = third((await colorizeRgb(g, 10, false, ctx())).out, true);
      expect(lower.a).toBeLessThan(aMax); // measured −6.9 (a picture with a sky: its foliage at a*×0.9)
      expect(lower.b).toBeGreaterThan(6); // measured 18.5
    }
  });

  it('a night sky stays dark and grey; a dark dusk sky keeps its darkness', async () => {
    // Storm's sky at a third of its light: mean L* about 12, a night sky
    const { truth } = await cropOf('Storm.jpg', 160, { left: 0, top: 0, width: 640, height: 200 });
    const night = grey({ ...truth, data: truth.data.map((v) => Math.round(v * 0.12)) });
    const n0 = meanLab(night),
      n1 = meanLab((await colorizeRgb(night, 10, false, ctx())).out);
    expect(n0.L).toBeLessThan(15);
    expect(Math.abs(n1.L - n0.L)).toBeLessThan(1);
    expect(n1.chroma).toBeLessThan(3);
    const dusk = await cropOf('rocket.jpg', 160);
    const d0 = meanLab(dusk.grey),
      d1 = meanLab((await colorizeRgb(dusk.grey, 10, false, ctx())).out);
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

  /** Share of the picture's pixels (rows y0..y1 as fractions) that came out blue (b* < −8). */
  const blueShare = (img: Rgb, y0 = 0, y1 = 1) => {
    const [, , B] = rgbToLab(img.data, img.w * img.h);
    let blue = 0,
      n = 0;
    for (let y = Math.round(y0 * img.h); y < Math.round(y1 * img.h); y++)
      for (let x = 0; x < img.w; x++, n++) if (B[y * img.w + x]! < -8) blue++;
    return blue / n;
  };

  it('bright grass blades reaching the top are not sky: no blue on GreenMeadow (standard and pro)', async () => {
    const { grey: g } = await cropOf('GreenMeadow.jpg', 480);
    for (const [rf, best] of [
      [10, false],
      [30, true],
    ] as const) {
      // measured 0 / 0 (the blade tips' region is threads, solidity 0.30: 25 % / 27 % blue without the solidity and darkening rules)
      expect(blueShare((await colorizeRgb(g, rf, best, ctx())).out)).toBeLessThan(0.02);
    }
  });

  it('a backdrop that darkens away from the lamps above it is not sky', async () => {
    // smooth, open to the top, varying in brightness (as a sky), but L* falls from 98 to 30 downwards
    const w = 240,
      h = 160,
      L = new Float32Array(w * h),
      z = new Float32Array(w * h);
    const grain = gaussianBlur(gaussianNoise(w * h, 1, 3), w, h, 2);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = 98 - 68 * (y / h) + grain[y * w + x]!;
    const backdrop = { w, h, data: labToRgb(L, z, z) };
    for (const [rf, best] of [
      [10, false],
      [30, true],
    ] as const) {
      // measured 0 / 0 (80 % / 81 % blue without the solidity and darkening rules)
      expect(blueShare((await colorizeRgb(backdrop, rf, best, ctx())).out, 0, 0.8)).toBeLessThan(0.02);
    }
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
    const a = await colorizeProEngine.run(
      img,
      { ...defaultParams('colorize_pro'), render_factor: 5, psd: true },
      ctx(),
    );
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
    await expect(
      colorizeEngine.run(img, { ...defaultParams('colorize'), psd: true }, { ...ctx(), level: 'guest' }),
    ).rejects.toThrow(/Only Pro/);
  });

  it('an ONNX colorizer in MODELS_DIR (colorize.onnx) replaces the regions (L−50 in, a*b* out)', async () => {
    // a tiny honest model built with our own ONNX writer: a*b* = (40, −30) everywhere
    const g = new OnnxGraph('const-colorizer');
    g.input('L', [1, 1, 'H', 'W']);
    g.node(
      'Conv',
      ['L', g.floatInit('w', [2, 1, 1, 1], new Float32Array(2)), g.floatInit('b', [2], Float32Array.of(40, -30))],
      ['ab'],
      { kernel_shape: [1, 1] },
    );
    g.output('ab', [1, 2, 'H', 'W']);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pixmill-colorizer-'));
    writeFileSync(path.join(dir, COLORIZE_MODEL_FILE), g.encode());
    const img = await input('camera.png', { width: 96 });
    const meanAbMid = async (modelsDir: string) => {
      const out = await rgbOf((await colorizeEngine.run(img, defaultParams('colorize'), { ...ctx(), modelsDir })).data);
      const [L, A, B] = rgbToLab(out.data, out.w * out.h);
      let a = 0,
        b = 0,
        n = 0;
      for (let i = 0; i < L.length; i++)
        if (L[i]! > 30 && L[i]! < 80) {
          a += A[i]!;
          b += B[i]!;
          n++;
        }
      return { a: a / n, b: b / n };
    };
    const withModel = await meanAbMid(dir);
    expect(withModel.a).toBeGreaterThan(25);
    expect(withModel.b).toBeLessThan(-18);
    // without the file the regions colour the picture: nowhere near that hue
    const without = await meanAbMid(ctx().modelsDir);
    expect(without.a).toBeLessThan(10);
  });
});

describe('the scene photos harness reads GCompris photos from Qt resource bundles', () => {
  /** A version-3 .rcc: root → "res" → ("a.txt" stored, "b.txt" zlib-compressed, as rcc writes it). */
  function bundle(): Buffer {
    const name = (t: string) => {
      const b = Buffer.alloc(6 + 2 * t.length);
      b.writeUInt16BE(t.length, 0);
      Buffer.from(t, 'utf16le').swap16().copy(b, 6);
      return b;
    };
    const names = [name('res'), name('a.txt'), name('b.txt')];
    const nameOff = [0, names[0]!.length, names[0]!.length + names[1]!.length];
    const a = Buffer.from('plain'),
      bRaw = Buffer.from('squeezed '.repeat(8));
    const bz = Buffer.concat([Buffer.alloc(4), deflateSync(bRaw)]);
    bz.writeUInt32BE(bRaw.length, 0);
    const blob = (d: Buffer) => {
      const l = Buffer.alloc(4);
      l.writeUInt32BE(d.length, 0);
      return Buffer.concat([l, d]);
    };
    const data = Buffer.concat([blob(a), blob(bz)]);
    const node = (nameAt: number, flags: number, x: number, y: number) => {
      const b = Buffer.alloc(22);
      b.writeUInt32BE(nameAt, 0);
      b.writeUInt16BE(flags, 4);
      b.writeUInt32BE(x, 6);
      b.writeUInt32BE(y, 10);
      return b;
    };
    // directories: count, first child; files: (country, language) then the data offset
    const tree = Buffer.concat([
      node(0, 2, 1, 1),
      node(nameOff[0]!, 2, 2, 2),
      node(nameOff[1]!, 0, 0, 0),
      node(nameOff[2]!, 1, 0, 4 + a.length),
    ]);
    const header = Buffer.alloc(24);
    header.write('qres', 0, 'latin1');
    header.writeUInt32BE(3, 4);
    const dataAt = 24,
      namesAt = dataAt + data.length,
      treeAt = namesAt + Buffer.concat(names).length;
    header.writeUInt32BE(treeAt, 8);
    header.writeUInt32BE(dataAt, 12);
    header.writeUInt32BE(namesAt, 16);
    return Buffer.concat([header, data, ...names, tree]);
  }

  it('finds stored and compressed entries by path, and nothing else', () => {
    const b = bundle();
    expect(readQtResource(b, '/res/a.txt')?.toString()).toBe('plain');
    expect(readQtResource(b, '/res/b.txt')?.toString()).toBe('squeezed '.repeat(8));
    expect(readQtResource(b, '/res/c.txt')).toBeUndefined();
    expect(readQtResource(b, '/res')).toBeUndefined();
    expect(() => readQtResource(Buffer.from('not a bundle at all, no'), '/x')).toThrow('not a Qt resource bundle');
  });
});
