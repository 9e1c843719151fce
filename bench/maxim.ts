/**
 * MAXIM benchmark: per model, GFLOP of one 256×256 tile (2 × multiply-accumulates of Conv,
 * ConvTranspose, MatMul and Einsum, counted by the converter), seconds per tile on onnxruntime
 * and the achieved GFLOP/s against the 2-core FP32 peak read from the CPU flags; then the
 * 2.8 MP times of the modules that use MAXIM (perfect retouch, perfect low-light, se-night) and
 * the projected 2.8 MP time of tiled MAXIM denoising.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { convertTfGraphStatic, type GraphStats } from '../server/engines/convert/tfgraphStatic.js';
import { maximJson, type MaximTask } from '../server/engines/models.js';
import { runModule } from '../server/engines/registry.js';
import { ctx as engineContext } from '../tests/support/engines.js';
import { PRESETS } from '../src/shared/domain/modules.js';
import type { EngineImage } from '../server/engines/types.js';
import { benchPhoto } from './photo.js';
import type { BenchRow } from './run.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** FP32 FLOP per cycle per core from the CPU flags (2 FMA units × vector width × 2). */
function peakGflops(threads: number): { gflops: number; note: string } {
  let flags = '';
  let mhz = os.cpus()[0]?.speed ?? 2000;
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    flags = /^flags\s*:(.*)$/m.exec(info)?.[1] ?? '';
    const m = /^cpu MHz\s*:\s*([\d.]+)/m.exec(info);
    if (m) mhz = Number(m[1]);
  } catch {
    /* not Linux: fall back to AVX2 */
  }
  const lanes = / avx512f/.test(flags) ? 16 : / avx2/.test(flags) ? 8 : 4;
  const perCycle = 2 * lanes * (/ fma/.test(flags) ? 2 : 1);
  return {
    gflops: (perCycle * mhz * threads) / 1000,
    note: `${lanes * 32}-bit vectors, ${(mhz / 1000).toFixed(2)} GHz × ${threads} cores`,
  };
}

export async function benchMaxim(
  opts: { runs?: number; threads?: number; log?: (s: string) => void } = {},
): Promise<BenchRow[]> {
  const runs = opts.runs ?? 2;
  const threads = opts.threads ?? Number(process.env.ENGINE_THREADS || 2);
  const log = opts.log ?? ((s: string) => process.stdout.write(`  ${s}\n`));
  const rows: BenchRow[] = [];
  const peak = peakGflops(threads);
  rows.push({ name: 'fp32 peak', value: peak.gflops, unit: 'GFLOP/s', note: peak.note });
  const tileSec: Record<string, number> = {};
  for (const task of ['retouching', 'enhancement', 'denoising'] as MaximTask[]) {
    const stats: GraphStats = { macs: 0, onnxNodes: 0 };
    const t0 = performance.now();
    const bytes = convertTfGraphStatic(maximJson(task), [1, 256, 256, 3], stats);
    const convertS = (performance.now() - t0) / 1000;
    const s = await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const x = new Float32Array(256 * 256 * 3).map((_, i) => ((i * 2654435761) % 256) / 255);
    const feed = () => ({ xs_0: new ort.Tensor('float32', x, [1, 256, 256, 3]) });
    await s.run(feed()); // warm-up
    const ts: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await s.run(feed());
      ts.push((performance.now() - t) / 1000);
    }
    const sec = median(ts);
    tileSec[task] = sec;
    const gflop = (2 * stats.macs) / 1e9;
    rows.push({
      name: `maxim-${task} GFLOP per 256² tile`,
      value: gflop,
      unit: 'GFLOP',
      note: `${stats.onnxNodes} ONNX nodes; conversion ${convertS.toFixed(1)} s`,
    });
    rows.push({
      name: `maxim-${task} 256² tile`,
      value: sec,
      unit: 's',
      note: `${(gflop / sec).toFixed(1)} GFLOP/s = ${((100 * gflop) / sec / peak.gflops).toFixed(1)} % of peak`,
    });
    log(`${task}: ${gflop.toFixed(1)} GFLOP, ${sec.toFixed(2)} s a tile`);
  }

  // 2.8 MP: LadyBird cropped to 2048×1367, as bench/engines.ts
  const photo = await benchPhoto();
  const dark = await sharp(photo.data).linear(0.22, 0).jpeg({ quality: 92 }).toBuffer();
  const night: EngineImage = { ...photo, data: dark };
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return (performance.now() - t) / 1000;
  };
  const ctx = engineContext([], 'jpeg', threads);
  const pngCtx = engineContext([], 'png', threads);
  await runModule('perfect', photo, {}, ctx); // session warm-up (both models)
  await runModule('perfect', night, {}, ctx);
  const perfectT: number[] = [];
  const lowT: number[] = [];
  const nightT: number[] = [];
  const [dn, pf] = PRESETS['se-night'];
  for (let i = 0; i < runs; i++) {
    perfectT.push(await time(() => runModule('perfect', photo, {}, ctx)));
    lowT.push(await time(() => runModule('perfect', night, {}, ctx)));
    nightT.push(
      await time(async () => {
        const a = await runModule(dn.config.module, night, dn.config.module_params, pngCtx);
        await runModule(pf.config.module, { ...night, data: a.data, format: a.format }, pf.config.module_params, ctx);
      }),
    );
  }
  rows.push({ name: 'perfect 2.8 MP (MAXIM retouching)', value: median(perfectT), unit: 's' });
  rows.push({ name: 'perfect 2.8 MP dark photo (MAXIM low-light)', value: median(lowT), unit: 's' });
  rows.push({ name: 'se-night 2.8 MP (denoise → perfect)', value: median(nightT), unit: 's' });
  // tiled denoising: 256² tiles overlapping by 32 px over 2048×1367
  const tiles = Math.ceil((2048 - 32) / 224) * Math.ceil((1367 - 32) / 224);
  rows.push({
    name: 'MAXIM denoising 2.8 MP (projected)',
    value: tiles * tileSec.denoising!,
    unit: 's',
    note: `${tiles} tiles × ${tileSec.denoising!.toFixed(1)} s`,
  });
  return rows;
}
