/**
 * `npm run bench int8`: our nets in int8 (server/engines/weights/*.int8.json → models/<net>.int8.onnx)
 * against fp32, all in this one run (the machine is shared: quote the ratios):
 *  - one server tile of each net with an int8 recipe (SR: 384 px + 36-px margins; denoise: 512 + 48),
 *    the product's session options, fastest of 3 interleaved runs: fp32 / int8 time;
 *  - whole engine calls on the 2.8 MP bench photo at default params (enlarge x2, denoise), ENGINE_INT8=0
 *    then auto, auto then 0, the faster of each kept;
 *  - tile size: the x2 nets' cost per input megapixel at 256 / 384 / 512-px tiles (+ margins), fp32 and int8;
 *  - onnxruntime session options on the x2 int8 tile, each as a ratio to the product's options (models.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { runModule } from '../server/engines/registry.js';
import { ctx as engineContext, MODELS_DIR } from '../tests/support/engines.js';
import { ensureModel, sessionOptions } from '../server/engines/models.js';
import { OWN_NET_FILES } from '../src/shared/imaging/netFiles.js';
import { benchPhoto } from './photo.js';
import type { BenchRow } from './run.js';

const WEIGHTS = path.resolve(import.meta.dirname, '..', 'server', 'engines', 'weights');
type Opts = ort.InferenceSession.SessionOptions;

const input = (side: number) =>
  new ort.Tensor(
    'float32',
    new Float32Array(3 * side * side).map((_, i) => 128 + 60 * Math.sin(i / 7) + 30 * Math.sin(i / 131)),
    [1, 3, side, side],
  );

/** Fastest of `runs` interleaved runs of each session on one input, seconds. */
async function fastest(sessions: ort.InferenceSession[], x: ort.Tensor, runs = 3): Promise<number[]> {
  for (const s of sessions) await s.run({ input: x }); // warm-up: the first run plans the memory
  const t = sessions.map(() => Infinity);
  for (let r = 0; r < runs; r++)
    for (const [k, s] of sessions.entries()) {
      const t0 = performance.now();
      await s.run({ input: x });
      t[k] = Math.min(t[k]!, (performance.now() - t0) / 1000);
    }
  return t;
}

async function open(file: string, opts: Opts): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(ensureModel(MODELS_DIR, file), opts);
}

export async function benchInt8(opts: { threads?: number; engineCalls?: boolean } = {}): Promise<BenchRow[]> {
  const threads = opts.threads ?? Number(process.env.ENGINE_THREADS || 2);
  const base = sessionOptions(threads);
  const rows: BenchRow[] = [];
  const nets = readdirSync(WEIGHTS)
    .filter((f) => f.endsWith('.int8.json'))
    .map((f) => f.replace(/\.int8\.json$/, '.onnx'));
  if (!nets.length)
    return [
      {
        name: 'int8 nets',
        value: 0,
        unit: 'nets',
        note: 'no int8 recipe is committed (server/engines/weights/*.int8.json)',
      },
    ];

  // one server tile per net
  for (const net of nets) {
    const side = net.includes('denoise') ? 512 + 2 * 48 : 384 + 2 * 36;
    const [f, q] = await fastest(
      [await open(net, base), await open(net.replace(/\.onnx$/, '.int8.onnx'), base)],
      input(side),
    );
    rows.push({
      name: `${net.replace(/\.onnx$/, '')} tile ${side}²: fp32 / int8 time`,
      value: f! / q!,
      unit: 'ratio',
      note: `fp32 ${f!.toFixed(2)} s, int8 ${q!.toFixed(2)} s; ${threads} threads`,
      key: true,
    });
  }

  // whole engine calls at default params
  if (opts.engineCalls ?? true) {
    const img = await benchPhoto();
    const ctx = engineContext([], 'jpeg', threads);
    for (const [module, params] of [
      ['enlarge', { scale: 2 }],
      ['denoise', {}],
    ] as const) {
      const t = { fp32: Infinity, int8: Infinity };
      for (const mode of ['fp32', 'int8', 'int8', 'fp32'] as const) {
        process.env.ENGINE_INT8 = mode === 'fp32' ? '0' : 'auto';
        const t0 = performance.now();
        await runModule(module, img, params, ctx);
        t[mode] = Math.min(t[mode], (performance.now() - t0) / 1000);
      }
      delete process.env.ENGINE_INT8;
      rows.push({
        name: `${module} ${img.width}×${img.height} defaults: fp32 / int8 engine time`,
        value: t.fp32 / t.int8,
        unit: 'ratio',
        note: `fp32 ${t.fp32.toFixed(1)} s, int8 ${t.int8.toFixed(1)} s (faster of 2 each)`,
        key: true,
      });
    }
  }

  // tile size: cost per input megapixel of the core (margins computed but not kept)
  const x2 = nets.filter((n) => n === OWN_NET_FILES.x2Clean || n === OWN_NET_FILES.x2)[0];
  if (x2) {
    const pair = [await open(x2, base), await open(x2.replace(/\.onnx$/, '.int8.onnx'), base)];
    for (const tile of [256, 384, 512]) {
      const side = tile + 2 * 36;
      const [f, q] = await fastest(pair, input(side), 2);
      const perMp = (s: number) => s / ((tile * tile) / 1e6);
      rows.push({
        name: `${x2.replace(/\.onnx$/, '')} tile ${tile} (+36 margins): s per input MP`,
        value: perMp(q!),
        unit: 's/MP',
        note: `int8; fp32 ${perMp(f!).toFixed(2)} s/MP; fp32 / int8 ${(f! / q!).toFixed(2)}`,
      });
    }

    // session options on the int8 x2 tile, each against the product's options in the same loop
    const variants: [string, Opts][] = [
      ['graphOptimizationLevel extended', { ...base, graphOptimizationLevel: 'extended' }],
      ['graphOptimizationLevel basic', { ...base, graphOptimizationLevel: 'basic' }],
      ['enableCpuMemArena false', { ...base, enableCpuMemArena: false }],
      ['enableMemPattern false', { ...base, enableMemPattern: false }],
      ['executionMode parallel (2 inter-op threads)', { ...base, executionMode: 'parallel', interOpNumThreads: 2 }],
      ['allow_spinning 1', { ...base, extra: { session: { intra_op: { allow_spinning: '1' } } } }],
      ['intraOpNumThreads 1', { ...base, intraOpNumThreads: 1 }],
    ];
    const file = x2.replace(/\.onnx$/, '.int8.onnx');
    const side = 384 + 2 * 36;
    const product = await open(file, base);
    for (const [name, o] of variants) {
      const [p, v] = await fastest([product, await open(file, o)], input(side));
      rows.push({
        name: `int8 x2 tile, ${name}: product / this time`,
        value: p! / v!,
        unit: 'ratio',
        note: `product options ${p!.toFixed(2)} s (${threads} threads, all optimisations, arena, sequential, spinning ${JSON.stringify(base.extra)}), this ${v!.toFixed(2)} s`,
      });
    }
  }
  return rows;
}
