/**
 * The cropper's box in image pixels: moved by dragging its inside, resized by its eight handles,
 * held to a ratio preset when one is chosen, nudged with the keyboard. Pure, so the rules are tested
 * without a browser; the worker cuts exactly the box it is given (src-worker/editImage.ts).
 */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Handle = 'move' | 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: readonly Exclude<Handle, 'move'>[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Ratio presets (w/h); null is free. */
export const CROP_RATIOS: readonly { label: string; ratio: number | null }[] = [
  { label: 'free', ratio: null },
  { label: '1:1', ratio: 1 },
  { label: '4:3', ratio: 4 / 3 },
  { label: '16:9', ratio: 16 / 9 },
  { label: '3:4', ratio: 3 / 4 },
];

/** The smallest box side in image pixels. */
const MIN_SIDE = 8;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Whole pixels, inside the image, at least 1 px. */
function roundRect(r: Rect, W: number, H: number): Rect {
  const x = clamp(Math.round(r.x), 0, W - 1);
  const y = clamp(Math.round(r.y), 0, H - 1);
  return { x, y, w: clamp(Math.round(r.w), 1, W - x), h: clamp(Math.round(r.h), 1, H - y) };
}

/** The largest box of `ratio` centred on `around` (default: the image centre) that stays inside W×H. */
export function boxForRatio(W: number, H: number, ratio: number | null, around?: Rect): Rect {
  if (ratio === null) return around ?? { x: 0, y: 0, w: W, h: H };
  let w = W;
  let h = W / ratio;
  if (h > H) {
    h = H;
    w = H * ratio;
  }
  if (around) {
    // Keep the size of the current box as far as the ratio allows (its area), not the whole image.
    const area = around.w * around.h;
    const s = Math.min(1, Math.sqrt(area / (w * h)));
    w *= s;
    h *= s;
  }
  const cx = around ? around.x + around.w / 2 : W / 2;
  const cy = around ? around.y + around.h / 2 : H / 2;
  return roundRect({ x: clamp(cx - w / 2, 0, W - w), y: clamp(cy - h / 2, 0, H - h), w, h }, W, H);
}

/** The box after dragging `handle` by (dx, dy) image pixels from `start`. */
export function dragBox(
  start: Rect,
  handle: Handle,
  dx: number,
  dy: number,
  ratio: number | null,
  W: number,
  H: number,
): Rect {
  if (handle === 'move')
    return roundRect(
      { ...start, x: clamp(start.x + dx, 0, W - start.w), y: clamp(start.y + dy, 0, H - start.h) },
      W,
      H,
    );
  const west = handle.includes('w');
  const east = handle.includes('e');
  const north = handle.includes('n');
  const south = handle.includes('s');
  const min = Math.min(MIN_SIDE, W, H);
  let left = start.x;
  let right = start.x + start.w;
  let top = start.y;
  let bottom = start.y + start.h;
  if (ratio === null) {
    if (west) left = clamp(left + dx, 0, right - min);
    if (east) right = clamp(right + dx, left + min, W);
    if (north) top = clamp(top + dy, 0, bottom - min);
    if (south) bottom = clamp(bottom + dy, top + min, H);
    return roundRect({ x: left, y: top, w: right - left, h: bottom - top }, W, H);
  }
  const minW = Math.max(min, min * ratio);
  if ((west || east) && (north || south)) {
    // A corner: the opposite corner stays; the width follows the pointer, the height the ratio.
    const ax = west ? right : left;
    const ay = north ? bottom : top;
    const fromX = start.w + (east ? dx : -dx);
    const fromY = (start.h + (south ? dy : -dy)) * ratio;
    const wantW = Math.abs(dx) >= Math.abs(dy * ratio) ? fromX : fromY;
    const maxW = Math.min(east ? W - ax : ax, (south ? H - ay : ay) * ratio);
    const w = clamp(wantW, Math.min(minW, maxW), maxW);
    const h = w / ratio;
    return roundRect({ x: east ? ax : ax - w, y: south ? ay : ay - h, w, h }, W, H);
  }
  if (west || east) {
    // A side: that side follows the pointer, the height follows the ratio around the box's middle.
    const ax = west ? right : left;
    const maxW = Math.min(east ? W - ax : ax, H * ratio);
    const w = clamp(start.w + (east ? dx : -dx), Math.min(minW, maxW), maxW);
    const h = w / ratio;
    const cy = start.y + start.h / 2;
    return roundRect({ x: east ? ax : ax - w, y: clamp(cy - h / 2, 0, H - h), w, h }, W, H);
  }
  const ay = north ? bottom : top;
  const maxH = Math.min(south ? H - ay : ay, W / ratio);
  const h = clamp(start.h + (south ? dy : -dy), Math.min(minW / ratio, maxH), maxH);
  const w = h * ratio;
  const cx = start.x + start.w / 2;
  return roundRect({ x: clamp(cx - w / 2, 0, W - w), y: south ? ay : ay - h, w, h }, W, H);
}

/**
 * Keyboard: arrows move the box by `step` px; with `resize` (Alt or Shift+Alt) they move its
 * right/bottom edge instead (the ratio holds when one is set).
 */
export function nudgeBox(
  start: Rect,
  key: string,
  step: number,
  resize: boolean,
  ratio: number | null,
  W: number,
  H: number,
): Rect | null {
  const d: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const v = d[key];
  if (!v) return null;
  if (!resize) return dragBox(start, 'move', v[0], v[1], ratio, W, H);
  const handle: Handle = ratio !== null ? 'se' : v[0] !== 0 ? 'e' : 's';
  return dragBox(start, handle, v[0], v[1], ratio, W, H);
}
