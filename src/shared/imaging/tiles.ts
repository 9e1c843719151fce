/**
 * Tiled inference of an image-to-image net, one rule for every caller so their grids, mirrored border
 * margins and cross-faded seams agree: the server's own enlarge and denoise nets
 * (server/engines/netRunners.ts; scale 1 for denoise), the ESRGAN models kept for comparison
 * (scripts/quality/esrgan.ts, for the bench and quality runs) and the on-device enlarge (src-worker/ondevice). The image is cut into
 * tiles with a context margin, each tile goes through the injected model call (`RunTile`: onnxruntime-
 * node or -web, any scale), and neighbouring tiles are cross-faded over a band around their common edge
 * (weights sum to 1). Works band by band to bound memory. Plain typed arrays: no Node or DOM API.
 */
import type { Rgb } from './planes.js';

export interface TileOptions {
  /** core tile side in input pixels */
  tile?: number;
  /** context margin around each tile (input pixels) */
  pad?: number;
  /** half-width of the cross-fade band (input pixels), ≤ pad and ≤ half the narrowest core */
  blend?: number;
}

/** Splits [0,n) into k near-equal cores. */
function cores(n: number, tile: number): [number, number][] {
  const k = Math.max(1, Math.ceil(n / tile));
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) out.push([Math.round((i * n) / k), Math.round(((i + 1) * n) / k)]);
  return out;
}

/** Reflects an index into [0, n) (edge pixel not repeated), for margins beyond the image border. */
function mirror(i: number, n: number): number {
  if (n === 1) return 0;
  const p = 2 * (n - 1);
  let m = ((i % p) + p) % p;
  if (m >= n) m = p - m;
  return m;
}

/** Weight of a core [a,b) at input coordinate x, with cross-fades of half-width `bl` at inner edges. */
function ramp(x: number, a: number, b: number, bl: number, first: boolean, last: boolean): number {
  if (!first && x < a + bl) return Math.max(0, Math.min(1, (x - (a - bl)) / (2 * bl)));
  if (!last && x >= b - bl) return Math.max(0, Math.min(1, (b + bl - x) / (2 * bl)));
  return 1;
}

/** A float output value as the byte it rounds to (clamped; NaN → 0): Math.round, since v is a float32 and v + 0.5 is exact. */
function byte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : (v + 0.5) | 0;
}

/**
 * One axis of the grid in output coordinates: each core's weighted span [lo, hi) and its ramp there,
 * and `solo`, 1 where exactly one core covers an output coordinate with weight 1 (no cross-fade).
 * `f32`: weights held in float32 (columns) or double (rows), as the dense accumulation held them.
 */
function axis(cs: [number, number][], n: number, s: number, bl: number, f32: boolean) {
  const last = cs.length - 1;
  const spans = cs.map(([a, b], i) => {
    const lo = (i === 0 ? 0 : a - bl) * s;
    const hi = (i === last ? n : b + bl) * s;
    const wt = f32 ? new Float32Array(hi - lo) : new Float64Array(hi - lo);
    for (let X = lo; X < hi; X++) wt[X - lo] = ramp((X + 0.5) / s, a, b, bl, i === 0, i === last);
    return { lo, hi, wt };
  });
  const cover = new Uint8Array(n * s);
  const one = new Uint8Array(n * s);
  for (const { lo, hi, wt } of spans)
    for (let X = lo; X < hi; X++) {
      cover[X]!++;
      if (wt[X - lo] === 1) one[X] = 1;
    }
  const solo = new Uint8Array(n * s);
  for (let X = 0; X < n * s; X++) solo[X] = cover[X] === 1 && one[X] ? 1 : 0;
  return { spans, solo };
}

/** Planar float copy of the tile [tx0, tx0+tw) × [ty0, ty0+th) of an interleaved RGB image, mirrored beyond its border. */
function gather(img: Rgb, tx0: number, ty0: number, tw: number, th: number): Float32Array {
  const { w, h, data } = img;
  const input = new Float32Array(3 * tw * th);
  const plane = tw * th;
  const colIdx = new Int32Array(tw);
  for (let x = 0; x < tw; x++) colIdx[x] = mirror(tx0 + x, w) * 3;
  for (let y = 0; y < th; y++) {
    const row = mirror(ty0 + y, h) * w * 3;
    const k0 = y * tw;
    for (let x = 0; x < tw; x++) {
      const j = row + colIdx[x]!;
      input[k0 + x] = data[j]!;
      input[plane + k0 + x] = data[j + 1]!;
      input[2 * plane + k0 + x] = data[j + 2]!;
    }
  }
  return input;
}

type Axis = ReturnType<typeof axis>;

