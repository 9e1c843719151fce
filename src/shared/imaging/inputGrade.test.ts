import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  flatNoise,
  GRADE_FULL_PIXELS,
  gradeInput,
  gridBlockiness,
  jpegQuality,
  jpegQuantTables,
  mixedShare,
} from './inputGrade.js';
import { luma, type Rgb } from './planes.js';

const fixture = (f: string) => path.resolve(import.meta.dirname, '../../../tests/fixtures', f);
/** A real photo downscaled (a clean input, as the papers make theirs; over GRADE_FULL_PIXELS) as PNG bytes: fur, edges and a plain wall. */
const photo = () =>
  sharp(readFileSync(fixture('chelsea.png')))
    .resize(400, 270, { kernel: 'cubic' })
    .png()
    .toBuffer();
const rgbOf = async (bytes: Buffer): Promise<Rgb> => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { w: info.width, h: info.height, data: new Uint8Array(data) };
};
const grade = async (bytes: Buffer) => {
  const img = await rgbOf(bytes);
  return gradeInput(bytes, luma(img), img.w, img.h);
};

describe('input grade (which enlarge net a photo gets)', () => {
  it('reads the JPEG quality its quantization table was scaled for', async () => {
    const png = await photo();
    for (const q of [50, 75, 90, 98]) expect(jpegQuality(await sharp(png).jpeg({ quality: q }).toBuffer())).toBe(q);
    expect(jpegQuality(png)).toBeUndefined();
    expect(jpegQuantTables(new Uint8Array([0xff, 0xd8, 0xff]))).toBeUndefined();
    const tables = jpegQuantTables(await sharp(png).jpeg({ quality: 75 }).toBuffer())!;
    expect([...tables.keys()].sort()).toEqual([0, 1]);
    expect(tables.get(0)![0]).toBe(8); // the DC step of IJG quality 75: round(16 × 50 / 100)
  });

  it('measures blockiness on the 8-px grid: 1 for a smooth picture, above for block edges', () => {
    const w = 64,
      h = 64;
    const ramp = new Float32Array(w * h).map((_, i) => (i % w) * 2 + Math.floor(i / w));
    expect(gridBlockiness(ramp, w, h, 8)).toBeCloseTo(1, 5);
    // a step of 6 levels at every block edge on top of the ramp
    const blocks = ramp.map((v, i) => v + 6 * (Math.floor((i % w) / 8) + Math.floor(Math.floor(i / w) / 8)));
    expect(gridBlockiness(blocks, w, h, 8)).toBeGreaterThan(3);
    // the same edges read on a 16-px grid (what an x2 enlargement of them shows)
    const wide = new Float32Array(128 * 128).map(
      (_, i) => 6 * (Math.floor((i % 128) / 16) + Math.floor(Math.floor(i / 128) / 16)) + (i % 128),
    );
    expect(gridBlockiness(wide, 128, 128, 16)).toBeGreaterThan(3);
    expect(gridBlockiness(wide, 128, 128, 8)).toBeLessThan(gridBlockiness(wide, 128, 128, 16));
  });

  it('reads noise in flat parts and not texture', () => {
    const w = 96,
      h = 96;
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd());
    const flat = new Float32Array(w * h).fill(120);
    expect(flatNoise(flat, w, h)).toBe(0);
    const noisy = flat.map((v) => v + 4 * gauss());
    expect(flatNoise(noisy, w, h)).toBeGreaterThan(3);
    expect(flatNoise(noisy, w, h)).toBeLessThan(5);
    // strong texture on the left half, flat right half: the flat half decides
    const textured = flat.map((v, i) => (i % w < w / 2 ? v + 40 * Math.sin(i * 1.7) : v));
    expect(flatNoise(textured, w, h)).toBeLessThan(0.5);
  });

  it('a JPEG at q 75 goes to the mixed net, the same picture as a clean PNG to the clean net', async () => {
    const png = await photo();
    const clean = await grade(png);
    expect(mixedShare(clean)).toBeLessThan(0.1);
    const q75 = await grade(await sharp(png).jpeg({ quality: 75 }).toBuffer());
    expect(q75.jpegQuality).toBe(75);
    expect(mixedShare(q75)).toBe(1);
    // once a JPEG, always blocky: the same q 75 picture saved as PNG still reads its blocks
    const exJpeg = await grade(
      await sharp(await sharp(png).jpeg({ quality: 75 }).toBuffer())
        .png()
        .toBuffer(),
    );
    expect(exJpeg.jpegQuality).toBeUndefined();
    expect(exJpeg.blockiness).toBeGreaterThan(clean.blockiness + 0.05);
    expect(mixedShare(exJpeg)).toBeGreaterThan(mixedShare(clean) + 0.2);
  });

  it('a small picture needs stronger evidence: blockiness and noise count in proportion to its pixels', () => {
    const noisy = { blockiness: 1.2, noise: 1.6 };
    expect(mixedShare({ ...noisy, pixels: GRADE_FULL_PIXELS })).toBe(1);
    expect(mixedShare({ ...noisy, pixels: GRADE_FULL_PIXELS / 10 })).toBe(0);
    // a JPEG's own table counts whatever its size
    expect(mixedShare({ jpegQuality: 75, blockiness: 1, noise: 0, pixels: 64 * 64 })).toBe(1);
  });

  it('sensor noise on a PNG moves it toward the mixed net', async () => {
    const img = await rgbOf(await photo());
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
    const data = Uint8Array.from(img.data, (v) =>
      Math.max(
        0,
        Math.min(255, Math.round(v + 3 * Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd()))),
      ),
    );
    const bytes = await sharp(Buffer.from(data), { raw: { width: img.w, height: img.h, channels: 3 } })
      .png()
      .toBuffer();
    expect(mixedShare(await grade(bytes))).toBe(1);
  });
});
