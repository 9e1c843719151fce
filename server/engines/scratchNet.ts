/**
 * The repair engine's learned part, the defect net: a small U-Net of our own
 * (`server/engines/weights/scratch-repair.onnx`, trained by `scripts/train/train.py`, recipe `scratch`, on our
 * own synthetic scratches and dust over the tuned repair photos and photos from Debian packages;
 * provenance in weights/README.md). Per pixel it gives the log-odds that a scratch or a dust speck
 * covers it. It works at full, ½, ¼ and ⅛ resolution, so its input sides are multiples of 8 (edges
 * are repeated) and each output pixel depends on ~85 rows around it: large pictures run in strips
 * of rows with more context than that above and below, so strips give what one run over the whole
 * picture gives.
 */
import { session, ort } from './models.js';
import type { Rgb } from './image.js';

const SCRATCH_NET_FILE = 'scratch-repair.onnx';
/** the net's coarsest level is ⅛: inputs are padded to multiples of ALIGN */
const ALIGN = 8;
/** rows of context above and below a strip (beyond the net's reach of ~85 rows), a multiple of ALIGN */
const MARGIN = 96;
/** rows per strip (memory: the widest activations are 16 maps of (STRIP + 2·MARGIN) × width floats) */
const STRIP = 384;

const up = (v: number) => Math.ceil(v / ALIGN) * ALIGN;

/** Log-odds of a defect, per pixel (`strip`: rows per run, for tests). */
export async function scratchLogit(img: Rgb, modelsDir: string, threads: number, strip = STRIP): Promise<Float32Array> {
  const sess = await session(modelsDir, SCRATCH_NET_FILE, threads);
  const { w, h, data } = img;
  const W = up(w),
    step = up(strip);
  const logit = new Float32Array(w * h);
  for (let y0 = 0; y0 < h; y0 += step) {
    const y1 = Math.min(h, y0 + step);
    // strips start on the ⅛ grid, so every strip sees the pooling grid of a whole run
    const a = Math.max(0, y0 - MARGIN),
      b = Math.min(up(h), y1 + MARGIN);
    const rows = b - a,
      n = rows * W;
    const x = new Float32Array(3 * n);
    for (let r = 0; r < rows; r++) {
      const src = Math.min(a + r, h - 1) * w; // rows and columns past the picture repeat its edge
      for (let c = 0; c < W; c++) {
        const s = (src + Math.min(c, w - 1)) * 3,
          o = r * W + c;
        x[o] = data[s]! / 255 - 0.5;
        x[n + o] = data[s + 1]! / 255 - 0.5;
        x[2 * n + o] = data[s + 2]! / 255 - 0.5;
      }
    }
    const out = (await sess.run({ image: new ort.Tensor('float32', x, [1, 3, rows, W]) })).logit!.data as Float32Array;
    for (let y = y0; y < y1; y++) logit.set(out.subarray((y - a) * W, (y - a) * W + w), y * w);
  }
  return logit;
}
