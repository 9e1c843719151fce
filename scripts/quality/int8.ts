/**
 * `npm run quality -- int8`: what the int8 nets (server/engines/weights/*.int8.json) cost in quality, through
 * the engines at default params, each image run with ENGINE_INT8=0 (fp32) and auto (int8 where kept):
 *  - enlarge x2 / x4 on Set5 and Set14, the papers' way (MATLAB bicubic LR, Y-PSNR, border = scale):
 *    PNG inputs, which the engine gives its clean nets;
 *  - the same LR saved as JPEG q 85, which the engine gives its mixed nets (PSNR against the HR);
 *  - denoise on CBSD68 at σ 25 (RGB PSNR; noise as `papers`; CBSD68_LIMIT=n: the first n images).
 * A net's int8 recipe is kept only where every row it serves loses ≤ 0.05 dB (server/engines/README.md).
 */
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { runModule } from '../../server/engines/registry.js';
import { decodeRgb, gaussianNoise, psnr, type Rgb } from '../../server/engines/image.js';
import type { EngineContext } from '../../server/engines/types.js';
import { fromRgb } from '../../tests/support/engines.js';
import { matlabResize, modcrop, psnrY } from './matlabResize.js';
import { readSet, setDir } from './papers.js';

const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);
const r3 = (v: number) => Math.round(v * 1000) / 1000;

export async function int8Section(ctx: EngineContext): Promise<Record<string, unknown>> {
  const root = process.env.QUALITY_BENCH_DIR;
  if (!root || !existsSync(root))
    return { skipped: 'QUALITY_BENCH_DIR is not set to a folder with Set5 / Set14 / CBSD68' };
  const out: Record<string, Record<string, number>> = {};
  /** the engine's output with fp32 and with int8 nets */
  const both = async (
    module: 'enlarge' | 'denoise',
    img: Rgb | Buffer,
    params: Record<string, unknown>,
  ): Promise<[Rgb, Rgb]> => {
    const input = Buffer.isBuffer(img)
      ? {
          data: img,
          ...(await sharp(img)
            .metadata()
            .then((m) => ({ width: m.width!, height: m.height! }))),
          format: 'jpeg' as const,
        }
      : await fromRgb(img);
    const res: Rgb[] = [];
    for (const mode of ['0', 'auto']) {
      process.env.ENGINE_INT8 = mode;
      res.push(await decodeRgb((await runModule(module, input, params, ctx)).data));
    }
    delete process.env.ENGINE_INT8;
    return [res[0]!, res[1]!];
  };
  const row = (key: string, fp32: number[], int8: number[]) => {
    out[key] = {
      fp32: r3(mean(fp32)),
      int8: r3(mean(int8)),
      loss_db: r3(mean(fp32) - mean(int8)),
      images: fp32.length,
    };
    console.log(key, JSON.stringify(out[key]));
  };

  for (const set of ['Set5', 'Set14']) {
    const dir = setDir(root, set);
    if (!dir) continue;
    const imgs = await readSet(dir);
    for (const scale of [2, 4] as const) {
      const png = { fp32: [] as number[], int8: [] as number[] },
        jpeg = { fp32: [] as number[], int8: [] as number[] };
      for (const { img } of imgs) {
        const hr = modcrop(img, scale);
        const lr = matlabResize(hr, 1 / scale);
        const [a, b] = await both('enlarge', lr, { scale });
        png.fp32.push(psnrY(a, hr, scale));
        png.int8.push(psnrY(b, hr, scale));
        const q85 = await sharp(Buffer.from(lr.data), { raw: { width: lr.w, height: lr.h, channels: 3 } })
          .jpeg({ quality: 85 })
          .toBuffer();
        const [c, d] = await both('enlarge', q85, { scale });
        jpeg.fp32.push(psnrY(c, hr, scale));
        jpeg.int8.push(psnrY(d, hr, scale));
      }
      row(`${set}_x${scale}`, png.fp32, png.int8);
      row(`${set}_x${scale}_from_jpeg_q85`, jpeg.fp32, jpeg.int8);
    }
  }

  const cb = setDir(root, 'CBSD68');
  if (cb) {
    const imgs = await readSet(cb, Number(process.env.CBSD68_LIMIT) || Infinity);
    const rows = { fp32: [] as number[], int8: [] as number[] };
    for (const [i, { img }] of imgs.entries()) {
      const n = gaussianNoise(img.data.length, 25, 1000 + i); // as `papers`
      const noisy = {
        ...img,
        data: Uint8Array.from(img.data, (v, k) => Math.max(0, Math.min(255, Math.round(v + n[k]!)))),
      };
      const [a, b] = await both('denoise', noisy, {});
      rows.fp32.push(psnr(a.data, img.data));
      rows.int8.push(psnr(b.data, img.data));
    }
    row('CBSD68_sigma25', rows.fp32, rows.int8);
  }
  return out;
}
