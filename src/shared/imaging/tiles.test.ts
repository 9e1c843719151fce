// The tiling writes only the cross-fades through floats: its output must be byte for byte that of
// summing every output pixel in floats (the first, dense version, kept below as the reference), on a
// real photo through the real ESRGAN model, for grids with row and column seams, odd sizes and
// pictures smaller than the margin.
import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { upscaleTiled, type RunTile, type TileOptions } from './tiles.js';
import type { Rgb } from './planes.js';
import { decodeRgb } from '../../../server/engines/image.js';
import { esrganSession, type EsrganScale } from '../../../scripts/quality/esrganModels.js';
import { input, MODELS_DIR } from '../../../tests/support/engines.js';

/** The dense tiling as it was before the fast path: every output pixel accumulated in a Float32 band. */
async function denseReference(img: Rgb, s: number, runTile: RunTile, opts: TileOptions): Promise<Rgb> {
  const cores = (n: number, tile: number) => {
    const k = Math.max(1, Math.ceil(n / tile));
    return Array.from({ length: k }, (_, i) => [Math.round((i * n) / k), Math.round(((i + 1) * n) / k)] as const);
  };
  const mirror = (i: number, n: number) => {
    if (n === 1) return 0;
    const p = 2 * (n - 1);
    const m = ((i % p) + p) % p;
    return m >= n ? p - m : m;
  };
  const ramp = (x: number, a: number, b: number, bl: number, first: boolean, last: boolean) => {
    if (!first && x < a + bl) return Math.max(0, Math.min(1, (x - (a - bl)) / (2 * bl)));
    if (!last && x >= b - bl) return Math.max(0, Math.min(1, (b + bl - x) / (2 * bl)));
    return 1;
  };
  const tile = opts.tile ?? (s >= 3 ? 128 : 512);
  const pad = opts.pad ?? 12;
  const bl = Math.min(opts.blend ?? 6, pad);
  const { w, h } = img;
  const W = w * s;
  const out = new Uint8Array(W * h * s * 3);
  const rows = cores(h, tile);
  const cols = cores(w, tile);
  let carry: { y0: number; data: Float32Array } | null = null;
  for (let ri = 0; ri < rows.length; ri++) {
    const [ya, yb] = rows[ri]!;
    const firstR = ri === 0;
    const lastR = ri === rows.length - 1;
    const bandY0 = firstR ? 0 : ya - bl;
    const bandY1 = lastR ? h : yb + bl;
    const band = new Float32Array((bandY1 - bandY0) * s * W * 3);
    for (let ci = 0; ci < cols.length; ci++) {
      const [xa, xb] = cols[ci]!;
      const firstC = ci === 0;
      const lastC = ci === cols.length - 1;
      const tx0 = xa - pad;
      const ty0 = ya - pad;
      const tw = xb + pad - tx0;
      const th = yb + pad - ty0;
      const inp = new Float32Array(3 * tw * th);
      const plane = tw * th;
      for (let y = 0; y < th; y++)
        for (let x = 0; x < tw; x++) {
          const j = (mirror(ty0 + y, h) * w + mirror(tx0 + x, w)) * 3;
          for (let c = 0; c < 3; c++) inp[c * plane + y * tw + x] = img.data[j + c]!;
        }
      const o = await runTile(inp, tw, th);
      const OW = tw * s;
      const oplane = OW * th * s;
      const cx0 = firstC ? 0 : xa - bl;
      const cx1 = lastC ? w : xb + bl;
      const wx = new Float32Array((cx1 - cx0) * s);
      for (let X = cx0 * s; X < cx1 * s; X++) wx[X - cx0 * s] = ramp((X + 0.5) / s, xa, xb, bl, firstC, lastC);
      for (let Y = bandY0 * s; Y < bandY1 * s; Y++) {
        const wy = ramp((Y + 0.5) / s, ya, yb, bl, firstR, lastR);
        for (let X = cx0 * s; X < cx1 * s; X++) {
          const wgt = wy * wx[X - cx0 * s]!;
          if (wgt === 0) continue;
          const ok = (Y - ty0 * s) * OW + (X - tx0 * s);
          const bi = ((Y - bandY0 * s) * W + X) * 3;
          for (let c = 0; c < 3; c++) band[bi + c]! += wgt * o[c * oplane + ok]!;
        }
      }
    }
    if (carry) for (let i = 0; i < carry.data.length; i++) band[(carry.y0 - bandY0 * s) * W * 3 + i]! += carry.data[i]!;
    const finalEnd = lastR ? bandY1 * s : (yb - bl) * s;
    for (let i = 0; i < (finalEnd - bandY0 * s) * W * 3; i++) {
      const v = band[i]!;
      out[bandY0 * s * W * 3 + i] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
    carry = lastR ? null : { y0: finalEnd, data: band.slice((finalEnd - bandY0 * s) * W * 3) };
  }
  return { w: W, h: h * s, data: out };
}

/** The real model, run once per tile: the second tiling replays the first one's outputs after checking it asks for the same input. */
async function recordedModel(scale: EsrganScale) {
  const sess = await esrganSession(MODELS_DIR, 'slim', scale, 2);
  const calls: { input: Float32Array; tw: number; th: number; output: Float32Array }[] = [];
  const record: RunTile = async (inp, tw, th) => {
    const output = (await sess.run({ input: new ort.Tensor('float32', inp, [1, 3, th, tw]) })).output!
      .data as Float32Array;
    calls.push({ input: inp.slice(), tw, th, output });
    return output;
  };
  let next = 0;
  const replay: RunTile = async (inp, tw, th) => {
    const c = calls[next++]!;
    expect([tw, th]).toEqual([c.tw, c.th]);
    expect(Buffer.from(inp.buffer, inp.byteOffset, inp.byteLength).equals(Buffer.from(c.input.buffer))).toBe(true);
    return c.output;
  };
  return { record, replay, calls };
}

describe('tiling fast path', () => {
  it.each<[string, { left: number; top: number; width: number; height: number }, EsrganScale, TileOptions, number]>([
    ['x2, default 512-px cores, 2×2 tiles', { left: 900, top: 500, width: 700, height: 560 }, 2, {}, 4],
    ['x2, 32-px cores, odd size', { left: 1200, top: 700, width: 101, height: 77 }, 2, { tile: 32 }, 12],
    [
      'x3, default 128-px cores, 3×2 tiles, wide fade',
      { left: 300, top: 200, width: 300, height: 200 },
      3,
      { blend: 12 },
      6,
    ],
    ['x4, picture smaller than the margin', { left: 1500, top: 900, width: 7, height: 5 }, 4, {}, 1],
    [
      'x2, 64-px cores, narrow margin and fade',
      { left: 0, top: 0, width: 333, height: 211 },
      2,
      { tile: 64, pad: 8, blend: 3 },
      24,
    ],
  ])('%s: bytes equal to the dense sum', async (_name, crop, scale, opts, tiles) => {
    const img = await decodeRgb((await input('LadyBird.jpg', { crop })).data);
    const model = await recordedModel(scale);
    const progress: number[] = [];
    const fast = await upscaleTiled(img, scale, model.record, (f) => progress.push(f), opts);
    const dense = await denseReference(img, scale, model.replay, opts);
    expect(model.calls).toHaveLength(tiles);
    expect(progress).toHaveLength(tiles);
    expect(progress.at(-1)).toBe(1);
    expect([fast.w, fast.h]).toEqual([img.w * scale, img.h * scale]);
    let differ = 0;
    for (let i = 0; i < fast.data.length; i++) if (fast.data[i] !== dense.data[i]) differ++;
    expect(differ).toBe(0);
  });
});
