/**
 * The repair engine's learned part: a small fully convolutional net of our own
 * (`server/engines/weights/scratch-repair.onnx`, trained by `scripts/train/scratch_net.py` on the
 * tuned repair photos with its own defect generator; see weights/README.md). Per pixel it gives the
 * log-odds that a scratch or a dust speck covers it. It sees ~65 px around each pixel, so large
 * pictures run in strips that overlap by more than that.
 */
import { session, ort } from './models.js';
import type { Rgb } from './image.js';

export const SCRATCH_NET_FILE = 'scratch-repair.onnx';
/** rows per strip (memory: 24 float maps of a strip) and the context added above and below */
const STRIP = 256, MARGIN = 40;

/** Log-odds of a defect, per pixel (`strip`: rows per run, for tests). */
export async function scratchLogit(img: Rgb, modelsDir: string, threads: number, strip = STRIP): Promise<Float32Array> {
  const sess = await session(modelsDir, SCRATCH_NET_FILE, threads);
  const { w, h, data } = img;
  const logit = new Float32Array(w * h);
  for (let y0 = 0; y0 < h; y0 += strip) {
    const y1 = Math.min(h, y0 + strip);
    const a = Math.max(0, y0 - MARGIN), b = Math.min(h, y1 + MARGIN);
    const n = (b - a) * w;
    const x = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      const s = (a * w + i) * 3;
      x[i] = data[s]! / 255 - 0.5;
      x[n + i] = data[s + 1]! / 255 - 0.5;
      x[2 * n + i] = data[s + 2]! / 255 - 0.5;
    }
    const r = await sess.run({ image: new ort.Tensor('float32', x, [1, 3, b - a, w]) });
    const o = r.logit!.data as Float32Array;
    logit.set(o.subarray((y0 - a) * w, (y1 - a) * w), y0 * w);
  }
  return logit;
}
