import { initializeCanvas, readPsd, type PixelArray } from 'ag-psd';
import { describe, expect, it } from 'vitest';
import { readPsdSummary, writePsd } from './psd.js';

/** The DOM's ImageData as ag-psd's types name it (this project's server code compiles without the DOM). */
type ImageDataOfAgPsd = ReturnType<NonNullable<Parameters<typeof initializeCanvas>[1]>>;

// Node has no canvas: ag-psd hands pixels out as plain image data (useImageData) and never draws.
initializeCanvas(
  () => {
    throw new Error('no canvas in this test');
  },
  (width, height) =>
    ({
      width,
      height,
      data: new Uint8ClampedArray(width * height * 4),
      colorSpace: 'srgb',
    }) as unknown as ImageDataOfAgPsd,
);

/** A w×h RGB picture whose every pixel differs from its neighbours: a misplaced row, column or channel shows. */
function pattern(w: number, h: number, seed: number): Uint8Array {
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    rgb[i * 3] = (i * 7 + seed) & 255;
    rgb[i * 3 + 1] = (i * 13 + seed * 3) & 255;
    rgb[i * 3 + 2] = ((i >> 3) * 29 + seed * 5) & 255;
  }
  return rgb;
}

/** RGBA as an independent reader hands it out → RGB, checking that every pixel is opaque. */
function rgbOf(rgba: PixelArray): Uint8Array {
  const n = rgba.length / 4;
  const rgb = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    rgb[i * 3] = rgba[i * 4]!;
    rgb[i * 3 + 1] = rgba[i * 4 + 1]!;
    rgb[i * 3 + 2] = rgba[i * 4 + 2]!;
    if (rgba[i * 4 + 3] !== 255) throw new Error(`pixel ${i} is not opaque`);
  }
  return rgb;
}

describe('PSD writer, read back by ag-psd (an independent reader)', () => {
  // odd sizes: a row is no multiple of 2 or 4, and the layer section needs its padding byte
  const w = 37,
    h = 23;
  const bottom = pattern(w, h, 1),
    top = pattern(w, h, 90),
    composite = pattern(w, h, 200);
  const file = writePsd(
    w,
    h,
    [
      { name: 'Original', rgb: bottom },
      { name: 'Colorized result', rgb: top, opacity: 0.5, hidden: true },
    ],
    composite,
  );

  it('has the size, the layers in order with their names, opacity and visibility', () => {
    const psd = readPsd(file, { useImageData: true });
    expect([psd.width, psd.height, psd.bitsPerChannel, psd.colorMode]).toEqual([w, h, 8, 3]);
    expect(psd.children?.map((l) => [l.name, l.opacity, l.hidden ?? false, l.left, l.top, l.right, l.bottom])).toEqual([
      ['Original', 1, false, 0, 0, w, h],
      ['Colorized result', 128 / 255, true, 0, 0, w, h],
    ]);
  });

  it("holds each layer's pixels and the composite exactly", () => {
    const psd = readPsd(file, { useImageData: true });
    expect(Buffer.from(rgbOf(psd.children![0]!.imageData!.data))).toEqual(Buffer.from(bottom));
    expect(Buffer.from(rgbOf(psd.children![1]!.imageData!.data))).toEqual(Buffer.from(top));
    expect(Buffer.from(rgbOf(psd.imageData!.data))).toEqual(Buffer.from(composite));
  });

  it('our own summary reader agrees with it', () => {
    expect(readPsdSummary(file)).toEqual({
      width: w,
      height: h,
      channels: 3,
      layers: ['Original', 'Colorized result'],
    });
  });

  it('refuses a canvas PSD version 1 cannot hold', () => {
    expect(() => writePsd(30001, 1, [], new Uint8Array(30001 * 3))).toThrow(/30000/);
  });
});
