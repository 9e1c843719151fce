import { describe, expect, it } from 'vitest';
import { PREVIEW_THUMB_BOX } from '../../shared/domain/constants.js';
import { clampOffset, thumbLayout } from './Navigator.js';
import { navigatorPlacement } from './CompareStage.js';
import { defaultCompareTab } from './PreviewDialog.js';
import { detailCentre } from './detail.js';

describe('preview defaults (spec §2)', () => {
  it.each([
    ['enlarge', 2],
    ['sharpen', 2],
    ['denoise', 2],
    ['matting', 1],
    ['compress', 1],
    ['workflow', 1],
    [undefined, 1],
  ] as const)('%s opens tab %i', (op, tab) => expect(defaultCompareTab(op)).toBe(tab));
});

describe('navigator geometry (304x190 box)', () => {
  it('contains a wide image in the box', () => {
    const l = thumbLayout({ w: 3040, h: 1000 });
    expect(l.w).toBeCloseTo(PREVIEW_THUMB_BOX.width);
    expect(l.h).toBeCloseTo(100);
    expect(l.top).toBeCloseTo(45);
  });
  it('contains a tall image in the box', () => {
    const l = thumbLayout({ w: 1000, h: 1900 });
    expect(l.h).toBeCloseTo(PREVIEW_THUMB_BOX.height);
    expect(l.w).toBeCloseTo(100);
  });
  it('clamps panning to the image edges and centres small images', () => {
    const natural = { w: 4000, h: 3000 };
    const view = { w: 1000, h: 500 };
    expect(clampOffset({ x: 100, y: 100 }, natural, view)).toEqual({ x: 0, y: 0 });
    expect(clampOffset({ x: -9999, y: -9999 }, natural, view)).toEqual({ x: -3000, y: -2500 });
    expect(clampOffset({ x: -10, y: -10 }, { w: 500, h: 200 }, view)).toEqual({ x: 250, y: 150 });
  });
});

describe('navigatorPlacement', () => {
  const thumb = { width: 304, height: 190 };
  it('sits inside the part of the pane the image covers, never over the letterbox', () => {
    // A wide image at 1:1 in a taller view: it covers the full width and only rows 100..300.
    const p = navigatorPlacement({ x: -500, y: 100 }, { w: 2000, h: 200 }, { w: 800, h: 500 }, thumb);
    expect([p.left, p.top, p.width, p.height]).toEqual([0, 100, 800, 200]);
    // and it is no taller than 40% of that part (190 · k ≤ 80)
    expect(190 * p.scale).toBeLessThanOrEqual(80.01);
  });
  it('is small on a desktop-sized pane too: at most half the 304×190 box', () => {
    const p = navigatorPlacement({ x: -1000, y: -1000 }, { w: 4000, h: 3000 }, { w: 1200, h: 675 }, thumb);
    expect(p.scale).toBe(0.5);
    expect([p.left, p.top, p.width, p.height]).toEqual([0, 0, 1200, 675]);
  });
});

describe('the zoomed preview opens where the picture has detail', () => {
  const image = (w: number, h: number, detail?: { x: number; y: number; r: number }) => {
    const px = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        // a smooth sky
        px[i] = 90;
        px[i + 1] = 150 + Math.round((y / h) * 40);
        px[i + 2] = 230;
        // a checker of detail in one place
        if (detail && Math.abs(x - detail.x) < detail.r && Math.abs(y - detail.y) < detail.r && (x + y) % 2 === 0)
          px[i] = px[i + 1] = px[i + 2] = 20;
        px[i + 3] = 255;
      }
    return px;
  };
  it('a plain sky keeps the centre', () =>
    expect(detailCentre(image(120, 80), 120, 80, { w: 30, h: 20 })).toEqual({ x: 0.5, y: 0.5 }));
  it('detail in the lower left corner moves the view there', () => {
    const c = detailCentre(image(120, 80, { x: 15, y: 65, r: 8 }), 120, 80, { w: 30, h: 20 });
    expect(c.x).toBeLessThan(0.3);
    expect(c.y).toBeGreaterThan(0.7);
  });
  it('detail at the centre stays at the centre', () =>
    expect(detailCentre(image(120, 80, { x: 60, y: 40, r: 8 }), 120, 80, { w: 30, h: 20 })).toEqual({
      x: 0.5,
      y: 0.5,
    }));
});
