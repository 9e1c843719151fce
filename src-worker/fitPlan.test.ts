// Fit-the-plan decisions (pure) and every branch run on real images, with sharp standing in for the
// browser's canvas + pica (the canvas path itself is proven in tests/e2e/upload-*.spec.ts).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { limitsFor } from '../src/shared/domain/plans.js';
import {
  DECODE_OVERSAMPLE,
  fitToPlan,
  JPEG_HEAD_BYTES,
  jpegDecodeSize,
  jpegFrameSize,
  megapixelTarget,
  nextSizeStep,
  renameForMime,
  shrinkForBytes,
  type ImageMime,
  type ImageOps,
} from './fitPlan.js';

const fixtures = path.resolve(import.meta.dirname, '../tests/fixtures');
const MB = 1024 * 1024;

interface Raw {
  data: Buffer;
  w: number;
  h: number;
}
const sharpOps: ImageOps<Raw> = {
  async resize(img, w, h) {
    const data = await sharp(img.data, { raw: { width: img.w, height: img.h, channels: 4 } })
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer();
    return { data, w, h };
  },
  async encode(img, mime: ImageMime, quality) {
    const s = sharp(img.data, { raw: { width: img.w, height: img.h, channels: 4 } });
    const buf =
      mime === 'image/png'
        ? await s.png().toBuffer()
        : await s
            .flatten({ background: '#fff' })
            .jpeg({ quality: Math.round(quality * 100) })
            .toBuffer();
    return new Blob([new Uint8Array(buf)], { type: mime });
  },
};

async function load(bytes: Buffer, mime: ImageMime) {
  // rotate(): EXIF orientation applied, as createImageBitmap(…, {imageOrientation: 'from-image'}) does.
  const { data, info } = await sharp(bytes).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    blob: new Blob([new Uint8Array(bytes)], { type: mime }),
    mime,
    img: { data, w: info.width, h: info.height },
    w: info.width,
    h: info.height,
  };
}
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name));

