/**
 * `npm run bench today`: the engines against today's engine at a fixed commit (issue 51: `0277b08`), in
 * the same process and run, interleaved (old, new, new, old; the faster of each kept), so the ratios hold
 * on a shared, loaded machine. The old tree is `git archive`d into .tmp/engine-<commit> (its own models
 * folder, built there on first use from its own recipes); both engines get the same photo, params and threads.
 * Cases: 2.8 MP x2 at default params, 2.8 MP x4, 2.8 MP denoise, 1 MP x8, 1 MP x4 (BENCH_TODAY_CASES picks some).
 * Each case also checks the honest time (issue 51 point 4): the estimate a new server gives before start (the
 * seed rates, src/shared/domain/estimate.ts) against this engine's measured time; the bound is ±50 %.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModule } from '../server/engines/registry.js';
import { SEED_S_PER_MP, workSeconds } from '../src/shared/domain/estimate.js';
import { ctx as engineContext } from '../tests/support/engines.js';
import { benchPhoto } from './photo.js';
import type { BenchRow } from './run.js';
import type { EngineContext, EngineImage } from '../server/engines/types.js';

const ROOT = path.resolve(import.meta.dirname, '..');
export const TODAY = process.env.BENCH_TODAY || '0277b08';

/** today's engine's runModule, from the commit's own tree */
async function todaysEngine(commit: string): Promise<{ run: typeof runModule; modelsDir: string }> {
  const dir = path.join(ROOT, '.tmp', `engine-${commit}`);
  if (!existsSync(path.join(dir, 'server', 'engines', 'registry.ts'))) {
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', commit, 'server', 'src/shared'], { cwd: ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  }
  const mod = (await import(path.join(dir, 'server', 'engines', 'registry.ts'))) as { runModule: typeof runModule };
  return { run: mod.runModule, modelsDir: path.join(dir, 'models') };
}

export async function benchToday(opts: { threads?: number; log?: (s: string) => void } = {}): Promise<BenchRow[]> {
  const threads = opts.threads ?? Number(process.env.ENGINE_THREADS || 2);
  const log = opts.log ?? ((s: string) => process.stdout.write(`  ${s}\n`));
  const today = await todaysEngine(TODAY);
  const ctx = engineContext([], 'jpeg', threads);
  const oldCtx: EngineContext = { ...ctx, modelsDir: today.modelsDir };
  const photo = await benchPhoto();
  const mp = (photo.width * photo.height) / 1e6;
  const oneMp: EngineImage = {
    data: await sharp(photo.data).resize(1224, 817).jpeg({ quality: 92 }).toBuffer(),
    width: 1224,
    height: 817,
    format: 'jpeg',
  };
  const cases: [string, EngineImage, 'enlarge' | 'denoise', Record<string, unknown>][] = [
    [`enlarge x2 ${mp.toFixed(1)} MP defaults`, photo, 'enlarge', { scale: 2 }],
    [`enlarge x4 ${mp.toFixed(1)} MP`, photo, 'enlarge', { scale: 4 }],
    [`denoise ${mp.toFixed(1)} MP defaults`, photo, 'denoise', {}],
    ['enlarge x8 1.0 MP', oneMp, 'enlarge', { scale: 8 }],
    ['enlarge x4 1.0 MP', oneMp, 'enlarge', { scale: 4 }],
  ];
  const small: EngineImage = {
    ...oneMp,
    data: await sharp(oneMp.data).resize(160).jpeg().toBuffer(),
    width: 160,
    height: 107,
  };
  // sessions and model files out of the timings
  for (const m of ['enlarge', 'denoise'] as const) {
    await today.run(m, small, {}, oldCtx);
    await runModule(m, small, {}, ctx);
  }
  const rows: BenchRow[] = [];
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return (performance.now() - t0) / 1000;
  };
  // BENCH_TODAY_CASES=x4,x8: only the cases whose name holds one of these words
  const only = process.env.BENCH_TODAY_CASES?.split(',').filter(Boolean);
  for (const [name, img, module, params] of cases) {
    if (only && !only.some((w) => name.includes(w))) continue;
    const t = { old: Infinity, now: Infinity };
    for (const who of ['old', 'now', 'now', 'old'] as const)
      t[who] = Math.min(
        t[who],
        await time(() =>
          who === 'old' ? today.run(module, img, params, oldCtx) : runModule(module, img, params, ctx),
        ),
      );
    rows.push({
      name: `${name}: today's engine (${TODAY}) / this one`,
      value: t.old / t.now,
      unit: '×',
      note: `${TODAY} ${t.old.toFixed(1)} s, this ${t.now.toFixed(1)} s (faster of 2 each, interleaved); ${threads} threads`,
      key: true,
    });
    log(`${name}: ${TODAY} ${t.old.toFixed(1)} s, now ${t.now.toFixed(1)} s → ${(t.old / t.now).toFixed(2)}×`);
    const estimate = workSeconds([{ module, module_params: params }], img.width, img.height, SEED_S_PER_MP);
    rows.push({
      name: `${name}: estimate before start / measured`,
      value: estimate / t.now,
      unit: '×',
      note: `estimate ${estimate.toFixed(1)} s from the seed rates, measured ${t.now.toFixed(1)} s (engine call: decode, passes, encode); within ±50 %: ${Math.abs(estimate / t.now - 1) <= 0.5 ? 'yes' : 'no'}`,
    });
    log(
      `${name}: estimate ${estimate.toFixed(1)} s / measured ${t.now.toFixed(1)} s → ${(estimate / t.now).toFixed(2)}×`,
    );
  }
  return rows;
}
