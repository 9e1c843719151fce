/**
 * Model files: where each ONNX model the engines run comes from (npm packages, converted by our own
 * converters), how it is (re)built, and one memoised onnxruntime session per model and thread count.
 * Models only the quality runs and the benches compare against (ESRGAN: scripts/quality/esrganModels.ts)
 * give their own ModelSource to ensureModelFrom / sessionFrom.
 */
import { createRequire } from 'node:module';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  openSync,
  writeSync,
  closeSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { convertTfGraphModel } from './convert/tfgraph.js';
import { convertTfGraphStatic } from './convert/tfgraphStatic.js';
import { quantizeWithRecipe, type Int8Recipe } from './convert/quantize.js';
import { OWN_NET_FILES } from '../../src/shared/imaging/netFiles.js';
import { engineSettings } from '../config.js';

const require = createRequire(import.meta.url);
/** Package folder through node's own lookup paths (some packages do not export package.json). */
export function pkgDir(name: string): string {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = path.join(base, name);
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error(`package ${name} is not installed`);
}

/**
 * IS-Net variant (ISNET_VARIANT): "medium" (fp16, 88 MB) gives the cleaner mask; see README for the
 * measurement. Read when the model is built, not at import: a process (the e2e runner) may set it after
 * loading this module.
 */
const isnetVariant = () => `/models/${engineSettings().isnetVariant}`;

export interface ModelSource {
  file: string;
  /** bumped whenever the converter's output for this model changes; stored beside the file */
  version: string;
  /** source files whose mtime decides whether the output is up to date */
  sources(): string[];
  build(): Uint8Array | Buffer;
  /** built on first use only, not by `npm run models` (a model only quality / bench use, from devDependencies) */
  onDemand?: boolean;
}

export type MaximTask = 'retouching' | 'enhancement' | 'denoising';
/**
 * MAXIM input sizes converted, [height, width]: tone tasks run on a reduced landscape copy
 * (portrait pictures transposed; 256 px long side: 212 GFLOP per 256² → ~10–25 s here), denoising on tiles.
 */
export const MAXIM_SIZES: Readonly<Record<MaximTask, readonly [number, number][]>> = {
  retouching: [[192, 256]],
  enhancement: [[192, 256]],
  denoising: [[256, 256]],
};
export const maximFile = (task: MaximTask, h: number, w: number) => `maxim-${task}-${w}x${h}.onnx`;
export const maximJson = (task: MaximTask) => path.join(pkgDir(`@upscalerjs/maxim-${task}`), 'models', 'model.json');

/**
 * One MAXIM graph converted for a fixed input size (MIT packaging by UpscalerJS of Google's
 * Apache-2.0 weights). Denoising lost to the classical engine (README), so its package is a
 * devDependency and its model is converted only when quality / bench ask for it.
 */
function maximSource(task: MaximTask, h: number, w: number): ModelSource {
  return {
    file: maximFile(task, h, w),
    onDemand: task === 'denoising',
    version: '1',
    sources: () => [maximJson(task)],
    build: () => convertTfGraphStatic(maximJson(task), [1, h, w, 3]),
  };
}

const blazefaceJson = () => path.join(pkgDir('@vladmandic/human'), 'models', 'blazeface.json');
const facemeshJson = () => path.join(pkgDir('@vladmandic/human'), 'models', 'facemesh.json');
const isnetResources = () => path.join(pkgDir('@imgly/background-removal-data'), 'dist', 'resources.json');

/** Our own trained weights, kept in the repository (scripts/train/; see weights/README.md). */
const ownWeights = (file: string) => path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights', file);

/**
 * Int8 versions of our nets: one per calibration recipe committed beside a net (weights/<net>.int8.json,
 * scripts/quantize-nets.ts), built from the fp32 file at `npm run models` (a second or so each). A
 * recipe is committed only where int8 keeps the papers' figures within 0.05 dB and runs faster
 * (README, "int8"); `runFile` then hands the engines the int8 file.
 */
