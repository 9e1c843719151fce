import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  clientThumbnail,
  ImageRefused,
  pngDeclaredSize,
  sniffFormat,
  thumbnailOf,
  validateImage,
} from './imageRepository.js';

const rgb = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } });

describe('sniffFormat', () => {
  it.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
    [[0x47, 0x49, 0x46, 0x38], null],
    [[0xff, 0xd8], null],
    [[], null],
  ])('%j → %s', (bytes, want) => expect(sniffFormat(Buffer.from(bytes))).toBe(want));
});

describe('validateImage', () => {
  it('reads PNG header sizes by hand', async () => {
    expect(pngDeclaredSize(await rgb(33, 17).png().toBuffer())).toEqual({ w: 33, h: 17 });
  });

  it('applies EXIF orientation, strips metadata and reports the shown size', async () => {
    const src = await rgb(40, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const v = await validateImage(src, 1e6);
    expect([v.w, v.h]).toEqual([20, 40]);
    expect(v.workingIsOriginal).toBe(false);
    const m = await sharp(v.working).metadata();
    expect([m.width, m.height, m.orientation, m.exif]).toEqual([20, 40, undefined, undefined]);
  });

  it('keeps a metadata-free JPEG as it is, but still decodes it fully', async () => {
    const src = await rgb(64, 48).jpeg().toBuffer();
    const v = await validateImage(src, 1e6);
    expect(v.workingIsOriginal).toBe(true);
    expect(v.working.equals(src)).toBe(true);
    await expect(validateImage(src.subarray(0, src.length - 200), 1e6)).rejects.toThrow(
      'The image is damaged or incomplete.',
    );
  });

  it('refuses over the pixel limit before decoding, and non-images', async () => {
    await expect(validateImage(await rgb(100, 100).png().toBuffer(), 9999)).rejects.toThrow('Image too large');
    await expect(validateImage(await rgb(100, 100).jpeg().toBuffer(), 9999)).rejects.toThrow('Image too large');
    await expect(validateImage(Buffer.from('GIF89a....'), 1e6)).rejects.toBeInstanceOf(ImageRefused);
    await expect(validateImage(Buffer.alloc(0), 1e6)).rejects.toThrow('The file is empty.');
  });

  it('thumbnails fit 80×80; alpha stays PNG; an oversized client thumbnail is ignored', async () => {
    const v = await validateImage(
      await sharp({ create: { width: 300, height: 150, channels: 4, background: '#0000' } })
        .png()
        .toBuffer(),
      1e6,
    );
    const t = await thumbnailOf(v);
    const m = await sharp(t.data).metadata();
    expect([t.format, m.width, m.height, m.hasAlpha]).toEqual(['png', 80, 40, true]);
    expect(await clientThumbnail(await rgb(400, 400).jpeg().toBuffer())).toBeNull();
    expect(await clientThumbnail(Buffer.from('nope'))).toBeNull();
    expect((await clientThumbnail(await rgb(80, 80).jpeg().toBuffer()))?.format).toBe('jpeg');
  });
});