/** Random pixels compress to nothing: a PNG whose size tracks its area. */
async function noisePng(w: number, h: number): Promise<Buffer> {
  const px = Buffer.alloc(w * h * 3);
  let s = 12345;
  for (let i = 0; i < px.length; i++) px[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
  return sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

describe('megapixelTarget', () => {
  it.each([
    [5640, 3172, 2.8],
    [5640, 3172, 14],
    [2560, 1600, 2.8],
    [8000, 500, 0.5],
  ])('%i×%i within %s MP keeps the aspect ratio', (w, h, mp) => {
    const t = megapixelTarget(w, h, mp)!;
    expect(t.w * t.h).toBeLessThanOrEqual(mp * 1e6);
    expect(t.w * t.h).toBeGreaterThan(mp * 1e6 * 0.98);
    expect(Math.abs(t.w / t.h - w / h)).toBeLessThan(0.01 * (w / h));
  });
  it.each([
    [5640, 3172, 2.8, 2000, 2000, 1124],
    [5000, 500, 2.8, 2000, 2000, 200],
    [1, 2_000_000, 2.8, 2000, 1, 2000],
    [8000, 6000, 34, 3000, 3000, 2250],
  ])('%i×%i within %s MP and a %i-px side → %i×%i', (w, h, mp, side, tw, th) => {
    expect(megapixelTarget(w, h, mp, side)).toEqual({ w: tw, h: th });
  });
  it('leaves images within the limit alone', () => {
    expect(megapixelTarget(2000, 1400, 2.8, 2000)).toBeNull();
    expect(megapixelTarget(1000, 1000, 2.8)).toBeNull();
    expect(megapixelTarget(2000, 1400, 2.8)).toBeNull();
    expect(megapixelTarget(5640, 3172, 34)).toBeNull();
  });
});

describe('shrinkForBytes', () => {
  it('scales the area by the byte ratio with a margin, never up, never below half a side', () => {
    const t = shrinkForBytes(4000, 3000, 8 * MB, 5 * MB);
    expect(t.w * t.h).toBeLessThan(4000 * 3000 * (5 / 8) * 0.9);
    expect(shrinkForBytes(4000, 3000, 100 * MB, 5 * MB)).toEqual({ w: 2000, h: 1500 });
    expect(shrinkForBytes(400, 300, 1000, 5000)).toEqual({ w: 400, h: 300 });
  });
});

describe('nextSizeStep', () => {
  const L = 5 * MB;
  it.each([
    [4 * MB, [], false, 'fits'],
    [6 * MB, [], false, 'reencode'],
    [6 * MB, [], true, 'shrink'],
    [6 * MB, ['reencode'], true, 'shrink'],
    [6 * MB, ['reencode', 'shrink'], true, 'recompress'],
    [6 * MB, ['shrink'], true, 'recompress'],
    [6 * MB, ['reencode', 'shrink', 'recompress'], true, 'tooLarge'],
    [L, ['reencode', 'shrink', 'recompress'], true, 'fits'],
  ] as const)('%i bytes after %j (encoded %s) → %s', (bytes, done, encoded, step) => {
    expect(nextSizeStep(bytes, L, done, encoded)).toBe(step);
  });
});

describe('fitToPlan on real images', () => {
  it('guest: the 16 MB 5640×3172 JPEG is resized to ≤ 2.8 MP and ends ≤ 5 MB', async () => {
    const input = await load(fixture('elephants-5640x3172.jpg'), 'image/jpeg');
    expect(input.blob.size).toBeGreaterThan(15 * MB);
    const statuses: string[] = [];
    const r = await fitToPlan(input, limitsFor('guest'), 'enlarge', sharpOps, (s) => statuses.push(s));
    if (!r.ok) throw new Error(r.error);
    expect(r.steps).toEqual(['resize']);
    expect(statuses).toEqual(['resizing']);
    expect(r.w * r.h).toBeLessThanOrEqual(2.8e6);
    expect(r.blob.size).toBeLessThanOrEqual(limitsFor('guest').maxFileBytes);
    const meta = await sharp(Buffer.from(await r.blob.arrayBuffer())).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([r.w, r.h, 'jpeg']);
  });

  it('basic: a 4 MP JPEG under every limit is uploaded as it is', async () => {
    const input = await load(fixture('LadyBird.jpg'), 'image/jpeg');
    const r = await fitToPlan(input, limitsFor('basic'), 'enlarge', sharpOps);
    if (!r.ok) throw new Error(r.error);
    expect(r.steps).toEqual([]);
    expect(r.blob).toBe(input.blob);
    expect([r.w, r.h]).toEqual([2560, 1600]);
  });

  it('pro: 17.9 MP fits 34 MP and keeps its pixels (no 3000 px side); the 16 MB file is re-encoded to fit 10 MB', async () => {
    const input = await load(fixture('elephants-5640x3172.jpg'), 'image/jpeg');
    const r = await fitToPlan(input, limitsFor('pro'), 'enlarge', sharpOps);
    if (!r.ok) throw new Error(r.error);
    expect(r.steps).not.toContain('resize');
    expect([r.w, r.h]).toEqual([5640, 3172]);
    expect(r.blob.size).toBeLessThanOrEqual(limitsFor('pro').maxFileBytes);
  });

  it('a PNG that stays above the size limit after re-encoding is shrunk to the limit', async () => {
    const png = await noisePng(1600, 1600); // 2.56 MP: within guest resolution, ~7.7 MB
    expect(png.length).toBeGreaterThan(limitsFor('guest').maxFileBytes);
    const r = await fitToPlan(await load(png, 'image/png'), limitsFor('guest'), 'enlarge', sharpOps);
    if (!r.ok) throw new Error(r.error);
    expect(r.steps).toEqual(['reencode', 'shrink']);
    expect(r.mime).toBe('image/png');
    expect(r.w).toBeLessThan(1600);
    expect(r.blob.size).toBeLessThanOrEqual(limitsFor('guest').maxFileBytes);
  });

  it('when shrinking is not enough the last resort is a 0.8 JPEG; beyond that imageTooLarge', async () => {
    const png = await noisePng(2000, 1400); // 2.8 MP of noise: ~8.4 MB as PNG
    const input = await load(png, 'image/png');
    // Half the sides (the most a shrink takes) leaves ~2.1 MB of PNG noise: above 1.5 MB, so JPEG 0.8.
    const r = await fitToPlan(input, { ...limitsFor('guest'), maxFileBytes: 1.5 * MB }, 'enlarge', sharpOps);
    if (!r.ok) throw new Error(r.error);
    expect(r.steps).toEqual(['reencode', 'shrink', 'recompress']);
    expect([r.w, r.h, r.mime]).toEqual([1000, 700, 'image/jpeg']);
    expect(r.blob.size).toBeLessThanOrEqual(1.5 * MB);
    const none = await fitToPlan(input, { ...limitsFor('guest'), maxFileBytes: 100_000 }, 'enlarge', sharpOps);
    expect(none).toMatchObject({
      ok: false,
      error: 'upload:imageTooLarge',
      steps: ['reencode', 'shrink', 'recompress'],
    });
  });

  it('compress is never resized; above the compress limit it is refused with fileTooLarge', async () => {
    const input = await load(fixture('elephants-5640x3172.jpg'), 'image/jpeg');
    expect(await fitToPlan(input, limitsFor('guest'), 'compress', sharpOps)).toMatchObject({
      ok: false,
      error: 'upload:fileTooLarge',
    });
    const pro = await fitToPlan(input, limitsFor('pro'), 'compress', sharpOps);
    expect(pro).toMatchObject({ ok: true, steps: [], w: 5640, h: 3172 });
    if (pro.ok) expect(pro.blob).toBe(input.blob);
  });
});

describe('renameForMime', () => {
  it('fixes the extension when the type changed', () => {
    expect(renameForMime('cat.png', 'image/jpeg')).toBe('cat.jpg');
    expect(renameForMime('cat.PNG', 'image/png')).toBe('cat.png');
    expect(renameForMime('a.jpeg', 'image/jpeg')).toBe('a.jpeg');
  });
});

describe('scaled JPEG decode for the plan fit', () => {
  it('reads the stored size from the frame header, behind EXIF and ICC segments', async () => {
    expect(jpegFrameSize(new Uint8Array(fixture('elephants-5640x3172.jpg').subarray(0, JPEG_HEAD_BYTES)))).toEqual({
      w: 5640,
      h: 3172,
    });
    // orientation 6 changes what the user sees, not the stored frame
    const rotated = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#345' } })
      .withIccProfile('srgb')
      .withMetadata({ orientation: 6 })
      .jpeg({ progressive: true })
      .toBuffer();
    expect(jpegFrameSize(new Uint8Array(rotated))).toEqual({ w: 300, h: 200 });
    expect(jpegFrameSize(new Uint8Array(fixture('LadyBird.jpg')))).not.toBeNull();
  });

  it('answers null for a PNG, a truncated head and garbage', () => {
    expect(jpegFrameSize(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(jpegFrameSize(new Uint8Array(fixture('elephants-5640x3172.jpg').subarray(0, 20)))).toBeNull();
    expect(jpegFrameSize(new Uint8Array([0xff, 0xd8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))).toBeNull();
  });

  it.each([
    // [source, target, decode size]: the smallest k/8 at least DECODE_OVERSAMPLE (1.4) times the target
    [
      { w: 5640, h: 3172 },
      { w: 2000, h: 1124 },
      { w: 2820, h: 1586 },
    ], // guest: 4/8, not the soft 3/8 (1.06×)
    [
      { w: 5640, h: 3172 },
      { w: 2231, h: 1254 },
      { w: 3525, h: 1983 },
    ],
    [
      { w: 5640, h: 3172 },
      { w: 705, h: 396 },
      { w: 1410, h: 793 },
    ],
    [
      { w: 4000, h: 3000 },
      { w: 1932, h: 1449 },
      { w: 3000, h: 2250 },
    ],
    [
      { w: 4000, h: 3000 },
      { w: 2500, h: 1875 },
      { w: 3500, h: 2625 },
    ],
    [{ w: 4000, h: 3000 }, { w: 2600, h: 1950 }, null],
    [{ w: 4000, h: 3000 }, { w: 3800, h: 2850 }, null],
  ])('decodes %o for a %o target at %o', (src, target, want) => {
    const got = jpegDecodeSize(src, target);
    expect(got).toEqual(want);
    if (got) expect(got.w >= DECODE_OVERSAMPLE * target.w && got.h >= DECODE_OVERSAMPLE * target.h).toBe(true);
  });
});
