/**
 * A large photo with a ground truth (issue 51): a mosaic of held-out photos (/work/shared/data/images or
 * LARGE_PHOTO_DIR: elephants 5640×3172 above, LadyBird, YellowFlower, Storm and GreenMeadow crops below;
 * no benchmark image, none the nets were trained on) reduced ×2 with MATLAB's bicubic, enlarged x2 at
 * default params (PNG in: the clean net) and compared on Y-PSNR with the papers' bicubic and with sharp's
 * Lanczos (the plain resize the engine fell back to above ~6.7 MP before). Writes
 * bench/results/large-photo.json and large-photo-crops.png (1:1 crops: input ×2 nearest | Lanczos | ours).
 *   node --import tsx scripts/quality/largePhoto.ts [scale-of-ground-truth, default 1]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModule } from '../../server/engines/registry.js';
import { decodeRgb, resizeRgb, sharpOf, type Rgb } from '../../server/engines/image.js';
import { bicubicResize } from '../../src/shared/imaging/resample.js';
import { ctx as engineContext, fromRgb } from '../../tests/support/engines.js';
import { matlabResize, psnrY } from './matlabResize.js';

const DIR = process.env.LARGE_PHOTO_DIR || '/work/shared/data/images';
const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The ground truth: 5640 × 5476 px (30.9 MP), its input 2820 × 2738 (7.7 MP). */
async function mosaic(): Promise<Rgb> {
  const W = 5640;
  const crop = async (file: string, left: number, top: number, width: number, height: number) => ({
    input: await sharp(path.join(DIR, file))
      .rotate()
      .removeAlpha()
      .extract({ left, top, width, height })
      .png()
      .toBuffer(),
  });
  const parts = [
    { ...(await crop('elephants-5640x3172.jpg', 0, 0, 5640, 3172)), left: 0, top: 0 },
    { ...(await crop('LadyBird.jpg', 0, 160, 2560, 1280)), left: 0, top: 3172 },
    { ...(await crop('YellowFlower.jpg', 0, 160, 2560, 1280)), left: 2560, top: 3172 },
    { ...(await crop('Storm.jpg', 700, 0, 520, 1280)), left: 5120, top: 3172 },
    { ...(await crop('GreenMeadow.jpg', 0, 0, 1280, 1024)), left: 0, top: 4452 },
    { ...(await crop('LadyBird.jpg', 0, 0, 2560, 1024)), left: 1280, top: 4452 },
    { ...(await crop('YellowFlower.jpg', 0, 576, 1800, 1024)), left: 3840, top: 4452 },
  ];
  const { data, info } = await sharp({ create: { width: W, height: 5476, channels: 3, background: '#808080' } })
    .composite(parts)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`mosaic: ${info.channels} channels`);
  return { w: info.width, h: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

const cut = (img: Rgb, x: number, y: number, w: number, h: number): Rgb => {
  const out = new Uint8Array(w * h * 3);
  for (let r = 0; r < h; r++)
    out.set(img.data.subarray(((y + r) * img.w + x) * 3, ((y + r) * img.w + x + w) * 3), r * w * 3);
  return { w, h, data: out };
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const hr = await mosaic();
  const lr = matlabResize(hr, 0.5);
  const ctx = engineContext([], 'png', Number(process.env.ENGINE_THREADS || 2));
  const t0 = performance.now();
  const res = await runModule('enlarge', await fromRgb(lr), { scale: 2 }, ctx);
  const seconds = (performance.now() - t0) / 1000;
  const ours = await decodeRgb(res.data);
  const bicubic = bicubicResize(lr, hr.w, hr.h);
  const lanczos = await resizeRgb(lr, hr.w, hr.h, 'lanczos3');
  const r = {
    groundTruth: `${hr.w}×${hr.h}`,
    input: `${lr.w}×${lr.h} (${((lr.w * lr.h) / 1e6).toFixed(2)} MP)`,
    enlargePath: res.enlargePath,
    seconds: Math.round(seconds),
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    psnrY: {
      ours: psnrY(ours, hr, 2),
      bicubic: psnrY(bicubic, hr, 2),
      sharpLanczos: psnrY(lanczos, hr, 2),
    },
  };
  console.log(JSON.stringify(r, null, 1));
  const out = path.join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'large-photo.json'), JSON.stringify(r, null, 1));
  // 1:1 crops of three places (elephant skin, the ladybird, the meadow): input (nearest ×2) | Lanczos | ours
  const spots = [
    [2400, 1200],
    [1000, 3600],
    [400, 4700],
  ];
  const S = 384;
  const rows: { input: Buffer; left: number; top: number }[] = [];
  for (const [k, [x, y]] of spots.entries()) {
    const near = await resizeRgb(cut(lr, x! / 2, y! / 2, S / 2, S / 2), S, S, 'nearest');
    for (const [j, img] of [near, cut(lanczos, x!, y!, S, S), cut(ours, x!, y!, S, S)].entries())
      rows.push({ input: await sharpOf(img).png().toBuffer(), left: j * (S + 8), top: k * (S + 8) });
  }
  await sharp({ create: { width: 3 * S + 16, height: 3 * S + 16, channels: 3, background: '#ffffff' } })
    .composite(rows)
    .png()
    .toFile(path.join(out, 'large-photo-crops.png'));
}
