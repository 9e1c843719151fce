// @vitest-environment jsdom
// Pan and zoom of the preview stage: a 2000×1000 result in an 800×500 pane (fit = 0.4).
import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, usePanZoom, WHEEL_STEP, zoomAbout, type PanPointer, type Zoom } from './usePanZoom.js';

const natural = { w: 2000, h: 1000 };
const view = { w: 800, h: 500 };
const FIT = 0.4;

function stage(initial: Zoom) {
  return renderHook(() => {
    const [zoom, setZoom] = useState<Zoom>(initial);
    return { zoom, setZoom, ...usePanZoom({ natural, view, zoom, onZoom: setZoom }) };
  });
}
const pointer = (pointerId: number, clientX: number, clientY: number): PanPointer => ({
  pointerId,
  clientX,
  clientY,
  currentTarget: { getBoundingClientRect: () => ({ left: 0, top: 0 }) },
});

describe('usePanZoom', () => {
  it('opens at fit centred; 1:1 opens centred on the middle of the result', () => {
    const { result } = stage('fit');
    expect(result.current.scale).toBeCloseTo(FIT);
    expect(result.current.at).toEqual({ x: 0, y: 50 });
    act(() => result.current.setZoom(1));
    expect(result.current.at).toEqual({ x: -600, y: -250 });
    expect(result.current.zoomed).toBe(true);
  });

  it('a drag pans, clamped so the image always covers the view', () => {
    const { result } = stage(1);
    act(() => result.current.handlers.onPointerDown(pointer(1, 400, 250)));
    act(() => result.current.handlers.onPointerMove(pointer(1, 500, 200)));
    expect(result.current.at).toEqual({ x: -500, y: -300 });
    // far past the top-left corner: held at 0, 0
    act(() => result.current.handlers.onPointerMove(pointer(1, 5000, 5000)));
    expect(result.current.at).toEqual({ x: 0, y: 0 });
    // far past the bottom-right corner: held where the image's corner meets the view's
    act(() => result.current.handlers.onPointerMove(pointer(1, -5000, -5000)));
    expect(result.current.at).toEqual({ x: view.w - natural.w, y: view.h - natural.h });
    act(() => result.current.handlers.onPointerUp(pointer(1, 0, 0)));
    act(() => result.current.handlers.onPointerMove(pointer(1, 400, 250)));
    expect(result.current.at).toEqual({ x: view.w - natural.w, y: view.h - natural.h });
  });

  it('at fit the image does not pan', () => {
    const { result } = stage('fit');
    act(() => result.current.handlers.onPointerDown(pointer(1, 400, 250)));
    act(() => result.current.handlers.onPointerMove(pointer(1, 100, 100)));
    expect(result.current.at).toEqual({ x: 0, y: 50 });
  });

  it('the wheel zooms about the pointer: the image point under it stays there', () => {
    const { result } = stage(1);
    const before = result.current.at;
    const p = { x: 200, y: 100 };
    const imagePoint = { x: (p.x - before.x) / 1, y: (p.y - before.y) / 1 };
    act(() => result.current.wheelAt(-1, p.x, p.y));
    expect(result.current.zoom).toBeCloseTo(WHEEL_STEP);
    const k = result.current.scale;
    expect(result.current.at.x + imagePoint.x * k).toBeCloseTo(p.x);
    expect(result.current.at.y + imagePoint.y * k).toBeCloseTo(p.y);
    // and back out, about the same point
    act(() => result.current.wheelAt(1, p.x, p.y));
    expect(result.current.zoom).toBeCloseTo(1);
    expect(result.current.at.x + imagePoint.x).toBeCloseTo(p.x);
  });

  it('zooming out to the fit scale is fit again (centred), and in stops at MAX_ZOOM', () => {
    const { result } = stage(0.45);
    act(() => result.current.wheelAt(1, 100, 100));
    expect(result.current.zoom).toBe('fit');
    expect(result.current.at).toEqual({ x: 0, y: 50 });
    act(() => result.current.setZoom(MAX_ZOOM));
    act(() => result.current.wheelAt(-1, 400, 250));
    expect(result.current.zoom).toBe(MAX_ZOOM);
  });

  it('two fingers pinch-zoom about their midpoint by the ratio of their spread', () => {
    const { result } = stage(1);
    const before = result.current.at;
    act(() => result.current.handlers.onPointerDown(pointer(1, 300, 250)));
    act(() => result.current.handlers.onPointerDown(pointer(2, 500, 250)));
    // the second finger moves out: the spread doubles (200 → 400 px), about the fingers' midpoint (500, 250)
    act(() => result.current.handlers.onPointerMove(pointer(2, 700, 250)));
    expect(result.current.zoom).toBeCloseTo(2);
    const mid = { x: 500, y: 250 };
    expect(result.current.at.x + (mid.x - before.x) * 2).toBeCloseTo(mid.x);
    expect(result.current.at.y + (mid.y - before.y) * 2).toBeCloseTo(mid.y);
    // measured from where the pinch began: the first finger moving out too makes it 3×
    act(() => result.current.handlers.onPointerMove(pointer(1, 100, 250)));
    expect(result.current.zoom).toBeCloseTo(3);
    // one finger lifted: the pinch ends, the other does not pan by itself
    act(() => result.current.handlers.onPointerUp(pointer(2, 700, 250)));
    const held = result.current.at;
    act(() => result.current.handlers.onPointerMove(pointer(1, 150, 300)));
    expect(result.current.at).toEqual(held);
  });
});

describe('zoomAbout', () => {
  it('never goes below min(fit, 1): a small picture zoomed out stays at 1:1 (fit)', () => {
    expect(zoomAbout({ scale: 1, at: { x: 0, y: 0 } }, 0.5, { x: 0, y: 0 }, 3)).toEqual({ zoom: 'fit' });
  });
});
