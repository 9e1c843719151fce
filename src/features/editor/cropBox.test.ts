import { describe, expect, it } from 'vitest';
import { boxForRatio, dragBox, nudgeBox } from './cropBox.js';

const W = 451;
const H = 300;

describe('crop box', () => {
  it('a ratio preset gives the largest centred box of that ratio', () => {
    expect(boxForRatio(W, H, 1)).toEqual({ x: 76, y: 0, w: 300, h: 300 });
    expect(boxForRatio(W, H, 16 / 9)).toEqual({ x: 0, y: 23, w: 451, h: 254 });
    expect(boxForRatio(W, H, null)).toEqual({ x: 0, y: 0, w: W, h: H });
  });

  it('moving keeps the size and stops at the edges', () => {
    const b = { x: 100, y: 50, w: 200, h: 100 };
    expect(dragBox(b, 'move', 30, -20, null, W, H)).toEqual({ x: 130, y: 30, w: 200, h: 100 });
    expect(dragBox(b, 'move', 1000, 1000, null, W, H)).toEqual({ x: W - 200, y: H - 100, w: 200, h: 100 });
    expect(dragBox(b, 'move', -1000, -1000, null, W, H)).toEqual({ x: 0, y: 0, w: 200, h: 100 });
  });

  it('free handles move their own edges only, never past the image or through the other edge', () => {
    const b = { x: 100, y: 50, w: 200, h: 100 };
    expect(dragBox(b, 'e', 40, 999, null, W, H)).toEqual({ x: 100, y: 50, w: 240, h: 100 });
    expect(dragBox(b, 'nw', -30, -20, null, W, H)).toEqual({ x: 70, y: 30, w: 230, h: 120 });
    expect(dragBox(b, 'w', 1000, 0, null, W, H)).toEqual({ x: 292, y: 50, w: 8, h: 100 });
    expect(dragBox(b, 'se', 1000, 1000, null, W, H)).toEqual({ x: 100, y: 50, w: W - 100, h: H - 50 });
  });

  it('with a ratio every handle keeps it, inside the image, the opposite corner fixed', () => {
    const b = boxForRatio(W, H, 4 / 3, { x: 100, y: 60, w: 120, h: 90 });
    for (const [h, dx, dy] of [
      ['se', 50, 10],
      ['nw', -500, -500],
      ['e', 80, 0],
      ['n', 0, -40],
      ['sw', 1000, 0],
      ['s', 0, 999],
    ] as const) {
      const r = dragBox(b, h, dx, dy, 4 / 3, W, H);
      // The ratio holds to the pixel (whole pixels round it).
      expect(Math.abs(r.w - r.h * (4 / 3)), `${h} ${JSON.stringify(r)}`).toBeLessThanOrEqual(1);
      expect(r.x >= 0 && r.y >= 0 && r.x + r.w <= W && r.y + r.h <= H, h).toBe(true);
    }
    // The south-east corner grows from the fixed north-west one.
    const se = dragBox(b, 'se', 60, 0, 4 / 3, W, H);
    expect([se.x, se.y, se.w, se.h]).toEqual([b.x, b.y, b.w + 60, Math.round((b.w + 60) * 0.75)]);
  });

  it('arrows nudge the box; with resize they move the right/bottom edge', () => {
    const b = { x: 10, y: 10, w: 100, h: 100 };
    expect(nudgeBox(b, 'ArrowRight', 1, false, null, W, H)).toEqual({ x: 11, y: 10, w: 100, h: 100 });
    expect(nudgeBox(b, 'ArrowUp', 10, false, null, W, H)).toEqual({ x: 10, y: 0, w: 100, h: 100 });
    expect(nudgeBox(b, 'ArrowLeft', 10, true, null, W, H)).toEqual({ x: 10, y: 10, w: 90, h: 100 });
    expect(nudgeBox(b, 'ArrowDown', 10, true, 1, W, H)).toEqual({ x: 10, y: 10, w: 110, h: 110 });
    expect(nudgeBox(b, 'Enter', 1, false, null, W, H)).toBeNull();
  });
});
