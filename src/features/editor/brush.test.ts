import { describe, expect, it } from 'vitest';
import { strokePoints, toImagePoint } from './brush.js';

describe('edge brush geometry', () => {
  it('maps a pointer on a canvas shown at half size to image pixels, clamped to the image', () => {
    const rect = { left: 100, top: 50, width: 400, height: 300 };
    expect(toImagePoint(300, 200, rect, 800, 600)).toEqual({ x: 400, y: 300 });
    expect(toImagePoint(0, 0, rect, 800, 600)).toEqual({ x: 0, y: 0 });
    expect(toImagePoint(900, 900, rect, 800, 600)).toEqual({ x: 800, y: 600 });
  });
  it('a fast drag is filled with dabs a quarter radius apart (no gaps)', () => {
    const pts = strokePoints({ x: 0, y: 0 }, { x: 100, y: 0 }, 20);
    expect(pts[0]).toEqual({ x: 0, y: 0 });
    expect(pts.at(-1)).toEqual({ x: 100, y: 0 });
    for (let i = 1; i < pts.length; i++) expect(pts[i].x - pts[i - 1].x).toBeLessThanOrEqual(5);
  });
});
