/**
 * The ESRGAN models (@upscalerjs/esrgan-*, devDependencies), which no engine runs: our own nets replaced
 * them in enlarge. The quality runs, the benches and the tiling test compare against them, so each file is
 * converted (keras.ts) into MODELS_DIR on its first use, through models.ts's ensureModelFrom / sessionFrom.
 */
import path from 'node:path';
import { pkgDir, sessionFrom, type ModelSource } from '../../server/engines/models.js';
import { convertKerasModel } from './keras.js';

export type EsrganSize = 'slim' | 'medium' | 'thick';
export type EsrganScale = 2 | 3 | 4 | 8;

/** The TF.js layers model a package ships for one scale. */
export const esrganJson = (size: EsrganSize, scale: EsrganScale) =>
  path.join(pkgDir(`@upscalerjs/esrgan-${size}`), 'models', `x${scale}`, 'model.json');

export function esrganSource(size: EsrganSize, scale: EsrganScale): ModelSource {
  return {
    file: `esrgan-${size}-x${scale}.onnx`,
    version: '2-subpixel',
    sources: () => [esrganJson(size, scale)],
    // slim/medium ("rdn") work on 0..255, thick ("rrdn") on 0..1 (see their getModelDefinition).
    build: () => convertKerasModel(esrganJson(size, scale), size === 'thick' ? 1 : 255),
  };
}

/** The onnxruntime session of one ESRGAN model, converted first if needed. */
export const esrganSession = (modelsDir: string, size: EsrganSize, scale: EsrganScale, threads: number) =>
  sessionFrom(modelsDir, esrganSource(size, scale), threads);