/**
 * The output picture assembled band by band from the tiles' outputs. Pixels covered by one tile at
 * weight 1 (all but the cross-fade bands) are written straight to `out`; only the fades are summed in
 * floats, in the order and precision of a dense accumulation (column weights float32, row weights
 * double, a band's sum before the rows carried from the band above), so the bytes are those of
 * summing every pixel. Fade rows (across a row seam) sum whole rows in `fade`; the other rows sum only
 * their seam columns, in `seam`. The pixel loops are plain methods, outside the async function that
 * awaits the model: there a process's first 2.8 MP enlarge spent 0.6 s in them, here 0.13–0.33 s.
 */
class Canvas {
  readonly out: Uint8Array;
  private readonly W3: number;
  private readonly seamCols: Int32Array;
  private readonly colSlot: Int32Array;
  /** each column core's span cut into runs written straight (solo) or summed (seam) */
  private readonly runs: { x0: number; x1: number; solo: boolean }[][];
  private fade = new Float32Array(0);
  private seam = new Float32Array(0);
  /** the fade rows the last band shares with this one, summed over that band */
  private carry = new Float32Array(0);
  private carryRows = 0;
  private rowSlot = new Int32Array(0);
  private r0 = 0;
  private r1 = 0;
  private wy: Float32Array | Float64Array = new Float64Array(0);

  constructor(
    readonly W: number,
    readonly H: number,
    private readonly colAx: Axis,
    private readonly rowAx: Axis,
  ) {
    this.out = new Uint8Array(W * H * 3);
    this.W3 = W * 3;
    const seamCols: number[] = [];
    this.colSlot = new Int32Array(W).fill(-1);
    for (let X = 0; X < W; X++) if (!colAx.solo[X]) this.colSlot[X] = seamCols.push(X) - 1;
    this.seamCols = Int32Array.from(seamCols);
    this.runs = colAx.spans.map(({ lo, hi }) => {
      const r: { x0: number; x1: number; solo: boolean }[] = [];
      for (let X = lo; X < hi; X++) {
        const solo = colAx.solo[X] === 1;
        const prev = r[r.length - 1];
        if (prev && prev.solo === solo) prev.x1 = X + 1;
        else r.push({ x0: X, x1: X + 1, solo });
      }
      return r;
    });
  }

  startBand(ri: number): void {
    const { lo, hi, wt } = this.rowAx.spans[ri]!;
    this.r0 = lo;
    this.r1 = hi;
    this.wy = wt;
    this.rowSlot = new Int32Array(hi - lo);
    let nFade = 0;
    for (let Y = lo; Y < hi; Y++) this.rowSlot[Y - lo] = this.rowAx.solo[Y] ? -1 : nFade++;
    const nf = nFade * this.W3;
    if (this.fade.length < nf) this.fade = new Float32Array(nf);
    else this.fade.fill(0, 0, nf);
    const ns = (hi - lo) * this.seamCols.length * 3;
    if (this.seam.length < ns) this.seam = new Float32Array(ns);
    else this.seam.fill(0, 0, ns);
  }

  /** Adds the output `o` ([1,3,·,OW] planar) of column core `ci`'s tile, whose output origin is (ox, oy). */
  addTile(ci: number, o: Float32Array, ox: number, oy: number, OW: number, OH: number): void {
    const { out, fade, seam, colSlot, rowSlot, wy, r0, r1, W3 } = this;
    const nSeam3 = this.seamCols.length * 3;
    const oplane = OW * OH;
    const { lo: c0, hi: c1, wt: wx } = this.colAx.spans[ci]!;
    const runs = this.runs[ci]!;
    for (let Y = r0; Y < r1; Y++) {
      const wyY = wy[Y - r0]!;
      const ob = (Y - oy) * OW - ox; // + X: this output pixel in the tile's planes
      const slot = rowSlot[Y - r0]!;
      if (slot >= 0) {
        const fb = slot * W3;
        for (let X = c0; X < c1; X++) {
          const wgt = wyY * wx[X - c0]!;
          if (wgt === 0) continue;
          const ok = ob + X;
          const fi = fb + X * 3;
          fade[fi]! += wgt * o[ok]!;
          fade[fi + 1]! += wgt * o[oplane + ok]!;
          fade[fi + 2]! += wgt * o[2 * oplane + ok]!;
        }
        continue;
      }
      const sb = (Y - r0) * nSeam3;
      const orow = Y * W3;
      for (let r = 0; r < runs.length; r++) {
        const { x0, x1, solo } = runs[r]!;
        if (solo) {
          for (let ok = ob + x0, end = ob + x1, oi = orow + x0 * 3; ok < end; ok++, oi += 3) {
            out[oi] = byte(o[ok]!);
            out[oi + 1] = byte(o[oplane + ok]!);
            out[oi + 2] = byte(o[2 * oplane + ok]!);
          }
          continue;
        }
        for (let X = x0; X < x1; X++) {
          const wgt = wyY * wx[X - c0]!;
          if (wgt === 0) continue;
          const ok = ob + X;
          const si = sb + colSlot[X]! * 3;
          seam[si]! += wgt * o[ok]!;
          seam[si + 1]! += wgt * o[oplane + ok]!;
          seam[si + 2]! += wgt * o[2 * oplane + ok]!;
        }
      }
    }
  }

