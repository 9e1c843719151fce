/**
 * The background editor's state: the cut-out and the photo it was cut from (loaded from the hand-off's
 * URLs), the working copy the brush paints on, and the canvas that shows it over the chosen background.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import type { EditorHandOff } from '../../shared/domain/work.js';
import { dab, strokePoints, toImagePoint, type BrushTool } from './brush.js';

/** The cut-out (`failed` when it does not load) and the photo before the cut (what Restore paints back). */
export function useHandOffImages(info: EditorHandOff | null): {
  cutout: HTMLImageElement | null;
  original: HTMLImageElement | null;
  failed: boolean;
} {
  const [cutout, setCutout] = useState<HTMLImageElement | null>(null);
  const [original, setOriginal] = useState<HTMLImageElement | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!info?.targetImg) return;
    const i = new Image();
    i.crossOrigin = 'use-credentials';
    i.onload = () => setCutout(i);
    i.onerror = () => setFailed(true);
    i.src = info.targetImg;
    if (info.originImg) {
      const o = new Image();
      o.crossOrigin = 'use-credentials';
      o.onload = () => setOriginal(o);
      o.src = info.originImg;
    }
  }, [info]);
  return { cutout, original, failed };
}

export interface CutoutEditor {
  canvas: RefObject<HTMLCanvasElement | null>;
  /** a brush stroke's point (`first`: the stroke starts here) */
  paint(e: ReactPointerEvent<HTMLCanvasElement>, first: boolean): void;
  /** the stroke ended */
  lift(): void;
  /** every stroke undone: the working copy is the cut-out again */
  reset(): void;
}

/** The working copy of `cutout` the brush edits, drawn over `bg` on `canvas` after every change. */
export function useCutoutEditor(
  cutout: HTMLImageElement | null,
  original: HTMLImageElement | null,
  bg: string,
  tool: BrushTool | null,
  size: number,
): CutoutEditor {
  const [edits, setEdits] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  // the cut-out being edited (the brush paints here); shown over the background on `canvas`
  const working = useRef<HTMLCanvasElement | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  const reset = () => {
    if (!cutout) return;
    const w = document.createElement('canvas');
    w.width = cutout.naturalWidth;
    w.height = cutout.naturalHeight;
    w.getContext('2d')?.drawImage(cutout, 0, 0);
    working.current = w;
    setEdits((n) => n + 1);
  };
  // a new cut-out starts a new working copy
  useEffect(reset, [cutout]);

  useEffect(() => {
    const c = canvas.current;
    const w = working.current;
    if (!c || !cutout || !w) return;
    c.width = cutout.naturalWidth;
    c.height = cutout.naturalHeight;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, c.width, c.height);
    if (bg !== 'transparent') {
      ctx.fillStyle = bg;
      ctx.fillRect(0, 0, c.width, c.height);
    }
    ctx.drawImage(w, 0, 0);
  }, [cutout, bg, edits]);

  const paint = (e: ReactPointerEvent<HTMLCanvasElement>, first: boolean) => {
    const c = canvas.current;
    const ctx = working.current?.getContext('2d');
    if (!tool || !c || !ctx) return;
    const p = toImagePoint(e.clientX, e.clientY, c.getBoundingClientRect(), c.width, c.height);
    const from = first || !last.current ? p : last.current;
    for (const q of strokePoints(from, p, size)) dab(ctx, tool, original, q, size);
    last.current = p;
    setEdits((n) => n + 1);
  };

  return { canvas, paint, lift: () => (last.current = null), reset };
}