const INT8_RECIPES: readonly string[] = readdirSync(ownWeights('.')).filter((f) => f.endsWith('.int8.json'));
const int8File = (net: string) => net.replace(/\.onnx$/, '.int8.onnx');
const int8Source = (recipeFile: string): ModelSource => {
  const recipe = () => JSON.parse(readFileSync(ownWeights(recipeFile), 'utf8')) as Int8Recipe;
  const net = recipeFile.replace(/\.int8\.json$/, '.onnx');
  return {
    file: int8File(net),
    // 2: the integer convs written channels-last (quantize.ts channelsLast), same arithmetic
    version: '2-nhwc',
    sources: () => [ownWeights(net), ownWeights(recipeFile)],
    build: () => quantizeWithRecipe(readFileSync(ownWeights(net)), recipe()),
  };
};

/** The file the engines run for one of our nets: its int8 version where a recipe is committed, unless ENGINE_INT8=0. */
export function runFile(net: string): string {
  return engineSettings().int8 && INT8_RECIPES.includes(net.replace(/\.onnx$/, '.int8.json')) ? int8File(net) : net;
}

export const MODEL_SOURCES: ModelSource[] = [
  ...(Object.keys(MAXIM_SIZES) as MaximTask[]).flatMap((t) => MAXIM_SIZES[t].map(([h, w]) => maximSource(t, h, w))),
  ...['scratch-repair.onnx', ...Object.values(OWN_NET_FILES)].map((file) => ({
    file,
    version: file === 'scratch-repair.onnx' ? '2-unet' : '1',
    sources: () => [ownWeights(file)],
    build: () => readFileSync(ownWeights(file)),
  })),
  ...INT8_RECIPES.map(int8Source),
  {
    file: 'blazeface.onnx',
    version: '1',
    sources: () => [blazefaceJson()],
    build: () => convertTfGraphModel(blazefaceJson()).onnx,
  },
  {
    file: 'facemesh.onnx',
    version: '1',
    sources: () => [facemeshJson()],
    build: () => convertTfGraphModel(facemeshJson()).onnx,
  },
  {
    file: 'isnet.onnx',
    get version() {
      return `1${isnetVariant()}`;
    },
    sources: () => [isnetResources()],
    build: () => {
      const res = JSON.parse(readFileSync(isnetResources(), 'utf8'));
      const entry = res[isnetVariant()] as { chunks: { hash: string }[]; size: number };
      const dir = path.dirname(isnetResources());
      const buf = Buffer.concat(entry.chunks.map((c) => readFileSync(path.join(dir, c.hash))));
      if (buf.length !== entry.size)
        throw new Error(`IS-Net chunks add up to ${buf.length} bytes, expected ${entry.size}`);
      return buf;
    },
  },
];

const stampOf = (out: string) => `${out}.version`;

function upToDate(out: string, m: ModelSource): boolean {
  if (!existsSync(out) || !existsSync(stampOf(out))) return false;
  if (readFileSync(stampOf(out), 'utf8') !== m.version) return false;
  const t = statSync(out).mtimeMs;
  return m.sources().every((s) => statSync(s).mtimeMs <= t);
}

function modelSource(file: string): ModelSource {
  const src = MODEL_SOURCES.find((m) => m.file === file);
  if (!src) throw new Error(`unknown model ${file}`);
  return src;
}

/** Builds one of our models (MODEL_SOURCES) if missing or older than its sources; returns its path. */
export function ensureModel(modelsDir: string, file: string): string {
  return ensureModelFrom(modelsDir, modelSource(file));
}

/** Builds the model `src` describes (one of ours, or a caller's own) if missing or older than its sources; returns its path. */
export function ensureModelFrom(modelsDir: string, src: ModelSource): string {
  const out = path.join(modelsDir, src.file);
  if (upToDate(out, src)) return out;
  mkdirSync(modelsDir, { recursive: true });
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  const data = src.build();
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, out); // atomic: concurrent workers never see half a file
  const stampTmp = `${tmp}.version`;
  writeFileSync(stampTmp, src.version);
  renameSync(stampTmp, stampOf(out));
  return out;
}

