/**
 * Pan and zoom of the preview's stage: the image's scale ('fit' or a scale of the output's pixels)
 * and its position in the view, clamped so the image covers the view where it can. Drag pans (when the
 * image is larger than the view), the wheel zooms about the pointer, two fingers pinch-zoom about
 * their midpoint; Fit and 1:1 (the zoom given from outside) start centred.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { clampOffset } from './Navigator.js';

export type Zoom = 'fit' | number;
export interface Point {
  x: number;
  y: number;
}
interface Size {
  w: number;
  h: number;
}

/** Zooming stops at 4× the output's pixels. */
export const MAX_ZOOM = 4;
/** One wheel notch zooms by this factor. */
export const WHEEL_STEP = 1.15;

/**
 * The zoom to `next` that keeps the image point under (cx, cy) where it is. At or below the fit
 * scale it is 'fit' (the view centres again); never below min(fit, 1) nor above MAX_ZOOM.
 */
export function zoomAbout(
  current: { scale: number; at: Point },
  next: number,
  c: Point,
  fit: number,
): { zoom: 'fit' } | { zoom: number; at: Point } {
  const k = Math.max(Math.min(fit, 1), Math.min(MAX_ZOOM, next));
  if (k <= fit + 1e-6) return { zoom: 'fit' };
  const px = (c.x - current.at.x) / current.scale;
  const py = (c.y - current.at.y) / current.scale;
  return { zoom: k, at: { x: c.x - px * k, y: c.y - py * k } };
}

/** Pointer events as the hook reads them (React's PointerEvent has all of this). */
export interface PanPointer {
  pointerId: number;
  clientX: number;
  clientY: number;
  currentTarget: { setPointerCapture?(id: number): void; getBoundingClientRect(): { left: number; top: number } };
}

export interface PanZoomOptions {
  /** the output's size in pixels */
  natural: Size;
  /** the pane's size */
  view: Size;
  zoom: Zoom;
  onZoom(z: Zoom): void;
  /** a drag started (the preview reports the first one) */
  onPanStart?: () => void;
}

export function usePanZoom({ natural, view, zoom, onZoom, onPanStart }: PanZoomOptions) {
  const [offset, setOffset] = useState<Point | null>(null);
  const fit = Math.min(view.w / (natural.w || 1), view.h / (natural.h || 1)) || 1;
  const scale = zoom === 'fit' ? fit : zoom;
  const box = { w: natural.w * scale, h: natural.h * scale };
  const centred = { x: (view.w - box.w) / 2, y: (view.h - box.h) / 2 };
  const at = clampOffset(zoom === 'fit' || !offset ? centred : offset, box, view);
  const zoomed = zoom !== 'fit' && (box.w > view.w || box.h > view.h);

  // A zoom from the buttons (Fit, 1:1) starts centred; a wheel or pinch zoom keeps its own position.
  const gesture = useRef(false);
  useEffect(() => {
    if (gesture.current) gesture.current = false;
    else setOffset(null);
  }, [zoom]);

  // Wheel events can come faster than renders: the latest scale and position are kept in refs.
  const latest = useRef({ scale, at, fit, onZoom });
  latest.current = { scale, at, fit, onZoom };

  /** Zooms to `next` keeping the image point under (cx, cy) where it is. */
  const zoomAt = useCallback((next: number, cx: number, cy: number) => {
    const cur = latest.current;
    const z = zoomAbout(cur, next, { x: cx, y: cy }, cur.fit);
    gesture.current = true;
    if (z.zoom === 'fit') {
      latest.current = { ...cur, scale: cur.fit };
      setOffset(null);
      cur.onZoom('fit');
      return;
    }
    latest.current = { ...cur, scale: z.zoom, at: z.at };
    setOffset(z.at);
    cur.onZoom(z.zoom);
  }, []);

  /** One wheel notch at (cx, cy) of the pane: in for a negative deltaY, out otherwise. */
  const wheelAt = useCallback(
    (deltaY: number, cx: number, cy: number) =>
      zoomAt(latest.current.scale * (deltaY < 0 ? WHEEL_STEP : 1 / WHEEL_STEP), cx, cy),
    [zoomAt],
  );

  const pointers = useRef(new Map<number, Point>());
  const pan = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);
  const pinch = useRef<{ d: number; scale: number } | null>(null);
  const end = (e: PanPointer, all: boolean) => {
    pointers.current.delete(e.pointerId);
    if (all || pointers.current.size < 2) pinch.current = null;
    pan.current = null;
  };
  const handlers = {
    onPointerDown: (e: PanPointer) => {
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      e.currentTarget.setPointerCapture?.(e.pointerId);
      if (pointers.current.size === 2) {
        const [a, b] = [...pointers.current.values()];
        pinch.current = { d: Math.hypot(a.x - b.x, a.y - b.y), scale };
        pan.current = null;
        return;
      }
      if (zoomed) {
        pan.current = { x: e.clientX, y: e.clientY, ox: at.x, oy: at.y };
        onPanStart?.();
      }
    },
    onPointerMove: (e: PanPointer) => {
      if (!pointers.current.has(e.pointerId)) return;
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch.current && pointers.current.size === 2) {
        const [a, b] = [...pointers.current.values()];
        const r = e.currentTarget.getBoundingClientRect();
        zoomAt(
          (pinch.current.scale * Math.hypot(a.x - b.x, a.y - b.y)) / (pinch.current.d || 1),
          (a.x + b.x) / 2 - r.left,
          (a.y + b.y) / 2 - r.top,
        );
        return;
      }
      if (!pan.current) return;
      setOffset({ x: pan.current.ox + e.clientX - pan.current.x, y: pan.current.oy + e.clientY - pan.current.y });
    },
    onPointerUp: (e: PanPointer) => end(e, false),
    onPointerCancel: (e: PanPointer) => end(e, true),
  };

  return { scale, box, at, zoomed, offset, setOffset, zoomAt, wheelAt, handlers };
}
