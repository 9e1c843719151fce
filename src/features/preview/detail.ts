/**
 * Where a picture has detail: the 1:1 preview of an enlarged sky photo opened on its
 * centre showed two identical blue squares. The preview opens on the window of the picture's size
 * at 1:1 that holds the most edge energy (sum of |dx| + |dy| of the luminance), read from a small
 * copy of the image; the centre wins unless another window clearly has more.
 */

/** A window clearly has more detail than the centre when it holds this much more edge energy. */
const CLEARLY_MORE = 1.25;

/**
 * The centre (as fractions 0..1 of the image) of the `win`-sized window with the most edge energy.
 * `rgba` is w×h RGBA pixels; `win` is the window's size in those pixels (clamped to the image).
 */
export function detailCentre(
  rgba: ArrayLike<number>,
  w: number,
  h: number,
  win: { w: number; h: number },
): { x: number; y: number } {
  const centre = { x: 0.5, y: 0.5 };
  if (w < 3 || h < 3) return centre;
  const ww = Math.max(1, Math.min(w, Math.round(win.w)));
  const wh = Math.max(1, Math.min(h, Math.round(win.h)));
  const lum = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) lum[i] = 0.299 * rgba[i * 4] + 0.587 * rgba[i * 4 + 1] + 0.114 * rgba[i * 4 + 2];
  // integral image of the edge energy
  const integ = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const e = (x + 1 < w ? Math.abs(lum[i + 1] - lum[i]) : 0) + (y + 1 < h ? Math.abs(lum[i + w] - lum[i]) : 0);
      row += e;
      integ[(y + 1) * (w + 1) + x + 1] = integ[y * (w + 1) + x + 1] + row;
    }
  }
  const sum = (x0: number, y0: number) => {
    const x1 = x0 + ww;
    const y1 = y0 + wh;
    return integ[y1 * (w + 1) + x1] - integ[y0 * (w + 1) + x1] - integ[y1 * (w + 1) + x0] + integ[y0 * (w + 1) + x0];
  };
  const cx0 = Math.round((w - ww) / 2);
  const cy0 = Math.round((h - wh) / 2);
  const atCentre = sum(cx0, cy0);
  let best = { x: cx0, y: cy0, e: atCentre };
  const step = Math.max(1, Math.floor(Math.min(ww, wh) / 4));
  for (let y = 0; y <= h - wh; y += step) {
    for (let x = 0; x <= w - ww; x += step) {
      const e = sum(x, y);
      if (e > best.e) best = { x, y, e };
    }
  }
  if (best.e <= atCentre * CLEARLY_MORE) return centre;
  return { x: (best.x + ww / 2) / w, y: (best.y + wh / 2) / h };
}

/** Reads a small copy of a loaded image and finds its detail centre for a view of `view` px at `scale` (display px per image px). */
export function detailCentreOf(
  img: HTMLImageElement,
  view: { w: number; h: number },
  scale: number,
): { x: number; y: number } | null {
  const nw = img.naturalWidth;
  const nh = img.naturalHeight;
  if (!nw || !nh || !scale) return null;
  const k = Math.min(1, 128 / Math.max(nw, nh));
  const w = Math.max(1, Math.round(nw * k));
  const h = Math.max(1, Math.round(nh * k));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  try {
    ctx.drawImage(img, 0, 0, w, h);
    const data = ctx.getImageData(0, 0, w, h).data;
    // the view covers view/scale image pixels, i.e. that times k in the small copy
    return detailCentre(data, w, h, { w: (view.w / scale) * k, h: (view.h / scale) * k });
  } catch {
    return null; // a cross-origin image without CORS: the centre it is
  }
}
