/**
 * Calibrates the int8 versions of our enlarge and denoise nets (dev only; the photos are Debian packages'):
 *   node --import tsx scripts/quantize-nets.ts [x2 x2Clean x4 x4Clean denoise x2Small] [--adds] [--dry] [--out DIR]
 * (default: those six; --adds also quantizes the residual adds; --dry prints without writing; --out
 * writes the recipes to DIR instead of server/engines/weights)
 * For each net: seeded crops of the training photos (scripts/train/data.py, the "restore" set), made into
 * the inputs the net sees (SR: the crop downscaled ×s bicubic, a quarter of them JPEG-compressed and an
 * eighth with sensor-like noise; denoise: Gaussian noise σ 0…55, a sixth JPEG-compressed), run through
 * the fp32 net; each quantized tensor's range is the one that loses the least to 8-bit rounding and
 * clipping over those values (quantize.ts `rangeOf(…, 'mse')`). The conv that reads the picture and the
 * one that writes the result stay float. Held-out crops of the same photos (another seed; never a
 * benchmark image) give the int8 net's PSNR loss against fp32 and its speed on one tile.
 * Writes server/engines/weights/<net>.int8.json; `npm run models` builds <net>.int8.onnx from it and the
 * engines run that file where the recipe is committed (models.ts `runFile`). Commit a recipe only when
 * `npm run quality -- int8` shows ≤ 0.05 dB loss on the papers' sets and `npm run bench int8` a speed-up.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { readModel, writeModel } from '../server/engines/convert/onnx.js';
import {
  activationTensors,
  calibrationModel,
  quantizableConvs,
  quantizeWithRecipe,
  rangeOf,
  type Int8Recipe,
} from '../server/engines/convert/quantize.js';
import { gaussianNoise } from '../server/engines/image.js';
import { OWN_NET_FILES } from '../src/shared/imaging/netFiles.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEIGHTS = path.join(ROOT, 'server', 'engines', 'weights');
const ROLES = { x2: 2, x2Clean: 2, x4: 4, x4Clean: 4, denoise: 1, x2Small: 2 } as const;
type Role = keyof typeof ROLES;
/** values kept per tensor per calibration crop (a random subset: the range search runs over them) */
const SAMPLES_PER_CROP = 16_384;

/** The training photos: the "restore" set of scripts/train/data.py (the list the nets were trained on). */
function trainingPhotos(): string[] {
  const py = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  // data.py imports the training stack (torch, numpy, PIL) at the top; only its list is read here, so a
  // machine without that stack gets stand-in modules for the import
  const stub = [
    'import sys, types',
    'class Any(types.ModuleType):',
    '    __path__ = []',
    '    def __getattr__(self, n):',
    "        if n.startswith('__'): raise AttributeError(n)",
    "        return sys.modules.get(f'{self.__name__}.{n}') or type(n, (), {})",
    "for m in ('torch', 'torch.utils', 'torch.utils.data', 'torch.nn', 'torch.nn.functional', 'numpy', 'PIL', 'PIL.Image', 'PIL.ImageFilter'):",
    '    try: __import__(m)',
    '    except ImportError: sys.modules[m] = Any(m)',
    'import json, data',
    'print(json.dumps([p[0] for p in data.RESTORE]))',
  ].join('\n');
  const out = execFileSync(py, ['-c', stub], {
    cwd: path.join(ROOT, 'scripts', 'train'),
  });
  const list = JSON.parse(out.toString()) as string[];
  const missing = list.filter((f) => !existsSync(f));
  if (missing.length) throw new Error(`training photos missing (install their Debian packages): ${missing.join(', ')}`);
  return list;
}

/** mulberry32: a small seeded generator, so the crops are the same on every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Pair {
  /** planar RGB 0…255, [3, size, size] */
  input: Float32Array;
  size: number;
  /** the target, interleaved RGB */
  target: Uint8Array;
}

const planar = (rgb: Uint8Array, n: number) => {
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) out[c * n + i] = rgb[i * 3 + c]!;
  return out;
};
const raw = (data: Uint8Array, width: number, height: number) => sharp(data, { raw: { width, height, channels: 3 } });