/** Converts every model; returns which files were built and which were already up to date. */
export function convertAll(
  modelsDir: string,
  log: (s: string) => void = () => {},
): { built: string[]; skipped: string[] } {
  const built: string[] = [];
  const skipped: string[] = [];
  for (const m of MODEL_SOURCES) {
    if (m.onDemand) continue;
    const out = path.join(modelsDir, m.file);
    if (upToDate(out, m)) {
      skipped.push(m.file);
      continue;
    }
    const t0 = Date.now();
    ensureModelFrom(modelsDir, m);
    built.push(m.file);
    log(`built ${m.file} in ${Date.now() - t0} ms`);
  }
  return { built, skipped };
}

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/**
 * Wall time and input pixels (last two dims of the first input) of every session.run in this
 * process, so the bench can compare a whole engine call with its raw inference.
 */
export const inferenceClock = { ms: 0, runs: 0, pixels: 0 };

function clocked(s: ort.InferenceSession): ort.InferenceSession {
  const run = s.run.bind(s) as (...a: unknown[]) => Promise<ort.InferenceSession.ReturnType>;
  (s as { run: unknown }).run = async (...args: unknown[]) => {
    const first = Object.values((args[0] ?? {}) as Record<string, ort.Tensor>)[0];
    const d = first?.dims ?? [];
    const t0 = performance.now();
    try {
      return await run(...args);
    } finally {
      inferenceClock.ms += performance.now() - t0;
      inferenceClock.runs++;
      if (d.length >= 2) inferenceClock.pixels += d[d.length - 1]! * d[d.length - 2]!;
    }
  };
  return s;
}

/**
 * Session options: all graph optimisations, the CPU memory arena and memory patterns (tiles of
 * one size reuse their buffers), intra-op threads = the slot's share of cores. Spinning is off
 * when this process's slot threads would oversubscribe the cores (ENGINE_SPIN=1 forces it on):
 * a spinning idle ORT thread burns the CPU that the API processes and other slots need.
 */
export function sessionOptions(
  threads: number,
  cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
): ort.InferenceSession.SessionOptions {
  const forced = engineSettings().spin;
  const spin = forced === 'on' || (forced === 'auto' && threads < cores);
  return {
    intraOpNumThreads: Math.max(1, threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    enableCpuMemArena: true,
    enableMemPattern: true,
    extra: { session: { intra_op: { allow_spinning: spin ? '1' : '0' } } },
  };
}

/** One session per (model file, threads), created on first use and kept for the worker's lifetime; a failed one is retried. */
function memoised(file: string, threads: number, locate: () => string): Promise<ort.InferenceSession> {
  const key = `${path.resolve(file)}#${threads}`;
  let s = sessions.get(key);
  if (!s) {
    s = (async () => clocked(await ort.InferenceSession.create(locate(), sessionOptions(threads))))();
    s.catch(() => sessions.delete(key));
    sessions.set(key, s);
  }
  return s;
}

/** The session of one of our models (MODEL_SOURCES), converted first if needed. */
export function session(modelsDir: string, file: string, threads: number): Promise<ort.InferenceSession> {
  return sessionFrom(modelsDir, modelSource(file), threads);
}

/** The session of the model `src` describes (one of ours, or a caller's own), built first if needed. */
export function sessionFrom(modelsDir: string, src: ModelSource, threads: number): Promise<ort.InferenceSession> {
  return memoised(path.resolve(modelsDir, src.file), threads, () => ensureModelFrom(modelsDir, src));
}

/** The session of a model file supplied by the operator (e.g. colorize.onnx), relative to MODELS_DIR. */
export function externalSession(modelsDir: string, file: string, threads: number): Promise<ort.InferenceSession> {
  const p = path.resolve(modelsDir, file);
  return memoised(p, threads, () => p);
}

export { ort };
