/**
 * `npm run samples`: before/after sample pairs per feature type (module name) from licensed
 * images, written to public/samples/<type>/ with public/samples/manifest.json (spec §3 "Sample
 * item"). Enlarge results carry `{scale}` in their path, one file per scale a plan offers (x2, x4,
 * x6, x8); portrait results carry `{scale}` = 1 for the single-face crop and 2 for the entire picture.
 * `npm run samples -- enlarge matting` regenerates only those types and keeps the others.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { runModule } from '../server/engines/registry.js';
import type { EngineContext, EngineImage } from '../server/engines/types.js';
import { loadConfig } from '../server/config.js';
import type { ModuleName, ModuleParams } from '../src/shared/domain/modules.js';
import { gaussianNoise } from '../server/engines/image.js';
import { PLAN_LIMITS } from '../src/shared/domain/plans.js';

/** Every enlarge scale any plan offers: the sample has a result for each (spec: 2X, 4X, 6X, 8X). */
export const SAMPLE_SCALES: readonly number[] = [...new Set(Object.values(PLAN_LIMITS).flatMap((l) => l.scales))].sort(
  (a, b) => a - b,
);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'tests', 'fixtures');
const outDir = path.join(root, 'public', 'samples');
// A Pro work's context; the "before" images are JPEG, and so are the results (as for a user's JPEG).
const ctx: EngineContext = {
  threads: Number(process.env.ENGINE_THREADS || 2),
  modelsDir: loadConfig().modelsDir,
  level: 'pro',
  output: 'jpeg',
  onProgress: () => {},
};

interface Source {
  name: string;
  file: string;
  /** long side of the original sample */
  side: number;
  crop?: { left: number; top: number; width: number; height: number };
  /** a prepared "before": grayscale (colorize), added noise (denoise), soft focus (sharpen) */
  prep?: 'gray' | 'noise' | 'soft';
  params?: Partial<ModuleParams>;
}

const SAMPLES: Record<string, Source[]> = {
  enlarge: [
    {
      name: 'Motorcycle',
      file: 'motorcycle_left.png',
      side: 200,
      crop: { left: 160, top: 120, width: 360, height: 270 },
    },
    { name: 'Cat', file: 'chelsea.png', side: 200, crop: { left: 110, top: 40, width: 240, height: 180 } },
  ],
  denoise: [
    { name: 'Coffee', file: 'coffee.png', side: 600, prep: 'noise' },
    { name: 'Meadow', file: 'GreenMeadow.jpg', side: 640, prep: 'noise' },
  ],
  sharpen: [
    { name: 'Yellow flower', file: 'YellowFlower.jpg', side: 720, prep: 'soft' },
    { name: 'Motorcycle', file: 'motorcycle_left.png', side: 720, prep: 'soft' },
  ],
  sharpen_auto: [{ name: 'Lady bird', file: 'LadyBird.jpg', side: 720, prep: 'soft' }],
  matting: [
    { name: 'Cat', file: 'chelsea.png', side: 451 },
    { name: 'Coffee', file: 'coffee.png', side: 600 },
  ],
  colorize: [
    // a colour photo turned grey, so the result can be compared with the truth; the
    // astronaut's suit and flag are colours no luminance cue can know, so it is no longer a sample
    { name: 'Bridge', file: 'wallpapers/bridge.jpg', side: 480, prep: 'gray' },
    { name: 'Cameraman', file: 'camera.png', side: 512, prep: 'gray' },
  ],
  colorize_pro: [{ name: 'Bridge', file: 'wallpapers/bridge.jpg', side: 480, prep: 'gray' }],
  portrait: [{ name: 'Astronaut', file: 'astronaut.png', side: 512 }],
  cartoonize: [
    { name: 'Cat', file: 'chelsea.png', side: 451 },
    { name: 'Astronaut', file: 'astronaut.png', side: 512 },
  ],
  // a soft face (blurred), what the enhancer restores; on the sharp original it changes little
  face_enhancer: [{ name: 'Astronaut', file: 'astronaut.png', side: 512, prep: 'soft' }],
  perfect: [
    { name: 'Rocket at night', file: 'rocket.jpg', side: 640 },
    { name: 'Storm', file: 'Storm.jpg', side: 720 },
  ],
  compress: [{ name: 'Yellow flower', file: 'YellowFlower.jpg', side: 800 }],
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

async function before(src: Source): Promise<EngineImage> {
  let s = sharp(readFileSync(path.join(fixtures, src.file)))
    .rotate()
    .removeAlpha()
    .toColourspace('srgb');
  if (src.crop) s = s.extract(src.crop);
  s = s.resize(src.side, src.side, { fit: 'inside' });
  if (src.prep === 'gray') s = s.grayscale().toColourspace('srgb');
  if (src.prep === 'soft') s = s.blur(1.4);
  const raw = await s.raw().toBuffer({ resolveWithObject: true });
  const info = raw.info;
  let data = raw.data;
  if (src.prep === 'noise') {
    const n = gaussianNoise(data.length, 20, 3);
    data = Buffer.from(Uint8Array.from(data, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!)))));
  }
  const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { data: jpeg, width: info.width, height: info.height, format: 'jpeg' };
}

async function toJpeg(buf: Buffer, quality = 85): Promise<Buffer> {
  return sharp(buf).flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true }).toBuffer();
}

type Manifest = Record<string, { name: string; original: string; processed: string; w: number; h: number }[]>;