/**
 * `count` crops, photo k mod N at one of three sizes (as the training pyramid: 1, 0.7, 0.5 of the photo,
 * at most 2400 px), flat crops (RGB standard deviation < 12) drawn again.
 */
async function pairs(photos: string[], scale: number, size: number, count: number, seed: number): Promise<Pair[]> {
  const rand = rng(seed);
  const out: Pair[] = [];
  for (let k = 0; out.length < count; k++) {
    const file = photos[k % photos.length]!;
    const meta = await sharp(file).metadata();
    const f = Math.min(1, 2400 / Math.max(meta.width!, meta.height!)) * [1, 0.7, 0.5][Math.floor(rand() * 3)]!;
    const { data, info } = await sharp(file)
      .removeAlpha()
      .resize(Math.round(meta.width! * f))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hp = size * Math.max(1, scale);
    if (info.width < hp || info.height < hp) continue;
    const left = Math.floor(rand() * (info.width - hp + 1)),
      top = Math.floor(rand() * (info.height - hp + 1));
    const hr = new Uint8Array(
      await raw(data, info.width, info.height).extract({ left, top, width: hp, height: hp }).raw().toBuffer(),
    );
    let s1 = 0,
      s2 = 0;
    for (const v of hr) {
      s1 += v;
      s2 += v * v;
    }
    if (Math.sqrt(s2 / hr.length - (s1 / hr.length) ** 2) < 12) continue;
    let x: Uint8Array;
    const r = rand();
    if (scale > 1) {
      x = new Uint8Array(await raw(hr, hp, hp).resize(size, size, { kernel: 'cubic' }).raw().toBuffer());
      if (r < 0.125) x = addNoise(x, 1 + 5 * rand(), Math.floor(rand() * 1e9));
      else if (r < 0.375)
        x = new Uint8Array(
          await sharp(
            await raw(x, size, size)
              .jpeg({ quality: Math.round(60 + 35 * rand()) })
              .toBuffer(),
          )
            .removeAlpha()
            .raw()
            .toBuffer(),
        );
    } else {
      x = addNoise(hr, 55 * rand(), Math.floor(rand() * 1e9));
      if (r < 1 / 6)
        x = new Uint8Array(
          await sharp(
            await raw(x, size, size)
              .jpeg({ quality: Math.round(60 + 35 * rand()) })
              .toBuffer(),
          )
            .removeAlpha()
            .raw()
            .toBuffer(),
        );
    }
    out.push({ input: planar(x, size * size), size, target: hr });
  }
  return out;
}

function addNoise(img: Uint8Array, sigma: number, seed: number): Uint8Array {
  const n = gaussianNoise(img.length, sigma, seed);
  return Uint8Array.from(img, (v, i) => Math.max(0, Math.min(255, Math.round(v + n[i]!))));
}

const SESSION: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 2,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
  extra: { session: { intra_op: { allow_spinning: '0' } } },
};
const tensorOf = (p: Pair) => new ort.Tensor('float32', p.input, [1, 3, p.size, p.size]);

/** Squared error of a planar float output (rounded to 8 bits as the engines do) against an interleaved target. */
function sqErr(out: Float32Array, target: Uint8Array | Float32Array, planarTarget = false): number {
  const n = out.length / 3;
  let se = 0;
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) {
      const a = Math.max(0, Math.min(255, Math.round(out[c * n + i]!)));
      const b = planarTarget ? Math.max(0, Math.min(255, Math.round(target[c * n + i]!))) : target[i * 3 + c]!;
      se += (a - b) ** 2;
    }
  return se / out.length;
}
const db = (mse: number) => 10 * Math.log10((255 * 255) / Math.max(mse, 1e-10));

/** Fastest of 3 interleaved runs of one 424² tile (the server's 384-px tile and its margins), fp32 / int8. */
async function tileSpeedRatio(fp32: ort.InferenceSession, int8: ort.InferenceSession, scale: number): Promise<number> {
  const T = scale > 1 ? 424 : 512;
  const x = new ort.Tensor(
    'float32',
    new Float32Array(3 * T * T).map((_, i) => 128 + 60 * Math.sin(i / 7) + 30 * Math.sin(i / 131)),
    [1, 3, T, T],
  );
  const t = [Infinity, Infinity];
  for (let r = 0; r < 3; r++)
    for (const [k, s] of [fp32, int8].entries()) {
      const t0 = performance.now();
      await s.run({ input: x });
      t[k] = Math.min(t[k]!, performance.now() - t0);
    }
  return t[0]! / t[1]!;
}