  /** Writes the summed pixels of the rows [r0, end) (the rows carried from the band above added) and carries the rest. */
  finishBand(end: number): void {
    const { out, fade, seam, seamCols, rowSlot, r0, r1, W3 } = this;
    const carry = this.carry;
    const nSeam = seamCols.length;
    for (let Y = r0; Y < end; Y++) {
      const slot = rowSlot[Y - r0]!;
      const orow = Y * W3;
      if (slot >= 0) {
        const fb = slot * W3;
        if (Y - r0 < this.carryRows) {
          const cb = (Y - r0) * W3;
          for (let i = 0; i < W3; i++) out[orow + i] = byte(Math.fround(fade[fb + i]! + carry[cb + i]!));
        } else for (let i = 0; i < W3; i++) out[orow + i] = byte(fade[fb + i]!);
        continue;
      }
      const sb = (Y - r0) * nSeam * 3;
      for (let k = 0; k < nSeam; k++) {
        const oi = orow + seamCols[k]! * 3;
        const si = sb + k * 3;
        out[oi] = byte(seam[si]!);
        out[oi + 1] = byte(seam[si + 1]!);
        out[oi + 2] = byte(seam[si + 2]!);
      }
    }
    this.carryRows = r1 - end;
    if (this.carry.length < this.carryRows * W3) this.carry = new Float32Array(this.carryRows * W3);
    for (let Y = end; Y < r1; Y++) {
      const fb = rowSlot[Y - r0]! * W3; // rows shared by two bands are never solo
      this.carry.set(fade.subarray(fb, fb + W3), (Y - end) * W3);
    }
  }
}

/** Runs the model on one tile: planar RGB 0..255 [1,3,th,tw] → planar [1,3,th·s,tw·s]. */
export type RunTile = (input: Float32Array, tw: number, th: number) => Promise<Float32Array>;

export async function upscaleTiled(
  img: Rgb,
  scale: number,
  runTile: RunTile,
  onProgress: (f: number) => void = () => {},
  opts: TileOptions = {},
): Promise<Rgb> {
  const s = scale;
  // bigger tiles waste less on margins (measured: 128 beats 48 and 80 at x8; at x2 512-px cores
  // compute 7 % extra pixels where 192 computed 25 %, and ran 0.68× the time of 192 in one bench run)
  const tile = opts.tile ?? (s >= 3 ? 128 : 512);
  const pad = opts.pad ?? 12;
  const { w, h } = img;
  const rows = cores(h, tile);
  const cols = cores(w, tile);
  // a fade wider than half a core would reach past the next seam (three tiles on one pixel): narrowed
  const narrowest = Math.min(...[rows, cols].filter((c) => c.length > 1).flatMap((c) => c.map(([a, b]) => b - a)));
  const bl = Math.min(opts.blend ?? 6, pad, Math.floor(narrowest / 2));
  const canvas = new Canvas(w * s, h * s, axis(cols, w, s, bl, true), axis(rows, h, s, bl, false));
  const total = rows.length * cols.length;
  let done = 0;
  for (let ri = 0; ri < rows.length; ri++) {
    const [ya, yb] = rows[ri]!;
    canvas.startBand(ri);
    for (let ci = 0; ci < cols.length; ci++) {
      const [xa, xb] = cols[ci]!;
      // tile input region with context margin on every side; beyond the image border the margin
      // is mirrored, because the network's zero padding darkens a few output pixels at each edge
      const tx0 = xa - pad,
        ty0 = ya - pad;
      const tw = xb + pad - tx0,
        th = yb + pad - ty0;
      const o = await runTile(gather(img, tx0, ty0, tw, th), tw, th);
      canvas.addTile(ci, o, tx0 * s, ty0 * s, tw * s, th * s);
      onProgress(++done / total);
    }
    // rows up to the next band's fade are complete
    canvas.finishBand(ri === rows.length - 1 ? h * s : (yb - bl) * s);
  }
  return { w: canvas.W, h: canvas.H, data: canvas.out };
}
