/**
 * Module → engine. A module without an engine is refused at transform time with a clear
 * error (never passed through); `assertAllEngines()` lists what is missing at startup.
 */
import { MODULES, type ModuleName } from '../../src/domain/modules.js';
import type { Engine } from './types.js';
import { compressEngine } from './compress.js';

const ENGINES: Partial<Record<ModuleName, Engine>> = {
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
