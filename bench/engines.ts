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
import { esrganJson, esrganSession } from '../scripts/quality/esrganModels.js';
import { MODULES, type ModuleName } from '../src/shared/domain/modules.js';
import { benchPhoto } from './photo.js';
import type { BenchRow } from './run.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

export async function benchEngines(
  opts: { runs?: number; modules?: ModuleName[]; threads?: number; log?: (s: string) => void } = {},
): Promise<BenchRow[]> {
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
  const s = await esrganSession(modelsDir, 'slim', 2, threads);
  await s.run({ input: new ort.Tensor('float32', tile, [1, 3, 256, 256]) }); // warm-up
  const ortT: number[] = [];
  for (let i = 0; i < runs; i++)
    ortT.push(await time(() => s.run({ input: new ort.Tensor('float32', tile, [1, 3, 256, 256]) })));
  const { loadLayersReference, tfjsWasm } = await import('../scripts/quality/tfjsReference.js');
  const tf = await tfjsWasm();
  const model = await loadLayersReference(esrganJson('slim', 2));
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
  rows.push({
    name: 'esrgan-slim x2 256² tile, onnxruntime',
    value: median(ortT),
    unit: 's',
    note: `${threads} threads`,
  });
  rows.push({
    name: 'esrgan-slim x2 256² tile, tfjs-wasm',
    value: median(tfT),
    unit: 's',
    note: 'tfjs-backend-wasm 4.11, 1 thread (no worker threads in Node)',
  });
  rows.push({ name: 'ratio tfjs-wasm / onnxruntime', value: median(tfT) / median(ortT), unit: '×' });
  log(`tile: ort ${median(ortT).toFixed(3)} s, tfjs ${median(tfT).toFixed(3)} s`);

  for (const f of MODEL_SOURCES.map((m) => m.file)) ensureModel(modelsDir, f); // conversion is not part of a job
  const modules: ModuleName[] = opts.modules ?? [...MODULES];
  for (const m of modules) {
    await runModule(m, img, {}, ctx).catch(() => undefined); // warm sessions; errors surface below
    const ts: number[] = [];
    for (let i = 0; i < runs; i++) ts.push(await time(() => runModule(m, img, {}, ctx)));
    rows.push({
      name: `${m} ${img.width}×${img.height}`,
      value: median(ts),
      unit: 's',
      note: `median of ${runs}, ${mp.toFixed(2)} MP, defaults`,
    });
    log(`${m}: ${ts.map((t) => t.toFixed(2)).join(', ')} s`);
  }
  // our nets against what they replaced, on the same photo in the same run (quote the ratios)
  {
    const { decodeRgb } = await import('../server/engines/image.js');
    const { upscaleTiled } = await import('../scripts/quality/esrgan.js');
    const { denoiseRgb } = await import('../server/engines/denoise.js');
    const rgb = await decodeRgb(img.data);
    const ours = {
      enlarge: rows.find((r) => r.name === `enlarge ${img.width}×${img.height}`)?.value,
      denoise: rows.find((r) => r.name === `denoise ${img.width}×${img.height}`)?.value,
    };
    const esr = await time(() => upscaleTiled(rgb, 'slim', 2, modelsDir, threads));
    rows.push({
      name: `ESRGAN-slim x2 ${img.width}×${img.height} (the enlarge net it replaced)`,
      value: esr,
      unit: 's',
      note: 'tiles only, one run',
    });
    if (ours.enlarge)
      rows.push({
        name: 'enlarge x2 (our net, whole engine) / ESRGAN-slim x2 tiles',
        value: ours.enlarge / esr,
        unit: '×',
      });
    const nlm = await time(async () =>
      denoiseRgb(rgb, { removeNoise: 75, sharpen: 75, removeOriginalDetail: 0, autoparams: false }),
    );
    rows.push({
      name: `classical NLM denoise ${img.width}×${img.height} (the denoiser it replaced)`,
      value: nlm,
      unit: 's',
      note: 'one run',
    });
    if (ours.denoise)
      rows.push({ name: 'denoise (our net, whole engine) / classical NLM', value: ours.denoise / nlm, unit: '×' });
    const { autoSharpenRgb } = await import('../server/engines/sharpenAuto.js');
    const unsharp = await time(async () => autoSharpenRgb(rgb));
    const deblur = rows.find((r) => r.name === `sharpen_auto ${img.width}×${img.height}`)?.value;
    rows.push({
      name: `classical sharpen_auto ${img.width}×${img.height} (the unsharp mask the deblur net replaced)`,
      value: unsharp,
      unit: 's',
      note: 'one run',
    });
    if (deblur)
      rows.push({
        name: 'sharpen_auto (our deblur net, whole engine) / classical',
        value: deblur / unsharp,
        unit: '×',
      });
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
    rows.push({
      name: `enlarge x${p.scale} ${p.quality} ${img.width}×${img.height}`,
      value: t,
      unit: 's',
      note: 'one run',
    });
    log(`enlarge x${p.scale} ${p.quality}: ${t.toFixed(2)} s`);
  }
  return rows;
}