/** Writes every sample type, or only `only` (the other types' files and manifest entries are kept). */
export async function generateSamples(log: (s: string) => void = console.log, only: readonly string[] = []) {
  const unknown = only.filter((t) => !(t in SAMPLES));
  if (unknown.length)
    throw new Error(`unknown sample types: ${unknown.join(', ')} (known: ${Object.keys(SAMPLES).join(', ')})`);
  const manifestFile = path.join(outDir, 'manifest.json');
  let manifest: Manifest = {};
  if (only.length) {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    for (const t of only) rmSync(path.join(outDir, t), { recursive: true, force: true });
  } else {
    rmSync(outDir, { recursive: true, force: true });
  }
  for (const [type, sources] of Object.entries(SAMPLES)) {
    if (only.length && !only.includes(type)) continue;
    const module = type as ModuleName;
    mkdirSync(path.join(outDir, type), { recursive: true });
    manifest[type] = [];
    for (const src of sources) {
      const base = slug(src.name);
      const img = await before(src);
      const original = `${base}.jpg`;
      writeFileSync(path.join(outDir, type, original), img.data);
      const params = src.params ?? {};
      let processed: string;
      if (module === 'enlarge') {
        for (const scale of SAMPLE_SCALES) {
          const t0 = Date.now();
          const out = await runModule(module, img, { ...params, scale }, ctx);
          const file = await toJpeg(out.data, scale > 4 ? 78 : 82);
          writeFileSync(path.join(outDir, type, `${base}-x${scale}.jpg`), file);
          log(
            `  x${scale}: ${out.width}×${out.height}, ${(file.length / 1024).toFixed(0)} KB, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
          );
        }
        processed = `${base}-x{scale}.jpg`;
      } else if (module === 'portrait') {
        for (const [k, single] of [
          [1, true],
          [2, false],
        ] as const) {
          const out = await runModule(module, img, { ...params, single_face: single }, ctx);
          writeFileSync(path.join(outDir, type, `${base}-${k}.jpg`), await toJpeg(out.data));
        }
        processed = `${base}-{scale}.jpg`;
      } else if (module === 'matting') {
        const out = await runModule(module, img, params, ctx);
        processed = `${base}-cutout.png`;
        writeFileSync(
          path.join(outDir, type, processed),
          await sharp(out.data).png({ palette: true, quality: 90, effort: 7 }).toBuffer(),
        );
      } else if (module === 'compress') {
        const big = { ...img, data: await sharp(img.data).jpeg({ quality: 98 }).toBuffer() };
        writeFileSync(path.join(outDir, type, original), big.data);
        const out = await runModule(module, big, params, ctx);
        processed = `${base}-compressed.jpg`;
        writeFileSync(path.join(outDir, type, processed), out.data);
      } else {
        const out = await runModule(module, img, params, ctx);
        processed = `${base}-${slug(type)}.jpg`;
        writeFileSync(path.join(outDir, type, processed), await toJpeg(out.data));
      }
      manifest[type]!.push({
        name: src.name,
        original: `/samples/${type}/${original}`,
        processed: `/samples/${type}/${processed}`,
        w: img.width,
        h: img.height,
      });
      log(`${type}: ${src.name}`);
    }
  }
  const ordered: Manifest = {};
  for (const t of Object.keys(SAMPLES)) if (manifest[t]) ordered[t] = manifest[t];
  writeFileSync(manifestFile, JSON.stringify(ordered, null, 2) + '\n');
  writeFileSync(path.join(outDir, 'LICENSES.md'), LICENSES);
  let total = 0;
  for (const d of readdirSync(outDir, { recursive: true, withFileTypes: true }))
    if (d.isFile()) total += statSync(path.join(d.parentPath, d.name)).size;
  log(`samples: ${Object.values(manifest).flat().length} pairs, ${(total / 1e6).toFixed(2)} MB in public/samples`);
  return manifest;
}

const LICENSES = `# Sample images and their licences

Every sample is derived (cropped, resized, grayscaled, blurred or noised, then processed by
Pixmill's own engines) from these test images (Debian packages, see tests/fixtures/LICENSES.md):

| source | used for | licence |
|---|---|---|
| motorcycle_left.png (python3-skimage, Middlebury stereo set) | enlarge, sharpen | CC0 |
| chelsea.png (python3-skimage) | enlarge, matting, cartoonize | CC0 (Stefan van der Walt) |
| coffee.png (python3-skimage) | denoise, matting | CC0 (Rachel Michetti) |
| camera.png (python3-skimage) | colorize | CC0 |
| wallpapers/bridge.jpg (lomiri-wallpapers-16.04, Bridge_by_Sander_Klootwijk.jpg) | colorize, colorize_pro | CC-BY-SA-4.0 (Sander Klootwijk, 2018) |
| astronaut.png (python3-skimage) | portrait, cartoonize, face_enhancer | public domain (NASA) |
| rocket.jpg (python3-skimage) | perfect | public domain (SpaceX) |
| GreenMeadow.jpg (mate-backgrounds) | denoise | GPL-2+ (Timothy Schellhase) |
| YellowFlower.jpg (mate-backgrounds) | sharpen, compress | GPL-2+ |
| LadyBird.jpg (mate-backgrounds) | sharpen_auto | GPL-2+ |
| Storm.jpg (mate-backgrounds) | perfect | GPL-2+ (Sergey Nazarov) |

The derived samples keep their source's licence. GPL-2+ material is used under GPL-3 terms,
compatible with Pixmill's AGPL-3.0-or-later.
`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await generateSamples(console.log, process.argv.slice(2));
}
