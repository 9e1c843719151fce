/**
 * Engine benchmark: per-module median of 3 runs on a 2.8 MP photo (LadyBird.jpg cropped to
 * 2048×1367), plus ESRGAN-slim x2 on one 256×256 tile on onnxruntime vs tfjs-backend-wasm, and our
 * enlarge / denoise / deblur nets against ESRGAN-slim, the classical NLM and unsharp mask they replaced, measured in the
 * same run (quote the ratios; the machine is shared).
 */
import * as ort from 'onnxruntime-node';
import { runModule } from '../server/engines/registry.js';
import { ctx as engineContext, MODELS_DIR } from '../tests/support/engines.js';
import { ensureModel, MODEL_SOURCES, session } from '../server/engines/models.js';
import { MODULES, type ModuleName } from '../src/shared/domain/modules.js';
import { benchPhoto } from './photo.js';
import type { BenchRow } from './run.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

export async function benchEngines(opts: { runs?: number; modules?: ModuleName[]; threads?: number; log?: (s: string) => void } = {}): Promise<BenchRow[]> {
  const runs = opts.runs ?? 3;
  const threads = opts.threads ?? Number(process.env.ENGINE_THREADS || 2);
  const log = opts.log ?? ((s: string) => process.stdout.write(`  ${s}\n`));
  const modelsDir = MODELS_DIR;
  // the photo is a JPEG and so is each result, as for a user's single-step work
  const ctx = engineContext([], 'jpeg', threads);
  const img = await benchPhoto();
  const mp = (img.width * img.height) / 1e6;
  const rows: BenchRow[] = [];

  // ORT vs tfjs-wasm on the same 256×256 tile
  const tile = new Float32Array(3 * 256 * 256).map((_, i) => (i * 2654435761) % 256);
  const s = await session(modelsDir, 'esrgan-slim-x2.onnx', threads);
  await s.run({ input: new ort.Tensor('float32', tile, [1, 3, 256, 256]) }); // warm-up
  const ortT: number[] = [];
  for (let i = 0; i < runs; i++) ortT.push(await time(() => s.run({ input: new ort.Tensor('float32', tile, [1, 3, 256, 256]) })));
  const { loadLayersReference, tfjsWasm } = await import('../server/engines/convert/tfjsReference.js');
  const tf = await tfjsWasm();
  const json = MODEL_SOURCES.find((m) => m.file === 'esrgan-slim-x2.onnx')!.sources()[0]!;
  const model = await loadLayersReference(json);
  const nchw = tf.tensor4d(tile, [1, 3, 256, 256]);
  const x = tf.transpose(nchw, [0, 2, 3, 1]);
  nchw.dispose();
  const predict = async () => {
    const y = model.predict(x) as ReturnType<typeof tf.tensor>;
    await y.data();
    y.dispose();
  };
  await predict(); // warm-up
  const tfT: number[] = [];
  for (let i = 0; i < runs; i++) tfT.push(await time(predict));
  x.dispose();
  rows.push({ name: 'esrgan-slim x2 256² tile, onnxruntime', value: median(ortT), unit: 's', note: `${threads} threads` });
  rows.push({ name: 'esrgan-slim x2 256² tile, tfjs-wasm', value: median(tfT), unit: 's', note: 'tfjs-backend-wasm 4.11, 1 thread (no worker threads in Node)' });
  rows.push({ name: 'ratio tfjs-wasm / onnxruntime', value: median(tfT) / median(ortT), unit: '×' });
  log(`tile: ort ${median(ortT).toFixed(3)} s, tfjs ${median(tfT).toFixed(3)} s`);

  for (const f of MODEL_SOURCES.map((m) => m.file)) ensureModel(modelsDir, f); // conversion is not part of a job
  const modules: ModuleName[] = opts.modules ?? [...MODULES];
  for (const m of modules) {
    await runModule(m, img, {}, ctx).catch(() => undefined); // warm sessions; errors surface below
    const ts: number[] = [];
    for (let i = 0; i < runs; i++) ts.push(await time(() => runModule(m, img, {}, ctx)));
    rows.push({ name: `${m} ${img.width}×${img.height}`, value: median(ts), unit: 's', note: `median of ${runs}, ${mp.toFixed(2)} MP, defaults` });
    log(`${m}: ${ts.map((t) => t.toFixed(2)).join(', ')} s`);
  }
  // our nets against what they replaced, on the same photo in the same run (quote the ratios)
  {
    const { decodeRgb } = await import('../server/engines/image.js');
    const { upscaleTiled } = await import('../server/engines/esrgan.js');
    const { denoiseRgb } = await import('../server/engines/denoise.js');
    const rgb = await decodeRgb(img.data);
    const ours = { enlarge: rows.find((r) => r.name === `enlarge ${img.width}×${img.height}`)?.value, denoise: rows.find((r) => r.name === `denoise ${img.width}×${img.height}`)?.value };
    const esr = await time(() => upscaleTiled(rgb, 'slim', 2, modelsDir, threads));
    rows.push({ name: `ESRGAN-slim x2 ${img.width}×${img.height} (the enlarge net it replaced)`, value: esr, unit: 's', note: 'tiles only, one run' });
    if (ours.enlarge) rows.push({ name: 'enlarge x2 (our net, whole engine) / ESRGAN-slim x2 tiles', value: ours.enlarge / esr, unit: '×' });
    const nlm = await time(async () => denoiseRgb(rgb, { removeNoise: 75, sharpen: 75, removeOriginalDetail: 0, autoparams: false }));
    rows.push({ name: `classical NLM denoise ${img.width}×${img.height} (the denoiser it replaced)`, value: nlm, unit: 's', note: 'one run' });
    if (ours.denoise) rows.push({ name: 'denoise (our net, whole engine) / classical NLM', value: ours.denoise / nlm, unit: '×' });
    const { autoSharpenRgb } = await import('../server/engines/sharpenAuto.js');
    const unsharp = await time(async () => autoSharpenRgb(rgb));
    const deblur = rows.find((r) => r.name === `sharpen_auto ${img.width}×${img.height}`)?.value;
    rows.push({ name: `classical sharpen_auto ${img.width}×${img.height} (the unsharp mask the deblur net replaced)`, value: unsharp, unit: 's', note: 'one run' });
    if (deblur) rows.push({ name: 'sharpen_auto (our deblur net, whole engine) / classical', value: deblur / unsharp, unit: '×' });
    log(`ESRGAN-slim x2 ${esr.toFixed(2)} s, NLM ${nlm.toFixed(2)} s, classical sharpen_auto ${unsharp.toFixed(2)} s`);
  }
  // heavier enlarge settings, one run each: must stay well below the 5-minute job limit
  for (const p of [
    { scale: 2, quality: 'best' },
    { scale: 4, quality: 'high' },
    { scale: 6, quality: 'high' },
    { scale: 8, quality: 'high' },
    { scale: 8, quality: 'best' },
  ] as const) {
    const t = await time(() => runModule('enlarge', img, p, ctx));
    rows.push({ name: `enlarge x${p.scale} ${p.quality} ${img.width}×${img.height}`, value: t, unit: 's', note: 'one run' });
    log(`enlarge x${p.scale} ${p.quality}: ${t.toFixed(2)} s`);
  }
  return rows;
}
