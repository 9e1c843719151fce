/**
 * Module → engine. A module without an engine is refused at transform time with a clear
 * error (never passed through); `assertAllEngines()` lists what is missing at startup.
 */
import { MODULES, type ModuleName } from '../../src/domain/modules.js';
import type { Engine } from './types.js';
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

const ENGINES: Partial<Record<ModuleName, Engine>> = {
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
  compress: compressEngine,
};

export function engineFor(module: ModuleName): Engine | undefined {
  return ENGINES[module];
}

export function missingEngines(): ModuleName[] {
  return MODULES.filter((m) => !ENGINES[m]);
}

export function allEngines(): Engine[] {
  return Object.values(ENGINES);
}
