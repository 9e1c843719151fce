/**
 * Module → engine, for every module at compile time (`Engines`), checked again at start-up by
 * `assertAllEngines()` (each processing slot's thread; the API process loads no engine), so a module without an engine is a
 * start-up error, never a pass-through. `runModule` is the one door to an engine: it parses the
 * params with the module's schema, so engines only ever see complete, typed params.
 */
import { MODULES, parseParams, type ModuleName } from '../../src/shared/domain/modules.js';
import { reasonMsg } from '../../src/shared/domain/reasons.js';
import type { Engine, EngineContext, EngineImage, EngineResult } from './types.js';
import { compressEngine } from './compress.js';
import { enlargeEngine } from './enlarge.js';
import { denoiseEngine } from './denoise.js';
import { sharpenEngine } from './sharpen.js';
import { sharpenAutoEngine } from './sharpenAuto.js';
import { mattingEngine } from './matting.js';
import { colorizeEngine, colorizeProEngine } from './colorize.js';
import { portraitEngine } from './portrait.js';
import { cartoonizeEngine } from './cartoonize.js';
import { faceEnhancerEngine } from './faceEnhancer.js';
import { perfectEngine } from './perfect.js';
import { repairEngine } from './repair.js';

type Engines = { readonly [M in ModuleName]: Engine<M> };

const ENGINES: Engines = {
  enlarge: enlargeEngine,
  denoise: denoiseEngine,
  sharpen: sharpenEngine,
  sharpen_auto: sharpenAutoEngine,
  matting: mattingEngine,
  colorize: colorizeEngine,
  colorize_pro: colorizeProEngine,
  portrait: portraitEngine,
  cartoonize: cartoonizeEngine,
  face_enhancer: faceEnhancerEngine,
  perfect: perfectEngine,
  repair: repairEngine,
  compress: compressEngine,
};

export function engineFor<M extends ModuleName>(module: M): Engine<M> {
  return ENGINES[module];
}

export function allEngines(): Engine[] {
  return MODULES.map((m) => engineFor(m));
}

/**
 * Throws unless every module has its own engine. The type already demands it; this catches what
 * the compiler cannot see (an import cycle leaving an entry undefined, an engine filed under
 * another module's name).
 */
export function assertAllEngines(engines: Readonly<Partial<Record<ModuleName, Engine>>> = ENGINES): void {
  const wrong = MODULES.filter((m) => engines[m]?.module !== m);
  if (wrong.length)
    throw new Error(`no engine for module ${wrong.join(', ')}: every module needs one (server/engines/registry.ts)`);
}

/** Runs module's engine with its params parsed by the module's schema (missing keys take the schema's defaults). */
export async function runModule<M extends ModuleName>(
  module: M,
  input: EngineImage,
  params: unknown,
  ctx: EngineContext,
): Promise<EngineResult> {
  const parsed = parseParams(module, params);
  if (!parsed.ok) throw new Error(reasonMsg(parsed.error));
  return engineFor(module).run(input, parsed.value, ctx);
}
