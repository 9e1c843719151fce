/**
 * The background editor's erase/restore brush: erase clears the cut-out where it paints,
 * restore brings back the original photo's pixels there, for the edge of a cut-out (hair, a hand).
 * The cut-out is kept on a working canvas; the page shows it over the chosen background.
 */

export type BrushTool = 'erase' | 'restore';

/** A pointer position on the shown canvas (CSS px in `rect`) as a pixel of the w×h image. */
export function toImagePoint(
  clientX: number,
  clientY: number,
  rect: { left: number; top: number; width: number; height: number },
  w: number,
  h: number,
): { x: number; y: number } {
  const x = ((clientX - rect.left) / (rect.width || 1)) * w;
  const y = ((clientY - rect.top) / (rect.height || 1)) * h;
  return { x: Math.max(0, Math.min(w, x)), y: Math.max(0, Math.min(h, y)) };
}

/** The points of a stroke from `a` to `b`, spaced a quarter of the brush radius (no gaps on a fast drag). */
export function strokePoints(
  a: { x: number; y: number },
  b: { x: number; y: number },
  radius: number,
): { x: number; y: number }[] {
  const d = Math.hypot(b.x - a.x, b.y - a.y);
  const n = Math.max(1, Math.ceil(d / Math.max(1, radius / 4)));
  return Array.from({ length: n + 1 }, (_, i) => ({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n }));
}

/** Paints one dab of the brush on the working cut-out. */
export function dab(
  work: CanvasRenderingContext2D,
  tool: BrushTool,
  original: CanvasImageSource | null,
  p: { x: number; y: number },
  radius: number,
): void {
  work.save();
  work.beginPath();
  work.arc(p.x, p.y, radius, 0, Math.PI * 2);
  if (tool === 'erase') {
    work.globalCompositeOperation = 'destination-out';
    work.fillStyle = '#000';
    work.fill();
  } else if (original) {
    work.clip();
    // the original photo's own pixels, fully opaque, where the brush passes
    work.clearRect(p.x - radius, p.y - radius, radius * 2, radius * 2);
    work.drawImage(original, 0, 0, work.canvas.width, work.canvas.height);
  }
  work.restore();
}