/**
 * `npm run bench nets`: the v2 nets in the product against today's engine (the v1 nets, bench/v1Nets.ts)
 * in the same run, at the default params: 2.8 MP x2 (the bench photo, a JPEG q 92: the mixed net alone)
 * and the same photo at q 97 (both nets blended), 2.8 MP x4, 1 MP x8, 2.8 MP denoise, each as a ratio to
 * today's engine; each net's cost per 384² tile against today's x2 net / denoiser; and the seconds per
 * input MP of one x2 / x4 pass (what enlarge's planPasses budgets with, PASS_S_PER_MP).
 */
export async function benchNets(opts: { threads?: number; log?: (s: string) => void } = {}): Promise<BenchRow[]> {
  const threads = opts.threads ?? Number(process.env.ENGINE_THREADS || 2);
  const log = opts.log ?? ((s: string) => process.stdout.write(`  ${s}\n`));
  const { default: sharp } = await import('sharp');
  const { decodeRgb, runOnRgb } = await import('../server/engines/image.js');
  const { netUpscale, srNets } = await import('../server/engines/netRunners.js');
  const { OWN_NET_FILES } = await import('../src/shared/imaging/netFiles.js');
  const { v1Denoise, v1Enlarge, v1Files } = await import('./v1Nets.js');
  const ctx = engineContext([], 'jpeg', threads);
  const rows: BenchRow[] = [];
  const v1 = v1Files();
  for (const f of Object.values(OWN_NET_FILES)) ensureModel(MODELS_DIR, f);

  // raw cost per 384² tile, 2 threads, median of 3 after a warm-up
  const T = 384;
  const tile = new Float32Array(3 * T * T).map((_, i) => (i * 2654435761) % 256);
  const tileS = async (file: string) => {
    const { externalSession } = await import('../server/engines/models.js');
    const s = file.startsWith('/')
      ? await externalSession(MODELS_DIR, file, threads)
      : await session(MODELS_DIR, file, threads);
    const run = () => s.run({ input: new ort.Tensor('float32', tile, [1, 3, T, T]) });
    await run();
    const ts: number[] = [];
    for (let i = 0; i < 3; i++) ts.push(await time(run));
    return median(ts);
  };
  const base = { x2: await tileS(v1.x2), denoise: await tileS(v1.denoise) };
  rows.push({ name: `v1 x2 net, one ${T}² tile`, value: base.x2, unit: 's', note: `${threads} threads, median of 3` });
  for (const [role, file] of Object.entries(OWN_NET_FILES)) {
    if (role === 'deblur') continue;
    const t = await tileS(file);
    const vs = role === 'denoise' ? base.denoise : base.x2;
    rows.push({
      name: `${file} one ${T}² tile / v1 ${role === 'denoise' ? 'denoiser' : 'x2 net'}`,
      value: t / vs,
      unit: '×',
      note: `${t.toFixed(2)} s`,
    });
    log(`${file}: ${t.toFixed(2)} s per ${T}² tile (${(t / vs).toFixed(2)}× v1)`);
  }

  const photo = await benchPhoto();
  const rgb = await decodeRgb(photo.data); // the type of a decoded picture
  const mp = (photo.width * photo.height) / 1e6;
  const oneMp = await sharp(photo.data).resize(1224, 817).jpeg({ quality: 92 }).toBuffer();
  const oneMpImg = { data: oneMp, width: 1224, height: 817, format: 'jpeg' as const };
  const q97 = { ...photo, data: await sharp(photo.data).jpeg({ quality: 97 }).toBuffer() };
  await runModule('enlarge', oneMpImg, { scale: 2 }, ctx); // warm both x2 sessions' first use out of the timings
  // today's engine inside the same decode and JPEG encode as the module run
  const old = (input: typeof photo, work: (img: typeof rgb) => Promise<typeof rgb>) => () =>
    runOnRgb(input, ctx, async (img) => ({ image: await work(img) }));
  const pairs: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    [
      `enlarge x2 ${mp.toFixed(1)} MP (JPEG q 92: mixed net)`,
      () => runModule('enlarge', photo, { scale: 2 }, ctx),
      old(photo, (x) => v1Enlarge(x, 2, MODELS_DIR, threads)),
    ],
    [
      `enlarge x2 ${mp.toFixed(1)} MP (JPEG q 97: both nets blended)`,
      () => runModule('enlarge', q97, { scale: 2 }, ctx),
      old(q97, (x) => v1Enlarge(x, 2, MODELS_DIR, threads)),
    ],
    [
      `enlarge x4 ${mp.toFixed(1)} MP`,
      () => runModule('enlarge', photo, { scale: 4 }, ctx),
      old(photo, (x) => v1Enlarge(x, 4, MODELS_DIR, threads)),
    ],
    [
      'enlarge x8 1.0 MP',
      () => runModule('enlarge', oneMpImg, { scale: 8 }, ctx),
      old(oneMpImg, (x) => v1Enlarge(x, 8, MODELS_DIR, threads)),
    ],
    [
      `denoise ${mp.toFixed(1)} MP`,
      () => runModule('denoise', photo, {}, ctx),
      old(photo, (x) => v1Denoise(x, MODELS_DIR, threads)),
    ],
  ];
  for (const [name, ours, old] of pairs) {
    const a = await time(ours);
    const b = await time(old);
    rows.push({ name: `${name}, v2 nets (defaults)`, value: a, unit: 's', note: 'whole engine, JPEG out, one run' });
    rows.push({
      name: `${name}, today's engine (v1 nets)`,
      value: b,
      unit: 's',
      note: 'the v1 steps in the same decode / JPEG encode, one run',
    });
    rows.push({ name: `${name}: v2 / v1`, value: a / b, unit: '×', key: true });
    log(`${name}: v2 ${a.toFixed(1)} s, v1 ${b.toFixed(1)} s (${(a / b).toFixed(2)}×)`);
  }

  // one pass of one net per input MP (planPasses' PASS_S_PER_MP), on the 1 MP photo
  const one = await decodeRgb(oneMp);
  for (const scale of [2, 4] as const) {
    const t = await time(() => netUpscale(one, srNets(scale, 1), MODELS_DIR, threads));
    rows.push({
      name: `one x${scale} pass of one net, s per input MP`,
      value: t / ((one.w * one.h) / 1e6),
      unit: 's/MP',
      note: 'planPasses budgets PASS_S_PER_MP above this, for load',
    });
    log(`x${scale} pass: ${(t / ((one.w * one.h) / 1e6)).toFixed(1)} s/MP`);
  }
  return rows;
}