async function calibrate(role: Role, photos: string[], adds: boolean): Promise<Int8Recipe> {
  const scale = ROLES[role];
  const net = OWN_NET_FILES[role];
  const bytes = readFileSync(path.join(WEIGHTS, net));
  const model = readModel(bytes);
  const convs = quantizableConvs(model);
  const keepFloat = [convs[0]!.name!, convs[convs.length - 1]!.name!];
  const names = activationTensors(model, convs);
  const size = scale > 1 ? 128 : 192;
  const [cal, val] = [await pairs(photos, scale, size, 48, 2026), await pairs(photos, scale, size, 24, 4711)];

  const probe = await ort.InferenceSession.create(writeModel(calibrationModel(model, names)), SESSION);
  const pick = rng(7);
  const samples = new Map(names.map((n) => [n, new Float32Array(SAMPLES_PER_CROP * cal.length)]));
  for (const [k, p] of cal.entries()) {
    const r = await probe.run({ input: tensorOf(p) });
    for (const n of names) {
      const d = r[n]!.data as Float32Array;
      const s = samples.get(n)!;
      for (let j = 0; j < SAMPLES_PER_CROP; j++) s[k * SAMPLES_PER_CROP + j] = d[Math.floor(pick() * d.length)]!;
    }
  }
  await probe.release();
  const ranges = Object.fromEntries(
    names.map((n) => {
      const r = rangeOf(samples.get(n)!, 'mse');
      return [n, [r.min, r.max] as [number, number]];
    }),
  );
  const recipe: Int8Recipe = {
    net,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    activations: 'uint8',
    adds,
    keepFloat,
    ranges,
    calibration: {
      photos: 'scripts/train/data.py RESTORE',
      crops: cal.length,
      crop: size,
      seed: 2026,
      range: 'mse',
      samplesPerCrop: SAMPLES_PER_CROP,
    },
  };

  const fp32 = await ort.InferenceSession.create(bytes, SESSION);
  const int8 = await ort.InferenceSession.create(quantizeWithRecipe(bytes, recipe), SESSION);
  let seF = 0,
    seQ = 0,
    seD = 0;
  for (const p of val) {
    const a = (await fp32.run({ input: tensorOf(p) })).output!.data as Float32Array;
    const b = (await int8.run({ input: tensorOf(p) })).output!.data as Float32Array;
    seF += sqErr(a, p.target);
    seQ += sqErr(b, p.target);
    seD += sqErr(b, a, true);
  }
  const r2 = (v: number) => Math.round(v * 1000) / 1000;
  recipe.calibration.heldOut = {
    crops: val.length,
    seed: 4711,
    fp32_psnr: r2(db(seF / val.length)),
    int8_loss_db: r2(db(seQ / val.length) - db(seF / val.length)),
    int8_vs_fp32_psnr: r2(db(seD / val.length)),
    tile_speedup: r2(await tileSpeedRatio(fp32, int8, scale)),
  };
  return recipe;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const adds = args.includes('--adds');
  const dry = args.includes('--dry'); // measure and print, write nothing
  const outAt = args.indexOf('--out'); // another folder for the recipes (to compare before replacing the committed ones)
  const outDir = outAt >= 0 ? path.resolve(args[outAt + 1]!) : WEIGHTS;
  const roles = args.filter((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1)) as Role[];
  for (const r of roles)
    if (!(r in ROLES)) throw new Error(`unknown net ${r} (known: ${Object.keys(ROLES).join(', ')})`);
  const photos = trainingPhotos();
  for (const role of roles.length ? roles : (Object.keys(ROLES) as Role[])) {
    const t0 = Date.now();
    const recipe = await calibrate(role, photos, adds);
    const out = path.join(outDir, recipe.net.replace(/\.onnx$/, '.int8.json'));
    if (!dry) writeFileSync(out, `${JSON.stringify(recipe, null, 1)}\n`);
    console.log(
      `${role}: ${path.relative(ROOT, out)} in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      JSON.stringify(recipe.calibration.heldOut),
    );
  }
}
